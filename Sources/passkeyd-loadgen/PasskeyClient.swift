import Crypto
import Dispatch
import TestSupport

/// A native app's side of passkeyd's Auth0-compatible API: sign-up (`/passkey/register` then `/oauth/token`) and
/// login (`/passkey/challenge`, sign, `/oauth/token`), with a software authenticator instead of a platform one.
struct PasskeyClient {
    /// The grant of both ceremonies' token requests (Auth0 native passkeys).
    static let webauthnGrant = "urn:okta:params:oauth:grant-type:webauthn"

    let transport: any HTTPTransport
    let settings: LoadgenSettings
    let authenticator: VirtualAuthenticator

    /// Creates a user with the identifier `email` and returns the credential and the token response.
    func signUp(email: String, name: String) throws -> (credential: VirtualCredential, tokens: [UInt8]) {
        let body =
            "{\"client_id\":\(quoted(settings.clientID))\(realmMember),\"user_profile\":{\"email\":"
            + "\(quoted(email)),\"name\":\(quoted(name))}}"
        let options = try PublicKeyCredentialCreationOptions(
            json: try expectOK(transport.post("/passkey/register", body: Array(body.utf8)), "/passkey/register"))
        guard let session = options.authSession else {
            throw LoadgenError(.malformedResponse, "/passkey/register answered without auth_session")
        }
        let (credential, response) = try authenticator.makeCredential(options: options, origin: settings.origin)
        let tokens = try expectOK(
            transport.post("/oauth/token", body: tokenRequest(session: session, credential: response)), "/oauth/token")
        return (credential, tokens)
    }

    /// One full login with `credential`; returns the token response body and adds the time spent on the client's
    /// own work (reading the options, signing, writing the token request) to `clientWork`.
    func logIn(with credential: inout VirtualCredential, clientWork: inout UInt64) throws -> [UInt8] {
        let answer = try expectOK(transport.post("/passkey/challenge", body: challengeRequest), "/passkey/challenge")
        let workStarted = DispatchTime.now().uptimeNanoseconds
        let request = try tokenRequest(answering: answer, with: &credential)
        clientWork += DispatchTime.now().uptimeNanoseconds - workStarted
        return try expectOK(transport.post("/oauth/token", body: request), "/oauth/token")
    }

    /// The body of a login's `POST /passkey/challenge`.
    var challengeRequest: [UInt8] { Array("{\"client_id\":\(quoted(settings.clientID))\(realmMember)}".utf8) }

    /// The second half of a login's client side: reads the `/passkey/challenge` answer, signs the assertion with
    /// `credential` and returns the `/oauth/token` request body.
    func tokenRequest(answering answer: [UInt8], with credential: inout VirtualCredential) throws -> [UInt8] {
        let options = try Self.requestOptions(answer, rpID: settings.rpID)
        guard let session = options.authSession else {
            throw LoadgenError(.malformedResponse, "/passkey/challenge answered without auth_session")
        }
        let assertion = try authenticator.getAssertion(
            options: options, origin: settings.origin, credential: &credential)
        return tokenRequest(session: session, credential: assertion)
    }

    /// The token request body (JSON, as Auth0 documents `/oauth/token` for the webauthn grant).
    func tokenRequest(session: String, credential: PublicKeyCredential) -> [UInt8] {
        var body = "{\"grant_type\":\"\(Self.webauthnGrant)\",\"client_id\":\(quoted(settings.clientID))"
        body += realmMember
        body += ",\"scope\":\(quoted(settings.scope)),\"auth_session\":\(quoted(session))"
        if let audience = settings.audience { body += ",\"audience\":\(quoted(audience))" }
        body += ",\"authn_response\":\(credential.toJSON())}"
        return Array(body.utf8)
    }

    /// Reads the challenge response with a byte scan when it has the plain shape passkeyd writes (two string
    /// members whose values need no unescaping), and through the JSON parser otherwise.
    static func requestOptions(_ json: [UInt8], rpID: String) throws -> PublicKeyCredentialRequestOptions {
        if let challenge = JSONScan.string("challenge", in: json).flatMap({ Base64URL.decode($0) }),
            let session = JSONScan.string("auth_session", in: json)
        {
            return PublicKeyCredentialRequestOptions(
                challenge: challenge, rpID: JSONScan.string("rpId", in: json) ?? rpID, authSession: session)
        }
        return try PublicKeyCredentialRequestOptions(json: json)
    }

    private var realmMember: String { settings.realm.map { ",\"realm\":\(quoted($0))" } ?? "" }

    private func quoted(_ text: String) -> String { JSONScan.quoted(text) }

    func expectOK(_ answer: (status: Int, body: [UInt8]), _ path: String) throws(LoadgenError) -> [UInt8] {
        guard answer.status == 200 else {
            let text = String(decoding: answer.body.prefix(300), as: UTF8.self)
            throw LoadgenError(.unexpectedStatus, "\(path) answered \(answer.status): \(text)")
        }
        return answer.body
    }
}
