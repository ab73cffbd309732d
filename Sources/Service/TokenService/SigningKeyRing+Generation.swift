import Configuration
import Foundation
import Storage

extension SigningKeyRing {
    /// The name of the threads `generateKeys` runs on.
    package static let generationThreadName = "passkeyd.signing-key-generation"

    /// New key records of `algorithms`, in that order (`generateKey`), generated on a thread of their own.
    ///
    /// An RSA key takes a CPU for a fraction of a second, often more on a loaded host (OpenSSL searches for two
    /// primes). Generated on the cooperative pool, as `generateKey` is when called from a task, it holds one of that
    /// pool's threads (two on a two-core host) for the whole search: every request of the process waits behind it,
    /// and a test suite that starts many servers at once, each generating its first keys, kept both threads busy for
    /// minutes (seen with gdb: both pool threads in `EVP_PKEY_generate` under `TokenService.reload`). A dedicated
    /// thread leaves the pool free; the kernel shares the CPUs.
    package static func generateKeys(_ algorithms: [TokenSigningAlgorithm], now: Date) async throws -> [SigningKey] {
        try await onGenerationThread { try algorithms.map { try generateKey($0, now: now) } }
    }

    /// Runs `work` on a new thread named `generationThreadName` and returns its result. Not libdispatch: on Linux its
    /// workers are the cooperative pool's.
    package static func onGenerationThread<T: Sendable>(
        _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.name = generationThreadName
            thread.start()
        }
    }
}
