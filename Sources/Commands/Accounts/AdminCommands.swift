import Configuration
import Crypto
import Foundation
import JSON
import Service
import Storage

/// The operator commands on accounts (`AdminRequest`), run against the configured store beside a running server:
/// each change is one store write (SQLite's writer lock, a PostgreSQL transaction) with its audit event naming
/// the operator as actor (`operator:<name>` in the event's detail). The same validations as the endpoints: ids
/// are looked up, never trusted; another user's passkey or key is "not found".
public enum AdminCommands {
    /// What a command printed and its exit status (0 done, 1 not found).
    public struct Outcome: Sendable, Equatable {
        public let status: Int32
        public let output: String
    }

    /// Opens the configured store, runs `request`, closes the store.
    public static func run(
        _ request: AdminRequest, configuration: ServerConfiguration, json: Bool, actor: String, now: Date = Date()
    ) async throws -> Outcome {
        try await DatabaseDrivers.withStore(configuration) { store in
            // Passkeys are named from the stored FIDO metadata, verified as a server verifies it.
            let metadata =
                request.namesPasskeys
                ? try await StoredMetadataBLOB.read(from: store, settings: configuration.metadata)?.snapshot : nil
            return try await run(request, store: store, json: json, actor: actor, now: now, metadata: metadata)
        }
    }

