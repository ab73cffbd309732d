import Foundation
import JSON
import Storage

/// The signed-in user's passkeys over their lifetime (list, rename, remove), recovery codes, and account deletion;
/// adding a passkey is `PasskeyEnrolment`. Each flow is for the caller `AccountAuthentication` found, and changes
/// the caller's own rows only: another user's passkey is not found.
package struct PasskeyLifecycle: Sendable {
    package let context: ServerContext

    /// Longest passkey name, in characters.
    package static let maximumNameLength = 64

    package init(context: ServerContext) {
        self.context = context
    }

    /// `{user: {id, user_handle, name, display_name}, passkeys: [...]}`: what a page needs for the Signal API
    /// (`signalAllAcceptedCredentials` takes the user handle and the ids, `signalCurrentUserDetails` the names).
    package func list(_ caller: AccountCaller) async throws -> JSONValue {
        let credentials = try await passkeys(caller)
        let names = AuthenticatorNames(context: context)
        return .object([
            JSONMember(key: "user", value: PasskeyRepresentation.userJSON(caller.user)),
            JSONMember(
                key: "passkeys", value: .array(credentials.map { PasskeyRepresentation.passkeyJSON($0, names: names) })),
        ])
    }

    /// The caller's passkeys, in the store's order (both account surfaces list these).
    package func passkeys(_ caller: AccountCaller) async throws -> [Credential] {
        let userID = caller.user.id
        return try await context.store.read { try $0.credentials(userID: userID) }
    }

    /// The caller's passkey `credentialID`.
    /// - Throws: 404 `not_found` for an id that is not one of the caller's passkeys (another user's included).
    package func passkey(_ caller: AccountCaller, credentialID: [UInt8]) async throws -> Credential {
        let userID = caller.user.id
        let found = try await context.store.read { try $0.credential(id: credentialID) }
        guard let found, found.userID == userID else { throw PasskeyLifecycleRefusal.passkeyNotFound }
        return found
    }

    /// Renames the caller's passkey `credentialID` to `name`: 1 to 64 characters without control characters, stored
    /// as given (trimmed of spaces) and returned JSON-escaped (pages must insert it as text); `nil` restores the
    /// provider's name.
    /// - Throws: 400 `invalid_request` for a name out of those bounds, 404 `not_found` for another user's passkey.
    package func rename(_ caller: AccountCaller, credentialID: [UInt8], name: String?) async throws -> Credential {
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.count <= Self.maximumNameLength,
                !trimmed.unicodeScalars.contains(where: {
                    $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
                        || $0.properties.generalCategory == .lineSeparator
                        || $0.properties.generalCategory == .paragraphSeparator
                })
            else {
                throw OAuthError.invalidParameter(
                    "name", reason: "must be 1 to \(Self.maximumNameLength) characters without control characters")
            }
        }
        let stored = name?.trimmingCharacters(in: .whitespaces)
        let now = context.clock.now()
        let userID = caller.user.id
        let clientID = caller.subject.clientID
        let renamed = try await context.store.write { writer -> Credential? in
            guard try writer.renameCredential(id: credentialID, userID: userID, name: stored) else { return nil }
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    .passkeyRenamed, now: now, userID: userID, clientID: clientID,
                    credentialID: credentialID))
            return try writer.credential(id: credentialID)
        }
        guard let renamed else { throw PasskeyLifecycleRefusal.passkeyNotFound }
        return renamed
    }

    /// Whether `userID` has a way in besides passkeys: recovery codes or a password verifier.
    package static func hasOtherWayIn(_ reader: any StoreReader, userID: String) throws -> Bool {
        try !reader.recoveryCodes(userID: userID).isEmpty || reader.passwordVerifier(userID: userID) != nil
    }

    /// Removes the caller's passkey `credentialID`, decided and done in one write.
    /// - Throws: 409 `last_passkey` for the last one, unless the user has recovery codes or a password verifier;
    ///   404 `not_found` for another user's.
    package func remove(_ caller: AccountCaller, credentialID: [UInt8]) async throws {
        let now = context.clock.now()
        let userID = caller.user.id
        let clientID = caller.subject.clientID
        let outcome = try await context.store.write { writer -> PasskeyLifecycleRefusal.Removal in
            let credentials = try writer.credentials(userID: userID)
            guard credentials.contains(where: { $0.credentialID == credentialID }) else { return .notFound }
            let otherWayIn = try credentials.count > 1 || Self.hasOtherWayIn(writer, userID: userID)
            guard otherWayIn else {
                _ = try writer.appendSecurityEvent(
                    PasskeyLifecycleAuditEvent.make(
                        .passkeyRemoved, outcome: PasskeyLifecycleAuditEvent.failure,
                        now: now, userID: userID, clientID: clientID, credentialID: credentialID,
                        reasonCode: OAuthError.Kind.lastPasskey.rawValue))
                return .last
            }
            _ = try writer.deleteCredential(id: credentialID, userID: userID)
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    .passkeyRemoved, now: now, userID: userID, clientID: clientID,
                    credentialID: credentialID))
            return .removed
        }
        switch outcome {
        case .removed: return
        case .notFound: throw PasskeyLifecycleRefusal.passkeyNotFound
        case .last: throw PasskeyLifecycleRefusal.lastPasskey
        }
    }

    /// A new set of recovery codes: `{recovery_codes: [10 codes], created_at, revoked_previous}`, shown this once;
    /// the previous set is revoked in the same write.
    package func generateRecoveryCodes(_ caller: AccountCaller) async throws -> JSONValue {
        let now = context.clock.now()
        let userID = caller.user.id
        let clientID = caller.subject.clientID
        let generated = try RecoveryCodes.generate(userID: userID, now: now)
        let records = generated.records
        let revoked = try await context.store.write { writer -> Int in
            let revoked = try writer.replaceRecoveryCodes(userID: userID, with: records)
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    .recoveryCodesGenerated, now: now, userID: userID, clientID: clientID,
                    reasonCode: revoked > 0 ? "replaced" : "created"))
            return revoked
        }
        return .object([
            JSONMember(key: "recovery_codes", value: .array(generated.codes.map { .string($0) })),
            JSONMember(key: "created_at", value: RFC3339.timestamp(now)),
            JSONMember(key: "revoked_previous", value: .bool(revoked > 0)),
        ])
    }

    /// Deletes the caller's account: the user and every row of theirs outside the audit log, in one write; the audit
    /// log keeps the user id only.
    package func deleteAccount(_ caller: AccountCaller) async throws {
        try await AccountDeletion.deleteUser(
            caller.user, store: context.store, now: context.clock.now(), clientID: caller.subject.clientID)
        context.metrics.count(event: "account_deleted")
    }
}
