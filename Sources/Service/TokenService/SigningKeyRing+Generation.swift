import Configuration
import Foundation
import Storage
import Synchronization

extension SigningKeyRing {
    /// The name of the threads `generateKeys` runs on (at most 15 bytes: a Linux thread name's limit).
    package static let generationThreadName = "passkeyd-keygen"

    /// New key records of `algorithms`, in that order (`generateKey`), generated on a thread of their own.
    ///
    /// An RSA key takes a CPU for a fraction of a second, often more on a loaded host (OpenSSL searches for two
    /// primes). Generated on the cooperative pool, as `generateKey` is when called from a task, it holds one of that
    /// pool's threads (two on a two-core host) for the whole search: every request of the process waits behind it,
    /// and a test suite that starts many servers at once, each generating its first keys, kept both threads busy for
    /// minutes (seen with gdb: both pool threads in `EVP_PKEY_generate` under `TokenService.reload`). A dedicated
    /// thread leaves the pool free. One generation at a time in the process (`generation`): run side by side, dozens
    /// of searches (seen: 35) took the CPUs from the pool's threads instead.
    package static func generateKeys(_ algorithms: [TokenSigningAlgorithm], now: Date) async throws -> [SigningKey] {
        try await onGenerationThread {
            try generation.withLock { _ in try algorithms.map { try generateKey($0, now: now) } }
        }
    }

    /// Held while `generateKeys` generates, by its own thread (never a pool thread).
    private static let generation = Mutex(())

    /// Runs `work` on a new thread named `generationThreadName` and returns its result. Not libdispatch: on Linux its
    /// workers are the cooperative pool's.
    package static func onGenerationThread<T: Sendable>(
        _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            Thread.detachNewThread {
                nameCurrentThread(generationThreadName)
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// Names the calling thread through proc(5)'s `/proc/thread-self/comm`, the name gdb, top and `Thread.name` read.
    /// Not `Thread.current.name = …`: on Linux that setter names the thread only once `start()` has stored its handle,
    /// after `pthread_create` returns, and a new thread often runs first; it then keeps the name of the thread that
    /// created it (seen: a cooperative pool thread's). A name that cannot be set leaves the work to run unnamed.
    private static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
