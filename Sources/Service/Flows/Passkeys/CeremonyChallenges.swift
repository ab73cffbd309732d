import Configuration
import Crypto
import Foundation
import JSON
import Storage

/// Starting a passkey ceremony (`POST /passkey/register`, `POST /passkey/challenge`, Auth0's native passkeys API):
/// the WebAuthn options handed to the client with its `auth_session`, the ceremony's `AuthSession` sealed
/// (`AuthSessionSealer`). Nothing is stored: the token endpoint's webauthn grant (`WebAuthnGrant`) opens the
/// session and spends it (single use) in the write that completes the ceremony.
package struct CeremonyChallenges: Sendable {
    package let context: ServerContext

    /// What `POST /passkey/register` presents, parsed.
    package struct SignupParameters: Sendable {
        package var client: ClientConfiguration
        package var realm: RealmConfiguration
        /// `user_profile` as sent, validated against the realm's identifier rules here (`UserProfile`).
        package var userProfile: JSONValue
        /// The top-level `user_metadata` as sent (where Auth0's SDKs send it), validated here (`UserMetadata`);
        /// `nil` when absent.
        package var userMetadata: JSONValue?
        /// `organization`, checked against the client's `organization_usage` (`OrganizationRequest.checked`):
        /// resolved here, in the read that looks for the identifiers; the new user becomes its member.
        package var organization: OrganizationRequest?

        package init(
            client: ClientConfiguration, realm: RealmConfiguration, userProfile: JSONValue,
            organization: OrganizationRequest? = nil
        ) {
            self.client = client
            self.realm = realm
            self.userProfile = userProfile
            self.organization = organization
        }
    }

    package init(context: ServerContext) {
        self.context = context
    }

    /// The auth session ends `passkeys.auth_session_grace_seconds` after the ceremony's `timeout`, so that a user
    /// who answers just before the timeout is not refused for the network round trip.
    package static func sessionExpiry(now: Date, configuration: ServerConfiguration) -> Date {
        now.addingTimeInterval(
            Double(configuration.passkeys.challengeTimeoutMilliseconds) / 1000
                + Double(configuration.passkeys.authSessionGraceSeconds))
    }

    /// The realm named `name`, or the default realm when `name` is `nil`.
    /// - Throws: 400 `invalid_request` for an unknown realm.
    package static func realm(named name: String?, configuration: ServerConfiguration) throws -> RealmConfiguration {
        if let name {
            guard let realm = configuration.realm(named: name) else {
                throw OAuthError.invalidParameter("realm", reason: "\(name) is not configured")
            }
            return realm
        }
        guard let realm = configuration.defaultRealm else { throw OAuthError.bug("no realm configured") }
        return realm
    }

    /// A sign-up: `{authn_params_public_key, auth_session}`, the creation options for a new user.
    /// - Throws: 400 `invalid_request` for a profile the realm refuses, `user_metadata` that breaks Auth0's rules, an
    ///   unknown organization, or an identifier that already exists (the client should log in).
    package func signup(_ parameters: SignupParameters) async throws -> JSONValue {
        let client = parameters.client
        let realm = parameters.realm
        var profile = try UserProfile(parameters.userProfile, realm: realm)
        profile.attributes.userMetadata = try parameters.userMetadata.map(UserMetadata.validated)
        let configuration = context.configuration
        let now = context.clock.now()
        let sealer = try context.authSessionKey.sealer()
        // WebAuthn L3 §13.4.3: at least 16 random bytes; §5.4.3: user.id is opaque, no personal data.
        let challenge = try SecureRandom.bytes(count: 32)
        let userHandle = try SecureRandom.bytes(count: 32)
        var session = AuthSession(
            id: try AuthSessionSealer.newSessionID(now: now), clientID: client.clientID, realm: realm.name,
            kind: .signup,
            challenge: challenge,
            email: profile.email, phoneNumber: profile.phoneNumber, username: profile.username, name: profile.name,
            userHandle: userHandle, createdAt: now,
            expiresAt: Self.sessionExpiry(now: now, configuration: configuration), profile: profile.attributes)
        let identifiers = profile.identifiers
        let asked = parameters.organization
        // One read (the grant's write checks again: an identifier taken since is a lost race there).
        let (taken, organization) = try await context.store.read { reader -> (Bool, Organization?) in
            let organization = try asked?.resolve(reader)
            for identifier in identifiers where try reader.user(realm: realm.name, identifier: identifier) != nil {
                return (true, organization)
            }
            return (false, organization)
        }
        session.organizationID = organization?.id
        session.organizationName = organization?.name
        // Auth0: the client should run the login flow instead.
        guard !taken else { throw OAuthError.identifierTaken(realm: realm.name) }
        let userName = profile.email ?? profile.phoneNumber ?? profile.username ?? ""
        // A new user has no credentials to exclude; adding a passkey (`/me/passkeys/challenge`) lists the user's.
        let options = CreationOptions(
            challenge: challenge, userHandle: userHandle, userName: userName, displayName: profile.name ?? userName,
            excluding: [], hints: client.passkeyHints
        ).json(client: client, configuration: configuration)
        let value = try sealer.seal(session)
        context.metrics.count(event: "passkey_register_challenge")
        return .object([
            JSONMember(key: "authn_params_public_key", value: options),
            JSONMember(key: "auth_session", value: .string(value)),
        ])
    }

    /// A login (usernameless: the user is found from the credential and its userHandle):
    /// `{authn_params_public_key, auth_session}`, the request options. CPU only: no store round trip (the
    /// `organization`, when there is one, was resolved by the caller: `organization(_:)`).
    package func login(client: ClientConfiguration, realm: RealmConfiguration, organization: Organization? = nil)
        throws -> JSONValue
    {
        let configuration = context.configuration
        let now = context.clock.now()
        let challenge = try SecureRandom.bytes(count: 32)
        let timeout = configuration.passkeys.challengeTimeoutMilliseconds
        let session = AuthSession(
            id: try AuthSessionSealer.newSessionID(now: now), clientID: client.clientID, realm: realm.name,
            kind: .login,
            challenge: challenge, createdAt: now, expiresAt: Self.sessionExpiry(now: now, configuration: configuration),
            organizationID: organization?.id, organizationName: organization?.name)
        let value = try context.authSessionKey.sealer().seal(session)
        return .object([
            JSONMember(
                key: "authn_params_public_key",
                value: .object([
                    JSONMember(key: "challenge", value: .string(Base64URL.encode(challenge))),
                    JSONMember(key: "timeout", value: .number(String(timeout))),
                    JSONMember(key: "rpId", value: .string(configuration.relyingParty.id)),
                    JSONMember(
                        key: "userVerification", value: .string(configuration.userVerification(for: client).rawValue)),
                ])),
            JSONMember(key: "auth_session", value: .string(value)),
        ])
    }

    /// The organization a login asks for (`OrganizationRequest.resolve`), in one read.
    /// - Throws: 400 `invalid_request` for an unknown one.
    package func organization(_ asked: OrganizationRequest) async throws -> Organization {
        try await context.store.read { try asked.resolve($0) }
    }
}
