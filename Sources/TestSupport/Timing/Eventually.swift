/// Waits until `condition` holds, checking every `interval`, for at most `limit`; returns whether it held.
///
/// Tests wait for an event this way, never for a fixed pause: on a loaded two-core machine the cooperative pool can
/// fall seconds behind, so "sleep 100 ms and it will have happened" is a race the test sometimes loses. The limit is
/// generous on purpose: it only bounds a test whose event never comes, and a condition that holds returns at once.
public func eventually(
    within limit: Duration = .seconds(60), every interval: Duration = .milliseconds(10),
    _ condition: () throws -> Bool
) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while true {
        if try condition() { return true }
        guard clock.now < deadline else { return false }
        try await Task.sleep(for: interval)
    }
}
