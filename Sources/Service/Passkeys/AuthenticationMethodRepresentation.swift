import Crypto
import Foundation
import JSON
import Storage

/// How a passkey is shown by Auth0's My Account API (`/me/v1/authentication-methods…`): the same credential rows as
/// `PasskeyRepresentation`, in the shape Auth0's SDKs decode (Auth0.swift `PasskeyAuthenticationMethod`,
/// Auth0.Android `result/AuthenticationMethod.kt`, auth0/myaccount-js `AuthenticationMethodPasskey`).
package enum AuthenticationMethodRepresentation {
    /// The authentication method type of a passkey.
    package static let passkeyType = "passkey"

    /// The id of an enrolment in progress: the last path segment of the `Location` a `POST` answers, which the SDKs
    /// take back to `/{id}/verify` (Auth0.swift `PasskeyEnrollmentChallenge`, Auth0.Android
    /// `passkeyEnrollmentChallenge`). The enrolment itself is the `auth_session`; the id only names the resource.
    package static let enrolmentID = "passkey|new"

    /// `passkey|<base64url credential id>`: a passkey's method id (Auth0 prefixes the id with its type).
    package static func methodID(_ credential: Credential) -> String {
        "passkey|" + Base64URL.encode(credential.credentialID)
    }

    /// The credential id a method id names; `nil` for anything but `passkey|<base64url>` (it names no passkey).
    package static func credentialID(methodID: String, maximumLength: Int) -> [UInt8]? {
        let prefix = "passkey|"
        guard methodID.hasPrefix(prefix) else { return nil }
        let encoded = methodID.dropFirst(prefix.count)
        guard !encoded.isEmpty, encoded.utf8.count <= maximumLength else { return nil }
        return Base64URL.decode(String(encoded))
    }

    /// One passkey of `user` as an authentication method. Every member Auth0.swift's `PasskeyAuthenticationMethod`
    /// decodes as required is present (`id`, `type`, `identity_user_id`, `created_at`, `aaguid`, `relying_party_id`,
    /// and the credential's `key_id`, `public_key`, `user_handle`, `credential_device_type`,
    /// `credential_backed_up`), and `usage` that Android's and myaccount-js's base type requires. `name` is the
    /// user's, else the authenticator's as `names` resolves it (the one resolver `GET /me/passkeys` uses too).
    package static func passkeyJSON(
        _ credential: Credential, user: User, relyingPartyID: String, names: AuthenticatorNames
    ) -> JSONValue {
        var members = [
            JSONMember(key: "id", value: .string(methodID(credential))),
            JSONMember(key: "type", value: .string(passkeyType)),
            // With milliseconds: Auth0.swift's decoder (`ISO8601DateFormatter`, `.withFractionalSeconds`) refuses the
            // whole method without them.
            JSONMember(key: "created_at", value: RFC3339.timestampWithMilliseconds(credential.createdAt)),
            // A passkey is a first factor: it logs the user in.
            JSONMember(key: "usage", value: .array([.string("primary")])),
            JSONMember(key: "identity_user_id", value: .string(user.id)),
            JSONMember(key: "key_id", value: .string(Base64URL.encode(credential.credentialID))),
            // The COSE_Key, base64 with padding as Auth0 sends it (Auth0.swift decodes it with `Data(base64Encoded:)`).
            JSONMember(key: "public_key", value: .string(Data(credential.publicKey).base64EncodedString())),
            JSONMember(key: "user_handle", value: .string(Base64URL.encode(user.userHandle))),
            // WebAuthn L3 §6.1.3: backup eligibility makes a multi-device credential.
            JSONMember(
                key: "credential_device_type",
                value: .string(credential.backupEligible ? "multi_device" : "single_device")),
            JSONMember(key: "credential_backed_up", value: .bool(credential.backedUp)),
            JSONMember(key: "transports", value: .array(credential.transports.map { .string($0) })),
            JSONMember(key: "aaguid", value: .string(UUIDText.format(credential.aaguid))),
            JSONMember(key: "relying_party_id", value: .string(relyingPartyID)),
            JSONMember(key: "name", value: .string(names.name(of: credential))),
        ]
        if let lastUsedAt = credential.lastUsedAt {
            members.append(JSONMember(key: "last_auth_at", value: RFC3339.timestampWithMilliseconds(lastUsedAt)))
        }
        return .object(members)
    }

    /// `{authentication_methods: [...]}`: Auth0's list shape.
    package static func listJSON(
        _ credentials: [Credential], user: User, relyingPartyID: String, names: AuthenticatorNames
    ) -> JSONValue {
        .object([
            JSONMember(
                key: "authentication_methods",
                value: .array(
                    credentials.map { passkeyJSON($0, user: user, relyingPartyID: relyingPartyID, names: names) }))
        ])
    }
}
