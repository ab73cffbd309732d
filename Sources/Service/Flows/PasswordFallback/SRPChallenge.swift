import Crypto
import Foundation
import JSON
import Storage

/// The flow of `POST /srp/challenge` (RFC 5054 §2.5.3–2.5.4): an identity and A in, `{salt, B, auth_session}` out.
///
/// B = k·v + g^b with a fresh b each time; b is stored with the session so that any node can finish the login
/// (`SRPLogin`). An identity with no verifier gets the same answer (`SRPStandIn`): a deterministic stand-in salt and
/// a B computed the same way from a random stand-in verifier — the same shape, the same work. Identities (known or
/// not) and client networks over the failure limits are delayed or locked the same way too (`SRPThrottle`; this
/// check only reads the counters, the grant judges and counts).
package struct SRPChallenge: Sendable {
    package let context: ServerContext

    /// What the client asks for, as read from the request.
    package struct Request: Sendable {
        /// The client, allowed the SRP grant.
        package let clientID: String
        /// The realm the identity is looked up in.
        package let realm: String
        /// The identity I, as the client hashed it into x (non-empty).
        package let identity: String
        /// A, checked (RFC 5054 §2.5.4).
        package let clientPublic: PasswordFallback.GroupElement
        /// The client's address, for the network's throttle and the audit log.
        package let address: String

        package init(
            clientID: String, realm: String, identity: String, clientPublic: PasswordFallback.GroupElement,
            address: String
        ) {
            self.clientID = clientID
            self.realm = realm
            self.identity = identity
            self.clientPublic = clientPublic
            self.address = address
        }
    }

    package init(context: ServerContext) {
        self.context = context
    }

    /// Opens an SRP session for `request`: the answer `{salt, B, auth_session}`.
    /// - Throws: `OAuthError` 429 or 403 when the throttle delays or locks the identity or the network (recorded).
    package func challenge(_ request: Request) async throws -> JSONValue {
        let srp = try PasswordFallback.srp()
        let now = context.clock.now()
        let identityKey = FallbackCounterKey.identity(realm: request.realm, identity: request.identity)
        let addressKey = ThrottledAttempt.srpAddressKey(request.address)
        let found = try await context.store.read { reader in
            (
                verifier: try reader.passwordVerifier(realm: request.realm, identity: request.identity),
                identityFailures: try reader.fallbackCounter(key: identityKey),
                addressFailures: try reader.fallbackCounter(key: addressKey),
                secret: try reader.serverSecret(name: PasswordFallback.fakeSaltSecretName)
            )
        }
        let throttle = SRPThrottle(context.configuration.srp)
        try await SRPAttemptLog(context: context).enforce(
            throttle.decide(identity: found.identityFailures, address: found.addressFailures, now: now),
            userID: found.verifier?.userID, clientID: request.clientID, realm: request.realm,
            identity: request.identity, address: request.address, attempts: found.identityFailures?.count, now: now)
        let keys = try context.secrets.get()
        let secret = try await SRPStandIn.secret(stored: found.secret, keys: keys, store: context.store)
        // Both branches compute one HMAC, draw the same random bytes and run the same B computation.
        let fakeSalt = try SRPStandIn.salt(secret: secret, realm: request.realm, identity: request.identity)
        let fakeVerifier = try SRPStandIn.verifier(srp: srp)
        let salt = found.verifier?.salt ?? fakeSalt
        // A sealed verifier is opened here (one AES-GCM of 424 bytes, about a microsecond beside B's milliseconds).
        let verifier =
            try found.verifier.map { try keys.verifier($0.verifier, boundTo: .user($0.userID), width: srp.width) }
            ?? fakeVerifier
        let serverSecret = try SecureRandom.bytes(count: PasswordFallback.serverSecretLength)
        let serverPublic = try srp.serverPublic(verifier: verifier, secret: serverSecret)
        let handle = try AuthSessionHandle.generate()
        let session = SRPSession(
            id: handle.sessionID, clientID: request.clientID, realm: request.realm, identity: request.identity,
            userID: found.verifier?.userID, salt: salt,
            verifier: try keys.storedVerifier(verifier, boundTo: .session(handle.sessionID), width: srp.width),
            clientPublic: request.clientPublic.bytes,
            serverSecret: try keys.storedServerSecret(serverSecret, sessionID: handle.sessionID),
            serverPublic: serverPublic, address: request.address, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(context.configuration.srp.sessionLifetimeSeconds)))
        try await context.store.write { try $0.insertSRPSession(session) }
        context.metrics.count(event: "srp_challenge")
        return .object([
            JSONMember(key: "salt", value: .string(Base64URL.encode(salt))),
            JSONMember(key: "B", value: .string(Base64URL.encode(serverPublic))),
            JSONMember(key: "auth_session", value: .string(handle.value)),
        ])
    }
}
