/// A detached task that runs a sweep a few times per limit it enforces, until cancelled: how the HTTP layer
/// checks its deadlines (responders past `requestDeadline`, requests past `requestReadTimeout`, responses past
/// `responseWriteTimeout`).
enum PeriodicSweep {
    /// Starts `sweep` every eighth of `limit`, at least every 250 ms and at most every 10 ms.
    static func start(bounding limit: Duration, _ sweep: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        let interval = min(max(limit / 8, .milliseconds(10)), .milliseconds(250))
        return Task.detached {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return  // cancelled
                }
                sweep()
            }
        }
    }
}
