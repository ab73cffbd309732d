/// Where the security events of the current write come from: the HTTP request (its id and client address) and
/// the server node. The server binds it around each write body (`CommitGatedStore`); every driver's
/// `appendSecurityEvent` fills the event's missing fields from it (`SecurityEvent.filledFromOrigin`), so each
/// event of the audit log names its request and node whoever recorded it.
public struct SecurityEventOrigin: Sendable, Hashable {
    /// The bound origin of the write running now, if any.
    @TaskLocal public static var current: SecurityEventOrigin?

    public var requestID: String?
    public var clientAddress: String?
    public var nodeID: String?

    public init(requestID: String? = nil, clientAddress: String? = nil, nodeID: String? = nil) {
        self.requestID = requestID
        self.clientAddress = clientAddress
        self.nodeID = nodeID
    }
}

extension SecurityEvent {
    /// The event with its request id, client address and node id taken from `SecurityEventOrigin.current` where
    /// it has none of its own.
    package func filledFromOrigin() -> SecurityEvent {
        guard let origin = SecurityEventOrigin.current else { return self }
        var filled = self
        filled.requestID = requestID ?? origin.requestID
        filled.clientAddress = clientAddress ?? origin.clientAddress
        filled.nodeID = nodeID ?? origin.nodeID
        return filled
    }
}
