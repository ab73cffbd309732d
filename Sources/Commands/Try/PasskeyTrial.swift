import Crypto
import JSON
import SoftwareClient

/// The steps of `passkeyd try`, each printed as it is done: the discovery document, a sign-up
/// (`POST /passkey/register`, a new credential of the software authenticator, `POST /oauth/token`), a login with it
/// (`POST /passkey/challenge`, an assertion, `POST /oauth/token`), then the claims of the login's access and ID tokens,
/// decoded (not verified: this is a look at what an app receives). Blocking I/O: run it on a thread of its own.
struct PasskeyTrial: Sendable {
    let server: TrialServer
    let clientID: String
    /// The secret of a confidential client, sent as `client_secret`; `nil` for a public client.
    let clientSecret: String?
    /// The origin in `clientDataJSON`; `nil`: `https://<RP ID>`, which passkeyd accepts for a client with an iOS app.
    let origin: String?
    let output: @Sendable (String) -> Void

    /// Runs the steps; throws the first failure (a refusal carries the server's answer).
    func run() throws {
        let transport = SocketConnection(host: server.host, port: server.port)
        // A synced platform passkey, as iOS and Android make them (its counter stays 0).
        var client = PasskeyClient(
            transport: transport, parameters: PasskeyClient.Parameters(clientID: clientID, clientSecret: clientSecret),
            authenticator: VirtualAuthenticator(flags: .passkey, counterStep: 0))
        output("passkeyd try: \(server.url), client \(clientID)")
        let discovery = try client.expectOK(
            transport.get("/.well-known/openid-configuration"), "/.well-known/openid-configuration")
        output("GET /.well-known/openid-configuration: 200, issuer \(member("issuer", of: discovery) ?? "?")")

        let random = try SecureRandom.bytes(count: 6)
        let email = "try-\(Hex.encode(random))@example.com"
        let creation = try client.startSignUp(email: email, name: "passkeyd try")
        output("POST /passkey/register (\(email)): 200, RP ID \(creation.rpID), a challenge and an auth_session")
        client.parameters.rpID = creation.rpID
        client.parameters.origin = origin ?? "https://\(creation.rpID)"
        var (credential, signUpTokens) = try client.finishSignUp(creation)
        output(
            "POST /oauth/token (sign-up: a new passkey, origin \(client.parameters.origin)): 200, "
                + "credential \(Base64URL.encode(credential.id)), \(summary(of: signUpTokens))")

        let challenge = try client.expectOK(
            transport.post("/passkey/challenge", body: client.challengeRequest), "/passkey/challenge")
        output("POST /passkey/challenge: 200, a challenge and an auth_session")
        let request = try client.tokenRequest(answering: challenge, with: &credential)
        let loginTokens = try client.expectOK(transport.post("/oauth/token", body: request), "/oauth/token")
        output("POST /oauth/token (login: the passkey's assertion): 200, \(summary(of: loginTokens))")

        let tokens = try JSONValue(parsing: loginTokens).objectValue ?? [:]
        for (name, title) in [("access_token", "access token"), ("id_token", "ID token")] {
            guard let token = tokens[name]?.stringValue else { continue }
            output("\(title) claims:")
            claims(of: token).forEach {
                output("  \($0.key): \(String(decoding: $0.value.serialized(), as: UTF8.self))")
            }
        }
    }

    /// The string member `name` of a JSON object's text.
    private func member(_ name: String, of json: [UInt8]) -> String? {
        (try? JSONValue(parsing: json))?.objectValue?[name]?.stringValue
    }

    /// What a token response holds: which tokens, their type, lifetime and scope.
    private func summary(of response: [UInt8]) -> String {
        let object = (try? JSONValue(parsing: response))?.objectValue ?? [:]
        let tokens = ["access_token", "id_token", "refresh_token"].filter { object[$0] != nil }
        let lifetime = object["expires_in"]?.intValue.map { ", expires_in \($0)" } ?? ""
        let scope = object["scope"]?.stringValue.map { ", scope \"\($0)\"" } ?? ""
        return tokens.joined(separator: ", ") + lifetime + scope
    }

    /// The payload members of a JWS compact serialization (RFC 7515 §7.1: header.payload.signature), undecoded
    /// members skipped; empty when it is not one.
    private func claims(of token: String) -> [JSONMember] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])) else { return [] }
        return (try? JSONValue(parsing: payload))?.objectMembers ?? []
    }
}
