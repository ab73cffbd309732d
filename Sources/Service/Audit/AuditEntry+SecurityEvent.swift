import Audit
import Configuration
import Crypto
import JSON
import Storage

extension AuditEntry {
    /// The entry of `event` at leaf index `seq`: its server time, kind, outcome and reason, who (user, client), on
    /// what (credential, device key, refresh family, device, action hash), from where (request id, client address,
    /// node; the address as `addresses` says). `detail` is copied only when it is JSON.
    package init(_ event: SecurityEvent, seq: Int64, addresses: ClientAddressRecording = .full) {
        self.init(seq: seq, time: event.occurredAt, event: event.kind, outcome: event.outcome)
        reason = event.reasonCode
        userID = event.userID
        clientID = event.clientID
        credentialID = event.credentialID.map { Base64URL.encode($0) }
        keyID = event.keyID
        familyID = event.familyID
        deviceID = event.deviceID
        actionHash = event.actionHash.map { Base64URL.encode($0) }
        attempts = event.attempts
        deviceTime = event.deviceTime
        requestID = event.requestID
        clientAddress = addresses.recorded(event.clientAddress)
        nodeID = event.nodeID
        detail = event.detail.flatMap { try? JSONValue(parsing: $0, maximumDepth: 8) }
    }
}
