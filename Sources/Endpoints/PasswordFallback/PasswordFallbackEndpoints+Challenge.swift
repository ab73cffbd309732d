import Crypto
import Foundation
import HTTP
import JSON
import Service
import Storage

extension PasswordFallbackEndpoints {

    /// `POST /srp/challenge` `{client_id, realm?, identity, A}` → `{salt, B, auth_session}` (RFC 5054 §2.5.3–2.5.4).
    ///
    /// A ≡ 0 (mod N) and A ≥ N are refused (400). B = k·v + g^b with a fresh b each time; b is stored with the
    /// session so that any node can finish the login. An identity with no verifier gets the same answer: a
    /// deterministic stand-in salt (HMAC-SHA-256 of realm and identity under a server secret kept in the store,
    /// so every node gives the same one) and a B computed the same way from a random stand-in verifier — the same
    /// shape, the same work. Identities (known or not) and client networks over the failure limits are delayed or
    /// locked the same way too (`SRPThrottle`; this check only reads the counters, the grant's judges and counts).
    package func challenge(_ request: Request) async throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try ClientResolution.client(parameters, allowing: ClientConfiguration.srpGrant, context: context)
        let realm = try PasskeyEndpoints.realm(parameters, context: context)
        let identity = try parameters.string("identity", maxLength: PasswordFallback.maximumIdentityLength)
        guard !identity.isEmpty else { throw OAuthError.invalidParameter("identity", reason: "is empty") }
        let srp = try PasswordFallback.srp()
        let clientPublic = try Self.groupElement(
            try parameters.string("A", maxLength: PasswordFallback.maximumGroupElementLength), name: "A", srp: srp)
        let now = context.clock.now()
        let address = request.remoteAddress ?? "unknown"
        let identityKey = FallbackCounterKey.identity(realm: realm.name, identity: identity)
        let addressKey = ThrottledAttempt.srpAddressKey(address)
        let found = try await context.store.read { reader in
            (
                verifier: try reader.passwordVerifier(realm: realm.name, identity: identity),
                identityFailures: try reader.fallbackCounter(key: identityKey),
                addressFailures: try reader.fallbackCounter(key: addressKey),
                secret: try reader.serverSecret(name: PasswordFallback.fakeSaltSecretName)
            )
        }
        let throttle = SRPThrottle(context.configuration.srp)
        try await enforce(
            throttle.decide(identity: found.identityFailures, address: found.addressFailures, now: now),
            userID: found.verifier?.userID, clientID: client.clientID, realm: realm.name, identity: identity,
            address: address,
            attempts: found.identityFailures?.count, now: now)
        let keys = try context.secrets.get()
        let secretName = PasswordFallback.fakeSaltSecretName
        let secret: [UInt8]
        if let stored = found.secret {
            secret = try keys.namedSecret(stored, name: secretName)
        } else {
            // Sealed at rest with a key-encryption key; of nodes inserting at once, all use the first one stored.
            let candidate = try keys.storedNamedSecret(
                try SecureRandom.bytes(count: SecretEncryptionKeys.namedSecretLength), name: secretName)
            let stored = try await context.store.write { try $0.insertServerSecret(name: secretName, value: candidate) }
            secret = try keys.namedSecret(stored, name: secretName)
        }
        // Both branches compute one HMAC, draw the same random bytes and run the same B computation.
        let fakeSalt = try HMAC.sha256(
            key: secret, message: Array("srp-salt\u{0}\(realm.name)\u{0}\(identity)".utf8))
        let fakeVerifier = try SecureRandom.bytes(count: srp.width - 1)  // below N: N's top byte is 0xFF
        let salt = found.verifier?.salt ?? Array(fakeSalt.prefix(PasswordFallback.saltLength))
        // A sealed verifier is opened here (one AES-GCM of 424 bytes, about a microsecond beside B's milliseconds).
        let verifier =
            try found.verifier.map { try keys.verifier($0.verifier, boundTo: .user($0.userID), width: srp.width) }
            ?? fakeVerifier
        let serverSecret = try SecureRandom.bytes(count: PasswordFallback.serverSecretLength)
        let serverPublic = try srp.serverPublic(verifier: verifier, secret: serverSecret)
        let handle = try AuthSessionHandle.generate()
        let session = SRPSession(
            id: handle.sessionID, clientID: client.clientID, realm: realm.name, identity: identity,
            userID: found.verifier?.userID, salt: salt,
            verifier: try keys.storedVerifier(verifier, boundTo: .session(handle.sessionID), width: srp.width),
            clientPublic: clientPublic,
            serverSecret: try keys.storedServerSecret(serverSecret, sessionID: handle.sessionID),
            serverPublic: serverPublic, address: address, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(context.configuration.srp.sessionLifetimeSeconds)))
        try await context.store.write { try $0.insertSRPSession(session) }
        context.metrics.count(event: "srp_challenge")
        return .json(
            .object([
                JSONMember(key: "salt", value: .string(Base64URL.encode(salt))),
                JSONMember(key: "B", value: .string(Base64URL.encode(serverPublic))),
                JSONMember(key: "auth_session", value: .string(handle.value)),
            ]))
    }

    /// Refuses an attempt the throttle delays or locks, recording it; returns when it is allowed.
    package func enforce(
        _ decision: SRPThrottle.Decision, userID: String?, clientID: String, realm: String, identity: String,
        address: String, attempts: Int?, now: Date
    ) async throws {
        let refusal: OAuthError
        switch decision {
        case .allowed: return
        case .delayed(let retryAfter): refusal = .passwordDelayed(retryAfter: retryAfter)
        case .locked(let retryAfter): refusal = .passwordLocked(retryAfter: retryAfter)
        }
        try await context.store.write { writer in
            _ = try writer.appendSecurityEvent(
                PasswordFallbackAuditEvent.make(
                    PasswordFallbackAuditEvent.attempt, outcome: "failure", now: now, userID: userID,
                    clientID: clientID, reasonCode: refusal.logCode, attempts: attempts,
                    detail: try Self.attemptDetail(
                        realm: realm, identity: identity, address: address, reader: writer,
                        keys: try context.secrets.get())))
        }
        throw refusal
    }

    /// The detail of an attempt's audit event: the identity as a keyed reference, never as typed, and the address.
    /// The reference is an HMAC-SHA-256 under the server's SRP secret (domain-separated from the stand-in salts that
    /// key also derives), cut to 16 bytes: the attempts on one identity match each other, and an operator who holds
    /// the database can tell which identity they were, but the append-only log never holds an email or user name,
    /// so deleting an account leaves only pseudonymous entries behind (issue #21). Without a stored secret (the
    /// very first challenge is refused before one exists) the reference is left out.
    package static func attemptDetail(
        realm: String, identity: String, address: String, reader: any StoreReader, keys: SecretEncryptionKeys
    ) throws -> [JSONMember] {
        var detail: [JSONMember] = []
        if let stored = try reader.serverSecret(name: PasswordFallback.fakeSaltSecretName) {
            let secret = try keys.namedSecret(stored, name: PasswordFallback.fakeSaltSecretName)
            let reference = try HMAC.sha256(
                key: secret, message: Array("audit-identity\u{0}\(realm)\u{0}\(identity)".utf8))
            detail.append(
                JSONMember(key: "identity_ref", value: .string(Base64URL.encode(Array(reference.prefix(16))))))
        }
        detail.append(JSONMember(key: "address", value: .string(address)))
        return detail
    }
}
