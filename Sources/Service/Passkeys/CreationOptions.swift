import Configuration
import Crypto
import JSON
import WebAuthn
import Storage

/// The `PublicKeyCredentialCreationOptions` (WebAuthn L3 §5.4) handed to a client, as JSON: one home for the
/// sign-up's options and for adding a passkey to an existing account.
package struct CreationOptions: Sendable {
    /// `challenge` (WebAuthn L3 §13.4.3: at least 16 random bytes).
    package var challenge: [UInt8]
    /// `user.id`: the user handle (§5.4.3: opaque, nothing personal).
    package var userHandle: [UInt8]
    /// `user.name`: the identifier the user knows the account by.
    package var userName: String
    /// `user.displayName`.
    package var displayName: String
    /// The user's registered credentials, listed in `excludeCredentials` (§5.4: so that an authenticator that
    /// already holds one of them is not registered twice); empty for a new user.
    package var excluding: [Credential]
    /// `hints` (§5.4, §5.8.7) as the client configures them; empty: the member is left out.
    package var hints: [String]

    /// The options for `client` under `configuration`.
    package func json(client: ClientConfiguration, configuration: ServerConfiguration) -> JSONValue {
        var members = [
            JSONMember(key: "challenge", value: .string(Base64URL.encode(challenge))),
            JSONMember(key: "timeout", value: .number(String(configuration.passkeys.challengeTimeoutMilliseconds))),
            JSONMember(
                key: "rp",
                value: .object([
                    JSONMember(key: "id", value: .string(configuration.relyingParty.id)),
                    JSONMember(key: "name", value: .string(configuration.relyingParty.name)),
                ])),
            JSONMember(
                key: "user",
                value: .object([
                    JSONMember(key: "id", value: .string(Base64URL.encode(userHandle))),
                    JSONMember(key: "name", value: .string(userName)),
                    JSONMember(key: "displayName", value: .string(displayName)),
                ])),
            JSONMember(
                key: "pubKeyCredParams",
                value: .array(
                    PasskeyAlgorithms.offered.map { alg in
                        .object([
                            JSONMember(key: "type", value: "public-key"),
                            JSONMember(key: "alg", value: JSONValue(alg.rawValue)),
                        ])
                    })),
            JSONMember(
                key: "authenticatorSelection",
                value: .object([
                    // Discoverable credentials: the login is usernameless (WebAuthn L3 §5.4.6).
                    JSONMember(key: "residentKey", value: "required"),
                    JSONMember(
                        key: "userVerification", value: .string(configuration.userVerification(for: client).rawValue)),
                ])),
        ]
        if !excluding.isEmpty {
            members.append(
                JSONMember(
                    key: "excludeCredentials",
                    value: .array(
                        excluding.map { credential in
                            var descriptor = [
                                JSONMember(key: "type", value: "public-key"),
                                JSONMember(key: "id", value: .string(Base64URL.encode(credential.credentialID))),
                            ]
                            if !credential.transports.isEmpty {
                                descriptor.append(
                                    JSONMember(
                                        key: "transports", value: .array(credential.transports.map { .string($0) })))
                            }
                            return .object(descriptor)
                        })))
        }
        if !hints.isEmpty {
            members.append(JSONMember(key: "hints", value: .array(hints.map { .string($0) })))
        }
        // §5.4 `attestation` (§5.4.7): what the client's authenticator policy needs to judge; left out for `none`,
        // the member's default.
        if client.attestation != .none {
            members.append(JSONMember(key: "attestation", value: .string(client.attestation.rawValue)))
            // §5.4 `attestationFormats`: the client's preference, most preferred first (advisory to the authenticator).
            if !client.attestationFormats.isEmpty {
                members.append(
                    JSONMember(key: "attestationFormats", value: .array(client.attestationFormats.map { .string($0) })))
            }
        }
        return .object(members)
    }

    /// Creates the value from its stored properties.
    package init(
        challenge: [UInt8], userHandle: [UInt8], userName: String, displayName: String, excluding: [Credential],
        hints: [String]
    ) {
        self.challenge = challenge
        self.userHandle = userHandle
        self.userName = userName
        self.displayName = displayName
        self.excluding = excluding
        self.hints = hints
    }
}
