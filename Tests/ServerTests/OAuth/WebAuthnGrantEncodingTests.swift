import Crypto
import Foundation
import HTTP
import JSON
import SoftwareClient
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// Base64url is RFC 4648 §5 without padding (WebAuthn L3 §3) in sign-ups and logins alike — no `=`,
/// no `+` or `/`, no whitespace — and the challenge inside clientDataJSON is compared as text (§7.1 step 8,
/// §7.2 step 12). Each respelled member is refused with the code the endpoint logs.
@Suite("POST /oauth/token, webauthn grant: base64url in its one spelling, in both ceremonies")
struct WebAuthnGrantEncodingTests {
    /// Respellings of base64url `text`: padded, the standard alphabet, whitespace.
    static func respellings(_ text: String) -> [String] {
        let middle = text.index(text.startIndex, offsetBy: text.count / 2)
        return [
            text + "=", text + "==", text.replacingCharacters(in: middle...middle, with: "+"),
            text.replacingCharacters(in: middle...middle, with: "/"), String(text[..<middle]) + " " + text[middle...],
            String(text[..<middle]) + "\n" + text[middle...],
        ]
    }

    /// `response` with the member at `path` (below `authn_response`) run through `change`.
    static func changing(_ response: JSONValue, _ path: [String], _ change: (String) -> String) -> JSONValue {
        guard let key = path.first, case .object(let members) = response else { return response }
        return .object(
            members.map { member in
                guard member.key == key else { return member }
                if path.count == 1, let text = member.value.stringValue {
                    return JSONMember(key: key, value: .string(change(text)))
                }
                return JSONMember(key: key, value: changing(member.value, Array(path.dropFirst()), change))
            })
    }

    /// Expects `response` to be the ceremony refusal logged with `code`.
    static func expectRefused(
        _ response: Response, code: String, harness: PasskeyHarness, linesBefore: Int, _ comment: String
    ) throws {
        #expect(response.status == 403, "\(comment)")
        #expect(response.errorCode == "invalid_grant", "\(comment)")
        #expect(
            try response.jsonValue()["error_description"]?.stringValue == "The passkey could not be verified.",
            "\(comment)")
        let logged = harness.logLines.all.dropFirst(linesBefore).contains { $0.contains("\"code\":\"\(code)\"") }
        #expect(logged, "\(comment): log line with code \(code)")
    }

    /// The standard-base64 spelling (with padding) of base64url `text`.
    static func standardBase64(_ text: String) throws -> String {
        Data(try #require(Base64URL.decode(text))).base64EncodedString()
    }

    @Test("a login whose members are respelled is refused as malformedResponse (credentialIDMismatch for id)")
    func login() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let members: [([String], String)] = [
            (["response", "clientDataJSON"], "malformed_response"),
            (["response", "authenticatorData"], "malformed_response"),
            (["response", "signature"], "malformed_response"), (["response", "userHandle"], "malformed_response"),
            (["rawId"], "malformed_response"), (["id"], "credential_id_mismatch"),
        ]
        for (path, code) in members {
            for index in 0..<6 {
                let (options, session) = try await harness.loginOptions()
                let assertion = Self.changing(try authenticator.assert(options), path) { Self.respellings($0)[index] }
                let before = harness.logLines.all.count
                let response = await harness.token(session: session, response: assertion)
                try Self.expectRefused(response, code: code, harness: harness, linesBefore: before, "\(path) #\(index)")
            }
        }
        // The same passkey, spelled right, still logs in: each refusal was the spelling.
        #expect(try await harness.logIn(&authenticator).status == 200)
    }

    @Test("a sign-up whose members are respelled is refused as malformedResponse (credentialIDMismatch for id)")
    func signUp() async throws {
        let harness = try PasskeyHarness()
        let members: [([String], String)] = [
            (["response", "clientDataJSON"], "malformed_response"),
            (["response", "attestationObject"], "malformed_response"),
            (["rawId"], "malformed_response"), (["id"], "credential_id_mismatch"),
        ]
        for (path, code) in members {
            for index in 0..<6 {
                var authenticator = Passkey()
                let challenge = try await harness.registerChallenge().jsonValue()
                let options = try #require(challenge["authn_params_public_key"])
                let session = try #require(challenge["auth_session"]?.stringValue)
                let registration = Self.changing(try authenticator.register(options), path) {
                    Self.respellings($0)[index]
                }
                let before = harness.logLines.all.count
                let response = await harness.token(session: session, response: registration)
                try Self.expectRefused(response, code: code, harness: harness, linesBefore: before, "\(path) #\(index)")
            }
        }
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
    }

    @Test("the challenge inside clientDataJSON, padded or in standard base64, is challengeMismatch in both ceremonies")
    func challengeSpelling() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        let respellings: [(String) throws -> String] = [{ $0 + "==" }, { $0 + "=" }, { try Self.standardBase64($0) }]
        for respell in respellings {
            // Sign-up: the authenticator signs over clientDataJSON with the respelled challenge.
            let challenge = try await harness.registerChallenge(email: "bob@example.com").jsonValue()
            let options = try #require(challenge["authn_params_public_key"])
            let session = try #require(challenge["auth_session"]?.stringValue)
            let text = try #require(options["challenge"]?.stringValue)
            var newcomer = Passkey()
            let registration = try newcomer.register(options, CeremonyTampering(challengeText: try respell(text)))
            var before = harness.logLines.all.count
            try Self.expectRefused(
                await harness.token(session: session, response: registration), code: "challenge_mismatch",
                harness: harness, linesBefore: before, "sign-up, challenge \(try respell(text))")
            // Login.
            if authenticator.credential == nil { _ = try await harness.signUp(&authenticator) }
            let (loginOptions, loginSession) = try await harness.loginOptions()
            let loginText = try #require(loginOptions["challenge"]?.stringValue)
            let assertion = try authenticator.assert(
                loginOptions, CeremonyTampering(challengeText: try respell(loginText)))
            before = harness.logLines.all.count
            try Self.expectRefused(
                await harness.token(session: loginSession, response: assertion), code: "challenge_mismatch",
                harness: harness, linesBefore: before, "login, challenge \(try respell(loginText))")
        }
    }
}
