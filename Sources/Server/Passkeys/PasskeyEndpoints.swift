import Crypto
import Foundation
import HTTP
import Storage

/// `POST /passkey/register` and `POST /passkey/challenge`: start a sign-up or a login ceremony and hand the
/// client the WebAuthn options with an `auth_session` (Auth0 native passkeys API).
enum PasskeyEndpoints {
    /// WebAuthn L3 §5.4 `pubKeyCredParams`: EdDSA (-8), ES256 (-7), RS256 (-257), in Auth0's order.
    static let offeredAlgorithms = [-8, -7, -257]

    static func register(in router: inout Router, context: ServerContext) {
        router.add(
            .post, "/passkey/register",
            EndpointHandler.make(context, rateLimited: true) { request in
                try await signupChallenge(request, context: context)
            })
        router.add(
            .post, "/passkey/challenge",
            EndpointHandler.make(context, rateLimited: true) { request in
                try await loginChallenge(request, context: context)
            })
    }

    /// The realm named by `realm`, or the default realm.
    /// - Throws: 400 `invalid_request` for an unknown realm.
    static func realm(_ parameters: RequestParameters, context: ServerContext) throws -> RealmConfiguration {
        if let name = try parameters.optionalString("realm", maxLength: 128) {
            guard let realm = context.configuration.realms.first(where: { $0.name == name }) else {
                throw OAuthError.invalidParameter("realm", reason: "\(name) is not configured")
            }
            return realm
        }
        guard let realm = context.configuration.defaultRealm else { throw OAuthError.bug("no realm configured") }
        return realm
    }

    /// `POST /passkey/register`.
    static func signupChallenge(_ request: Request, context: ServerContext) async throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try ClientResolution.client(
            parameters, allowing: ClientConfiguration.webAuthnGrant, context: context)
        let realm = try realm(parameters, context: context)
        let profile = try UserProfile(try parameters.object("user_profile"), realm: realm)
        let configuration = context.configuration
        let now = context.clock.now()
        let handle = try AuthSessionHandle.generate()
        // WebAuthn L3 §13.4.3: at least 16 random bytes; §5.4.3: user.id is opaque, no personal data.
        let challenge = try SecureRandom.bytes(count: 32)
        let userHandle = try SecureRandom.bytes(count: 32)
        let timeout = configuration.passkeys.challengeTimeoutMilliseconds
        let session = AuthSession(
            id: handle.sessionID, clientID: client.clientID, realm: realm.name, kind: .signup, challenge: challenge,
            email: profile.email, phoneNumber: profile.phoneNumber, username: profile.username, name: profile.name,
            userHandle: userHandle, createdAt: now, expiresAt: now.addingTimeInterval(Double(timeout) / 1000))
        let identifiers = profile.identifiers
        // One write: the "already exists" check and the session insert see the same state.
        let taken = try await context.store.write { writer -> Bool in
            for identifier in identifiers where try writer.user(realm: realm.name, identifier: identifier) != nil {
                return true
            }
            try writer.insertAuthSession(session)
            return false
        }
        guard !taken else {
            // Auth0: the client should run the login flow instead.
            throw OAuthError(
                .invalidRequest, "A user with this identifier already exists.", logCode: "identifier_taken",
                reason: "realm \(realm.name)")
        }
        let userName = profile.email ?? profile.phoneNumber ?? profile.username ?? ""
        // A new user has no credentials to exclude; adding a passkey (`/me/passkeys/challenge`) lists the user's.
        let options = CreationOptions(
            challenge: challenge, userHandle: userHandle, userName: userName, displayName: profile.name ?? userName,
            excluding: [], hints: client.passkeyHints
        ).json(client: client, configuration: configuration)
        context.metrics.count(event: "passkey_register_challenge")
        return .json(
            .object([
                JSONMember(key: "authn_params_public_key", value: options),
                JSONMember(key: "auth_session", value: .string(handle.value)),
            ]))
    }

    /// `POST /passkey/challenge` (usernameless: the user is found from the credential and its userHandle).
    static func loginChallenge(_ request: Request, context: ServerContext) async throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try ClientResolution.client(
            parameters, allowing: ClientConfiguration.webAuthnGrant, context: context)
        let realm = try realm(parameters, context: context)
        let configuration = context.configuration
        let now = context.clock.now()
        let handle = try AuthSessionHandle.generate()
        let challenge = try SecureRandom.bytes(count: 32)
        let timeout = configuration.passkeys.challengeTimeoutMilliseconds
        let session = AuthSession(
            id: handle.sessionID, clientID: client.clientID, realm: realm.name, kind: .login, challenge: challenge,
            createdAt: now, expiresAt: now.addingTimeInterval(Double(timeout) / 1000))
        try await context.store.write { try $0.insertAuthSession(session) }
        return .json(
            .object([
                JSONMember(
                    key: "authn_params_public_key",
                    value: .object([
                        JSONMember(key: "challenge", value: .string(Base64URL.encode(challenge))),
                        JSONMember(key: "timeout", value: .number(String(timeout))),
                        JSONMember(key: "rpId", value: .string(configuration.relyingParty.id)),
                        JSONMember(
                            key: "userVerification",
                            value: .string(configuration.userVerification(for: client).rawValue)),
                    ])),
                JSONMember(key: "auth_session", value: .string(handle.value)),
            ]))
    }
}
