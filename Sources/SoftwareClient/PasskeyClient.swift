import Crypto
import Dispatch

/// A native app's side of passkeyd's Auth0-compatible API: sign-up (`/passkey/register` then `/oauth/token`) and
/// login (`/passkey/challenge`, sign, `/oauth/token`), with a software authenticator instead of a platform one. The
/// load generator runs many; `passkeyd try` runs one.
package struct PasskeyClient {
    /// What the app sends besides the ceremonies' own values.
    package struct Parameters: Sendable {
        /// `client_id`.
        package var clientID: String
        /// `client_secret` (`client_secret_post`, RFC 6749 §2.3.1), sent with `client_id` by a confidential client;
        /// `nil`: a public client's requests.
        package var clientSecret: String?
        /// `realm` (Auth0's connection); `nil`: none named, the server's default realm.
        package var realm: String?
        /// `scope` of the token requests.
        package var scope: String
        /// `audience` of the token requests (Auth0's API identifier); `nil`: none named.
        package var audience: String?
        /// The origin written into `clientDataJSON` (`https://<rp id>` is an iOS app's).
        package var origin: String
        /// The RP ID a login signs for when the challenge's answer names none.
        package var rpID: String

        package init(
            clientID: String, clientSecret: String? = nil, realm: String? = nil,
            scope: String = "openid profile email offline_access", audience: String? = nil,
            origin: String = "https://localhost", rpID: String = "localhost"
        ) {
            self.clientID = clientID
            self.clientSecret = clientSecret
            self.realm = realm
            self.scope = scope
            self.audience = audience
            self.origin = origin
            self.rpID = rpID
        }
    }

    /// The grant of both ceremonies' token requests (Auth0 native passkeys).
    package static let webauthnGrant = "urn:okta:params:oauth:grant-type:webauthn"

    package let transport: any HTTPTransport
    package var parameters: Parameters
    package let authenticator: VirtualAuthenticator

    package init(transport: any HTTPTransport, parameters: Parameters, authenticator: VirtualAuthenticator) {
        self.transport = transport
        self.parameters = parameters
        self.authenticator = authenticator
    }

    /// Creates a user with the identifier `email` and returns the credential and the token response.
    package func signUp(email: String, name: String) throws -> (credential: VirtualCredential, tokens: [UInt8]) {
        try finishSignUp(try startSignUp(email: email, name: name))
    }

    /// A sign-up's first request, `POST /passkey/register`: the creation options, with the `auth_session`.
    package func startSignUp(email: String, name: String) throws -> PublicKeyCredentialCreationOptions {
        let body =
            "{\"client_id\":\(quoted(parameters.clientID))\(secretMember)\(realmMember),\"user_profile\":{\"email\":"
            + "\(quoted(email)),\"name\":\(quoted(name))}}"
        return try PublicKeyCredentialCreationOptions(
            json: try expectOK(transport.post("/passkey/register", body: Array(body.utf8)), "/passkey/register"))
    }

    /// A sign-up's second half: a new credential for `options`, posted to `/oauth/token`; the credential and the
    /// token response.
    package func finishSignUp(_ options: PublicKeyCredentialCreationOptions) throws -> (
        credential: VirtualCredential, tokens: [UInt8]
    ) {
        guard let session = options.authSession else {
            throw SoftwareClientError(.malformedResponse, "/passkey/register answered without auth_session")
        }
        let (credential, response) = try authenticator.makeCredential(options: options, origin: parameters.origin)
        let tokens = try expectOK(
            transport.post("/oauth/token", body: tokenRequest(session: session, credential: response)), "/oauth/token")
        return (credential, tokens)
    }

    /// One full login with `credential`; returns the token response body and adds the time spent on the client's
    /// own work (reading the options, signing, writing the token request) to `clientWork`.
    package func logIn(with credential: inout VirtualCredential, clientWork: inout UInt64) throws -> [UInt8] {
        let answer = try expectOK(transport.post("/passkey/challenge", body: challengeRequest), "/passkey/challenge")
        let workStarted = DispatchTime.now().uptimeNanoseconds
        let request = try tokenRequest(answering: answer, with: &credential)
        clientWork += DispatchTime.now().uptimeNanoseconds - workStarted
        return try expectOK(transport.post("/oauth/token", body: request), "/oauth/token")
    }

    /// The body of a login's `POST /passkey/challenge`.
    package var challengeRequest: [UInt8] {
        Array("{\"client_id\":\(quoted(parameters.clientID))\(secretMember)\(realmMember)}".utf8)
    }

    /// The second half of a login's client side: reads the `/passkey/challenge` answer, signs the assertion with
    /// `credential` and returns the `/oauth/token` request body.
    package func tokenRequest(answering answer: [UInt8], with credential: inout VirtualCredential) throws -> [UInt8] {
        let options = try Self.requestOptions(answer, rpID: parameters.rpID)
        guard let session = options.authSession else {
            throw SoftwareClientError(.malformedResponse, "/passkey/challenge answered without auth_session")
        }
        let assertion = try authenticator.getAssertion(
            options: options, origin: parameters.origin, credential: &credential)
        return tokenRequest(session: session, credential: assertion)
    }

    /// The token request body (JSON, as Auth0 documents `/oauth/token` for the webauthn grant).
    package func tokenRequest(session: String, credential: PublicKeyCredential) -> [UInt8] {
        var body = "{\"grant_type\":\"\(Self.webauthnGrant)\",\"client_id\":\(quoted(parameters.clientID))"
        body += secretMember + realmMember
        body += ",\"scope\":\(quoted(parameters.scope)),\"auth_session\":\(quoted(session))"
        if let audience = parameters.audience { body += ",\"audience\":\(quoted(audience))" }
        body += ",\"authn_response\":\(credential.toJSON())}"
        return Array(body.utf8)
    }

    /// Reads the challenge response with a byte scan when it has the plain shape passkeyd writes (two string
    /// members whose values need no unescaping), and through the JSON parser otherwise.
    package static func requestOptions(_ json: [UInt8], rpID: String) throws -> PublicKeyCredentialRequestOptions {
        if let challenge = JSONScan.string("challenge", in: json).flatMap({ Base64URL.decode($0) }),
            let session = JSONScan.string("auth_session", in: json)
        {
            return PublicKeyCredentialRequestOptions(
                challenge: challenge, rpID: JSONScan.string("rpId", in: json) ?? rpID, authSession: session)
        }
        return try PublicKeyCredentialRequestOptions(json: json)
    }

    private var realmMember: String { parameters.realm.map { ",\"realm\":\(quoted($0))" } ?? "" }

    private var secretMember: String { parameters.clientSecret.map { ",\"client_secret\":\(quoted($0))" } ?? "" }

    private func quoted(_ text: String) -> String { JSONScan.quoted(text) }

    /// The body of a 200 answer; any other status is `unexpectedStatus`, with the start of the server's answer.
    package func expectOK(_ answer: (status: Int, body: [UInt8]), _ path: String) throws(SoftwareClientError)
        -> [UInt8]
    {
        guard answer.status == 200 else {
            let text = String(decoding: answer.body.prefix(300), as: UTF8.self)
            throw SoftwareClientError(.unexpectedStatus, "\(path) answered \(answer.status): \(text)")
        }
        return answer.body
    }
}