    /// Runs `request` on `store`, naming passkeys from `metadata` when given.
    package static func run(
        _ request: AdminRequest, store: any Store, json: Bool, actor: String, now: Date,
        metadata: MetadataSnapshot? = nil
    ) async throws -> Outcome {
        let names = AuthenticatorNames(snapshot: metadata, now: now)
        let actorName = "operator:\(actor)"
        switch request {
        case .listUsers(let after, let limit):
            let users = try await store.read { try $0.users(afterID: after, limit: limit) }
            return done(
                json: json, .array(users.map(userJSON)),
                text: users.map { "\($0.id)\t\($0.realm)\t\(PasskeyRepresentation.names($0).name)" })
        case .showUser(let userID):
            let found = try await store.read { reader -> JSONValue? in
                guard let user = try reader.user(id: userID) else { return nil }
                return .object(
                    (userJSON(user).objectMembers ?? []) + [
                        JSONMember(
                            key: "passkeys",
                            value: .array(
                                try reader.credentials(userID: userID).map {
                                    PasskeyRepresentation.passkeyJSON($0, names: names)
                                })),
                        JSONMember(
                            key: "device_keys",
                            value: .array(try reader.deviceKeys(userID: userID).map(DeviceKeyRepresentation.json))),
                        JSONMember(
                            key: "recovery_codes", value: JSONValue(try reader.recoveryCodes(userID: userID).count)),
                        JSONMember(
                            key: "password_verifier", value: .bool(try reader.passwordVerifier(userID: userID) != nil)),
                    ])
            }
            guard let found else { return notFound("user", userID, json: json) }
            return done(json: json, found, text: [String(decoding: found.serialized(), as: UTF8.self)])
        case .deleteUser(let userID):
            guard let user = try await store.read({ try $0.user(id: userID) }) else {
                return notFound("user", userID, json: json)
            }
            try await AccountDeletion.deleteUser(
                user, store: store, now: now, clientID: nil, actor: actorName)
            return done(json: json, ["deleted": .string(userID)], text: ["deleted user \(userID)"])
        case .unlockUser(let userID):
            // The locks a passkey login lifts (`FallbackCounterKey.identityLocks`), no more: the device keys'
            // biometric counts are the device's policy.
            let lifted = try await store.write { writer -> Int? in
                guard let user = try writer.user(id: userID) else { return nil }
                let lifted = try writer.resetFallbackCounters(
                    keys: FallbackCounterKey.identityLocks(
                        of: user, verifier: try writer.passwordVerifier(userID: userID)))
                _ = try writer.appendSecurityEvent(
                    PasskeyLifecycleAuditEvent.make(
                        .loginLocksLifted, now: now, userID: userID, reasonCode: "operator",
                        attempts: lifted, actor: actorName))
                return lifted
            }
            guard let lifted else { return notFound("user", userID, json: json) }
            return done(
                json: json, ["unlocked": .string(userID), "counters_cleared": JSONValue(lifted)],
                text: ["unlocked \(userID): \(lifted) failure counter(s) cleared"])
        case .listPasskeys(let userID, let aaguid):
            return try await listPasskeys(userID: userID, aaguid: aaguid, store: store, json: json, names: names)
        case .listPasskeysOfAuthenticator(let aaguid, let after, let limit):
            return try await listPasskeys(
                aaguid: aaguid, after: after, limit: limit, store: store, json: json, names: names)
        case .revokePasskey(let userID, let text):
            guard let credentialID = Base64URL.decode(text) else { return notFound("passkey", text, json: json) }
            let removed = try await store.write { writer -> Bool in
                guard try writer.deleteCredential(id: credentialID, userID: userID) else { return false }
                _ = try writer.appendSecurityEvent(
                    PasskeyLifecycleAuditEvent.make(
                        .passkeyRemoved, now: now, userID: userID,
                        credentialID: credentialID, reasonCode: "operator", actor: actorName))
                return true
            }
            guard removed else { return notFound("passkey", text, json: json) }
            return done(json: json, ["revoked": .string(text)], text: ["revoked passkey \(text) of \(userID)"])
        case .revokeSessions(let userID):
            let families = try await store.write { writer -> Int? in
                guard try writer.user(id: userID) != nil else { return nil }
                let families = try writer.revokeRefreshTokens(userID: userID, now: now)
                _ = try writer.appendSecurityEvent(
                    PasskeyLifecycleAuditEvent.make(
                        .sessionsRevoked, now: now, userID: userID, reasonCode: "operator",
                        attempts: families, actor: actorName))
                return families
            }
            guard let families else { return notFound("user", userID, json: json) }
            return done(
                json: json, ["revoked_sessions": JSONValue(families)],
                text: ["revoked \(families) session(s) of \(userID)"])
        case .revokeAllSessions:
            let families = try await store.write { writer -> Int in
                let families = try writer.revokeAllRefreshTokens(now: now)
                _ = try writer.appendSecurityEvent(
                    PasskeyLifecycleAuditEvent.make(
                        .sessionsRevoked, now: now, userID: nil, reasonCode: "operator_all",
                        attempts: families, actor: actorName))
                return families
            }
            return done(
                json: json, ["revoked_sessions": JSONValue(families)],
                text: ["revoked \(families) session(s) of every user"])
        case .revokeDeviceKey(let userID, let keyID):
            let revoked = try await store.write { writer -> Bool in
                guard let key = try writer.deviceKey(id: keyID, userID: userID) else { return false }
                guard key.status != .revoked else { return true }
                var state = key.state
                state.status = .revoked
                state.revokedAt = now
                _ = try writer.updateDeviceKeyState(keyID: keyID, userID: userID, state: state)
                _ = try writer.appendSecurityEvent(
                    SecurityEvent(
                        occurredAt: now, kind: .deviceKeyRevoked, userID: userID, keyID: keyID,
                        deviceID: key.deviceID, outcome: DeviceKeyAuditEvent.success, reasonCode: "operator",
                        detail: JSONValue.object([JSONMember(key: "actor", value: .string(actorName))]).serialized()))
                return true
            }
            guard revoked else { return notFound("device key", keyID, json: json) }
            return done(json: json, ["revoked": .string(keyID)], text: ["revoked device key \(keyID) of \(userID)"])
        }
    }

    package static func userJSON(_ user: User) -> JSONValue {
        let names = PasskeyRepresentation.names(user)
        return .object([
            JSONMember(key: "id", value: .string(user.id)),
            JSONMember(key: "realm", value: .string(user.realm)),
            JSONMember(key: "name", value: .string(names.name)),
            JSONMember(key: "display_name", value: .string(names.displayName)),
            JSONMember(key: "created_at", value: RFC3339.timestamp(user.createdAt)),
        ])
    }

    /// A command's success: `value` as JSON with `--json`, else `text`, a line each; status 0.
    package static func done(json: Bool, _ value: JSONValue, text: [String]) -> Outcome {
        Outcome(
            status: 0, output: json ? String(decoding: value.serialized(), as: UTF8.self) : text.joined(separator: "\n")
        )
    }

    package static func notFound(_ what: String, _ id: String, json: Bool) -> Outcome {
        let value: JSONValue = ["error": "not_found", "what": .string(what), "id": .string(id)]
        return Outcome(
            status: 1, output: json ? String(decoding: value.serialized(), as: UTF8.self) : "no \(what) \(id)")
    }
}
