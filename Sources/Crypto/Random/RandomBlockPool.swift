import Synchronization

/// Short random draws served from blocks of OpenSSL's CSPRNG output, each byte handed out once and zeroed as it
/// is handed out.
///
/// Why: OpenSSL 3.0's `RAND_bytes` costs about a microsecond whatever the length up to a few kilobytes (the
/// CTR-DRBG takes its lock, generates, then re-keys AES with `EVP_CipherInit_ex` on every call), and a login makes
/// about eight draws of 12 to 32 bytes (challenge, session id, AEAD nonce, refresh token, jti, identifiers). One
/// 4 KiB `RAND_bytes` serves about twenty logins' worth of draws for the price of one call.
///
/// Why this does not weaken the CSPRNG: the bytes are OpenSSL's output, unchanged, each handed out once (a byte
/// is zeroed when it is handed out, and a draw that does not fit in what is left starts a new block); the block
/// lies in the same process memory as the DRBG's own state, from which anyone able to read it could compute the
/// same outputs anyway. OpenSSL reseeds its DRBG after a `fork`; a copied block would not be, but passkeyd never
/// forks and continues (the only child processes, in test support, start with `posix_spawn`, whose `exec` replaces
/// the memory).
final class RandomBlockPool: Sendable {
    /// The largest draw served from a block; longer ones (keys, SRP secrets) go to `RAND_bytes` directly.
    static let largestPooledDraw = 64

    /// The process's pool, behind `SecureRandom.bytes(count:)`.
    static let shared = RandomBlockPool(blockByteCount: 4096)

    /// The current block and how much of it has been handed out (the bytes before `used` are zero).
    private struct Block {
        var bytes: [UInt8]
        var used: Int
    }

    private let block: Mutex<Block>
    /// How many bytes one `RAND_bytes` call fills.
    let blockByteCount: Int

    /// A pool drawing blocks of `blockByteCount` bytes (at least `largestPooledDraw`); the first is drawn on first
    /// use.
    init(blockByteCount: Int) {
        let size = max(blockByteCount, Self.largestPooledDraw)
        self.blockByteCount = size
        // Starts fully used, so the first draw fills it.
        self.block = Mutex(Block(bytes: [UInt8](repeating: 0, count: size), used: size))
    }

    /// `count` bytes (0...`largestPooledDraw`) of OpenSSL's CSPRNG output never handed out before.
    /// - Throws: `.randomFailure` when `count` is out of that range or `RAND_bytes` fails (then nothing is handed
    ///   out and the block stays empty).
    func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        guard count >= 0, count <= Self.largestPooledDraw else {
            throw CryptoError(.randomFailure, "pooled draw of \(count) bytes is out of range")
        }
        if count == 0 { return [] }
        return try block.withLock { (block) throws(CryptoError) -> [UInt8] in
            if block.bytes.count - block.used < count {
                // What is left is too short: it is dropped (overwritten) and a fresh block drawn.
                block.used = block.bytes.count
                try OpenSSLRandom.fill(&block.bytes)
                block.used = 0
            }
            let range = block.used..<(block.used + count)
            let drawn = Array(block.bytes[range])
            block.bytes.withUnsafeMutableBufferPointer { buffer in
                // Handed out once: zeroed in the block before the lock is released.
                for index in range { buffer[index] = 0 }
            }
            block.used += count
            return drawn
        }
    }

    /// Whether every byte handed out from the current block has been zeroed (for tests).
    func handedOutBytesAreZero() -> Bool {
        block.withLock { block in block.bytes[..<block.used].allSatisfy { $0 == 0 } }
    }

    /// How many bytes of the current block are still to be handed out (for tests).
    var remainingByteCount: Int {
        block.withLock { block in block.bytes.count - block.used }
    }
}
