import Crypto
import JSON
import Storage

/// How a user and their passkeys are shown, the same to the user (`GET /me/passkeys`) and to the operator
/// (`passkeyd users show`, `passkeys list`).
package enum PasskeyRepresentation {
    /// The user's names as the creation options give them (`user.name`, `user.displayName`).
    package static func names(_ user: User) -> (name: String, displayName: String) {
        let name = user.email ?? user.phoneNumber ?? user.username ?? ""
        return (name, user.name ?? name)
    }

    package static func userJSON(_ user: User) -> JSONValue {
        let names = names(user)
        return .object([
            JSONMember(key: "id", value: .string(user.id)),
            JSONMember(key: "user_handle", value: .string(Base64URL.encode(user.userHandle))),
            JSONMember(key: "name", value: .string(names.name)),
            JSONMember(key: "display_name", value: .string(names.displayName)),
        ])
    }

    /// One passkey: its name (`AuthenticatorNames`: the user's, else its authenticator's) and its authenticator
    /// (`{name, icon, status}` from the FIDO metadata in use, else the built-in names).
    package static func passkeyJSON(_ credential: Credential, names: AuthenticatorNames) -> JSONValue {
        .object([
            JSONMember(key: "id", value: .string(Base64URL.encode(credential.credentialID))),
            JSONMember(key: "name", value: .string(names.name(of: credential))),
            JSONMember(key: "created_at", value: RFC3339.timestamp(credential.createdAt)),
            JSONMember(
                key: "last_used_at", value: credential.lastUsedAt.map(RFC3339.timestamp) ?? .null),
            JSONMember(key: "backup_eligible", value: .bool(credential.backupEligible)),
            JSONMember(key: "backed_up", value: .bool(credential.backedUp)),
            JSONMember(key: "transports", value: .array(credential.transports.map { .string($0) })),
            JSONMember(key: "aaguid", value: .string(UUIDText.format(credential.aaguid))),
            JSONMember(key: "authenticator", value: names.json(aaguid: credential.aaguid)),
        ])
    }
}
