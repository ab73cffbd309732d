import Crypto
import Foundation
import HTTP
import JSON
import Service
import Storage
import WebAuthn

/// `POST /passkey/register` and `POST /passkey/challenge`: start a sign-up or a login ceremony and hand the
/// client the WebAuthn options with an `auth_session` (Auth0 native passkeys API).
package enum PasskeyEndpoints {
    package static func register(in router: inout Router, context: ServerContext) {
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

    /// The client of a ceremony request, after the checks both passkey endpoints make:
    /// - `organization` is refused (400 `invalid_request`): passkeyd has no organizations, and tokens without the
    ///   `org_id` an SDK then expects would be refused by it anyway;
    /// - the client must exist and have the webauthn grant; `unauthorized_client` is 400 here, as Auth0 documents
    ///   for these endpoints;
    /// - a request with an `Origin` header (a browser) must come from an origin the client accepts (WebAuthn L3
    ///   §7.1 step 9 / §7.2 step 13 would refuse the ceremony at `/oauth/token`, after the user made a passkey):
    ///   403 `access_denied` otherwise.
    package static func ceremonyClient(_ parameters: RequestParameters, request: Request, context: ServerContext) throws
        -> ClientConfiguration
    {
        try refuseOrganization(parameters)
        let client: ClientConfiguration
        do {
            client = try ClientResolution.client(
                parameters, allowing: ClientConfiguration.webAuthnGrant, context: context)
        } catch var error as OAuthError where error.kind == .unauthorizedClient {
            error.statusOverride = 400
            throw error
        }
        if let origin = request.headers["Origin"] {
            let configuration = context.configuration
            let policy = OriginPolicy(
                allowedOrigins: client.acceptedOrigins(
                    rpID: configuration.relyingParty.id, sharedWebOrigins: configuration.webOrigins))
            guard policy.allows(origin: origin) else {
                throw OAuthError(
                    .accessDenied, "The request's Origin is not accepted for this client.",
                    logCode: "origin_not_accepted", reason: "origin \(origin.prefix(256)) for \(client.clientID)")
            }
        }
        return client
    }

    /// Auth0 Organizations are not supported: a request naming one is refused rather than answered without the
    /// `org_id` claim that SDKs then require.
    /// - Throws: 400 `invalid_request`.
    package static func refuseOrganization(_ parameters: RequestParameters) throws {
        if try parameters.optionalString("organization", maxLength: 256) != nil {
            throw OAuthError.organizationsUnsupported()
        }
    }

    /// The auth session ends `passkeys.auth_session_grace_seconds` after the ceremony's `timeout`, so that a user
    /// who answers just before the timeout is not refused for the network round trip.
    package static func sessionExpiry(now: Date, configuration: ServerConfiguration) -> Date {
        now.addingTimeInterval(
            Double(configuration.passkeys.challengeTimeoutMilliseconds) / 1000
                + Double(configuration.passkeys.authSessionGraceSeconds))
    }

    /// The realm named by `realm`, or the default realm.
    /// - Throws: 400 `invalid_request` for an unknown realm.
    package static func realm(_ parameters: RequestParameters, context: ServerContext) throws -> RealmConfiguration {
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
    package static func signupChallenge(_ request: Request, context: ServerContext) async throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try ceremonyClient(parameters, request: request, context: context)
        let realm = try realm(parameters, context: context)
        let profile = try UserProfile(try parameters.object("user_profile"), realm: realm)
        let configuration = context.configuration
        let now = context.clock.now()
        let handle = try AuthSessionHandle.generate()
        // WebAuthn L3 §13.4.3: at least 16 random bytes; §5.4.3: user.id is opaque, no personal data.
        let challenge = try SecureRandom.bytes(count: 32)
        let userHandle = try SecureRandom.bytes(count: 32)
        let session = AuthSession(
            id: handle.sessionID, clientID: client.clientID, realm: realm.name, kind: .signup, challenge: challenge,
            email: profile.email, phoneNumber: profile.phoneNumber, username: profile.username, name: profile.name,
            userHandle: userHandle, createdAt: now, expiresAt: sessionExpiry(now: now, configuration: configuration),
            profile: profile.attributes)
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
    package static func loginChallenge(_ request: Request, context: ServerContext) async throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try ceremonyClient(parameters, request: request, context: context)
        let realm = try realm(parameters, context: context)
        let configuration = context.configuration
        let now = context.clock.now()
        let handle = try AuthSessionHandle.generate()
        let challenge = try SecureRandom.bytes(count: 32)
        let timeout = configuration.passkeys.challengeTimeoutMilliseconds
        let session = AuthSession(
            id: handle.sessionID, clientID: client.clientID, realm: realm.name, kind: .login, challenge: challenge,
            createdAt: now, expiresAt: sessionExpiry(now: now, configuration: configuration))
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
