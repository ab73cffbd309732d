/// The one rule for `Retry-After` on a 503 (RFC 9110 §10.2.3, §15.6.4): every 503 this server sends says when to try
/// again, whoever produced it (a database that is down, the request deadline, shutdown, `/readyz`).
extension Response {
    /// The delay-seconds a 503 carries when its producer set none: a database blip, a request past its deadline
    /// or a node draining for shutdown (whose clients reach another node, or this one restarted) is worth retrying
    /// after a second.
    public static let serviceUnavailableRetryAfterSeconds = 1

    /// Adds `Retry-After: serviceUnavailableRetryAfterSeconds` to a 503 that has no `Retry-After`; leaves every
    /// other response, and a 503 whose producer chose its own delay, as it is. Applied by the `Router` to what its
    /// handlers answer and by the daemon to every response it sends, the transport's own 503s included.
    public mutating func applyRetryAfterRule() {
        guard status == 503, headers["Retry-After"] == nil else { return }
        headers.replace(name: "Retry-After", value: String(Self.serviceUnavailableRetryAfterSeconds))
    }
}
