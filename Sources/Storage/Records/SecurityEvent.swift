import Foundation

/// One security-relevant event (login, failure, fallback, key change, revocation), in append order.
public struct SecurityEvent: Sendable, Hashable {
    /// Position in the log, assigned by the store on append (strictly increasing from 1); ignored on input.
    public var seq: Int64
    /// Server time of the event.
    public var occurredAt: Date
    /// Time reported by the device, if the event came from one (untrusted).
    public var deviceTime: Date?
    /// What happened, as stored: the raw value of a `Kind` for every event this version writes. It stays the text
    /// the store holds, so an event an older version recorded under a name no longer written is read (and exported)
    /// exactly as it was; `knownKind` is the typed view.
    public private(set) var kind: String
    /// The user concerned.
    public var userID: String?
    /// The device key concerned.
    public var keyID: String?
    /// The device concerned.
    public var deviceID: String?
    /// The client concerned.
    public var clientID: String?
    /// SHA-256 of the canonical action, for approvals.
    public var actionHash: [UInt8]?
    /// `success`, `failure`, …
    public var outcome: String
    /// A stable reason code for failures.
    public var reasonCode: String?
    /// Attempt count reported or counted.
    public var attempts: Int?
    /// Extra detail as JSON bytes.
    public var detail: [UInt8]?
    /// The passkey credential concerned.
    public var credentialID: [UInt8]?
    /// The refresh-token family concerned.
    public var familyID: String?
    /// The HTTP request that caused the event (`X-Request-Id`).
    public var requestID: String?
    /// The client's address as the server saw it.
    public var clientAddress: String?
    /// The server node that recorded the event.
    public var nodeID: String?

    /// Creates an event of `kind`; `seq` is assigned by `StoreWriter.appendSecurityEvent`.
    public init(
        seq: Int64 = 0, occurredAt: Date, deviceTime: Date? = nil, kind: Kind, userID: String? = nil,
        keyID: String? = nil, deviceID: String? = nil, clientID: String? = nil, actionHash: [UInt8]? = nil,
        outcome: String, reasonCode: String? = nil, attempts: Int? = nil, detail: [UInt8]? = nil,
        credentialID: [UInt8]? = nil, familyID: String? = nil, requestID: String? = nil, clientAddress: String? = nil,
        nodeID: String? = nil
    ) {
        self.init(
            seq: seq, occurredAt: occurredAt, deviceTime: deviceTime, storedKind: kind.rawValue, userID: userID,
            keyID: keyID, deviceID: deviceID, clientID: clientID, actionHash: actionHash, outcome: outcome,
            reasonCode: reasonCode, attempts: attempts, detail: detail, credentialID: credentialID,
            familyID: familyID, requestID: requestID, clientAddress: clientAddress, nodeID: nodeID)
    }

    /// Creates an event whose kind is the name `storedKind` as a store holds it: for the drivers reading rows back,
    /// which may hold names no `Kind` spells any more, and for tests of the stores. Flows name a `Kind`.
    package init(
        seq: Int64 = 0, occurredAt: Date, deviceTime: Date? = nil, storedKind: String, userID: String? = nil,
        keyID: String? = nil, deviceID: String? = nil, clientID: String? = nil, actionHash: [UInt8]? = nil,
        outcome: String, reasonCode: String? = nil, attempts: Int? = nil, detail: [UInt8]? = nil,
        credentialID: [UInt8]? = nil, familyID: String? = nil, requestID: String? = nil, clientAddress: String? = nil,
        nodeID: String? = nil
    ) {
        self.seq = seq
        self.occurredAt = occurredAt
        self.deviceTime = deviceTime
        self.kind = storedKind
        self.userID = userID
        self.keyID = keyID
        self.deviceID = deviceID
        self.clientID = clientID
        self.actionHash = actionHash
        self.outcome = outcome
        self.reasonCode = reasonCode
        self.attempts = attempts
        self.detail = detail
        self.credentialID = credentialID
        self.familyID = familyID
        self.requestID = requestID
        self.clientAddress = clientAddress
        self.nodeID = nodeID
    }

    /// The kind this version knows `kind` as, or nil for a name it no longer writes.
    public var knownKind: Kind? { Kind(rawValue: kind) }
}
