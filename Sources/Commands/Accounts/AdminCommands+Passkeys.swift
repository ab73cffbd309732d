import Crypto
import Foundation
import JSON
import Service
import Storage

/// `passkeys list`: a user's passkeys, or every user's passkeys of one authenticator model (`--aaguid`), named by
/// `AuthenticatorNames`.
extension AdminCommands {
    /// `passkeys list USER [--aaguid UUID]`.
    static func listPasskeys(
        userID: String, aaguid: [UInt8]?, store: any Store, json: Bool, names: AuthenticatorNames
    ) async throws -> Outcome {
        let found = try await store.read { reader -> [Credential]? in
            guard try reader.user(id: userID) != nil else { return nil }
            return try reader.credentials(userID: userID)
        }
        guard let found else { return notFound("user", userID, json: json) }
        let listed = aaguid.map { model in found.filter { $0.aaguid == model } } ?? found
        return done(
            json: json, .array(listed.map { PasskeyRepresentation.passkeyJSON($0, names: names) }),
            text: listed.map { "\(Base64URL.encode($0.credentialID))\t\(names.name(of: $0))" })
    }

    /// `passkeys list --aaguid UUID [--after CREDENTIAL_ID] [--limit N]`: each passkey with its user.
    static func listPasskeys(
        aaguid: [UInt8], after: [UInt8]?, limit: Int, store: any Store, json: Bool, names: AuthenticatorNames
    ) async throws -> Outcome {
        let found = try await store.read {
            try $0.credentials(aaguid: aaguid, afterCredentialID: after, limit: limit)
        }
        return done(
            json: json,
            .array(
                found.map { credential in
                    .object(
                        [JSONMember(key: "user_id", value: .string(credential.userID))]
                            + (PasskeyRepresentation.passkeyJSON(credential, names: names).objectMembers ?? []))
                }),
            text: found.map {
                "\(Base64URL.encode($0.credentialID))\t\($0.userID)\t\(names.name(of: $0))"
            })
    }
}
