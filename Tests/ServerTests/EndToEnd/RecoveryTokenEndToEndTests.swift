import Crypto
import Foundation
import HTTP
import JSON
import SoftwareClient
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// The recovery token is single use (`RecoveryToken`): one passkey spends it.
@Suite("The recovery token enrols exactly one passkey, through the daemon on SQLite", .serialized)
struct RecoveryTokenEndToEndTests {
    /// A user with one passkey and recovery codes, and the restricted token bought with the first code.
    static func recovered(_ server: LiveServer, email: String) async throws -> (userID: String, token: String) {
        var lost = Passkey()
        _ = try await server.signUp(&lost, email: email)
        let (access, _) = try await server.loginTokens(&lost)
        let (generated, codesBody) = try await server.call("POST", "/me/recovery-codes", token: access)
        #expect(generated == 201)
        let code = try #require(codesBody["recovery_codes"]?.arrayValue?.first?.stringValue)
        let (recovered, tokenBody) = try await server.recover(identifier: email, code: code)
        #expect(recovered == 200)
        let handle = lost.userHandle
        let userID = try #require(try await server.running.context.store.read { try $0.user(userHandle: handle) }?.id)
        return (userID, try #require(tokenBody["access_token"]?.stringValue))
    }

    /// The `jti` of `token` (RFC 7519 §4.1.7), read from its payload.
    static func jwtID(_ token: String) throws -> String {
        let parts = token.split(separator: ".")
        let payload = try JSONValue(parsing: try #require(Base64URL.decode(String(parts[1]))))
        return try #require(payload["jti"]?.stringValue)
    }

    /// `POST /me/passkeys/challenge`'s options and session.
    static func challenge(_ server: LiveServer, token: String) async throws -> (options: JSONValue, session: String) {
        let (status, body) = try await server.addChallenge(token: token)
        #expect(status == 200)
        return (try #require(body["authn_params_public_key"]), try #require(body["auth_session"]?.stringValue))
    }

    /// `POST /me/passkeys` of `response` under `session`.
    static func enrol(_ server: LiveServer, token: String, session: String, response: JSONValue) async throws
        -> (status: Int, body: JSONValue)
    {
        try await server.call(
            "POST", "/me/passkeys", token: token, body: ["auth_session": .string(session), "authn_response": response])
    }

    @Test("refused enrolments do not spend it; one passkey does; then the challenge and the enrolment are 401")
    func singleUse() async throws {
        let server = try await LiveServer.startForLifecycle()
        let (userID, token) = try await Self.recovered(server, email: "eve@example.com")

        // Refused enrolments spend nothing: an attestation for another RP ID (WebAuthn L3 §7.1 step 13), and a
        // response to another challenge (§7.1 step 8).
        var refused = Passkey()
        let first = try await Self.challenge(server, token: token)
        let badAttestation = try refused.register(first.options, CeremonyTampering(rpID: "evil.example"))
        #expect(
            try await Self.enrol(server, token: token, session: first.session, response: badAttestation).status == 403)
        let second = try await Self.challenge(server, token: token)
        let other = try await Self.challenge(server, token: token)
        var misdirected = Passkey()
        let otherAnswer = try misdirected.register(other.options)
        #expect(
            try await Self.enrol(server, token: token, session: second.session, response: otherAnswer).status == 403)
        // A session taken while the token was unspent, for the refusal after the spend.
        let leftOver = try await Self.challenge(server, token: token)

        // The retry adds the passkey and spends the token.
        var replacement = Passkey()
        let (enrolled, _) = try await server.addPasskey(&replacement, token: token)
        #expect(enrolled == 201)
        #expect(try await server.logIn(&replacement) == 200)

        // Every later use is refused: RFC 6750 §3.1 invalid_token, with the challenge naming it.
        let (challengeStatus, challengeHeaders, challengeData) = try await server.send(
            "POST", "/me/passkeys/challenge", headers: ["Authorization": "Bearer \(token)"])
        #expect(challengeStatus == 401)
        let challengeBody = try JSONValue(parsing: [UInt8](challengeData))
        #expect(challengeBody["error"]?.stringValue == "invalid_token")
        #expect(
            challengeBody["error_description"]?.stringValue
                == "The recovery token has already been used to add a passkey.")
        #expect(challengeHeaders["www-authenticate"]?.contains(#"error="invalid_token""#) == true)
        var late = Passkey()
        let lateAnswer = try late.register(leftOver.options)
        let (lateStatus, lateBody) = try await Self.enrol(
            server, token: token, session: leftOver.session, response: lateAnswer)
        #expect(lateStatus == 401)
        #expect(lateBody["error"]?.stringValue == "invalid_token")
        #expect(try await server.call("POST", "/me/passkeys", token: token, body: [:]).status == 401)

        // The user has the lost passkey and the one replacement; the audit events name the token.
        let credentials = try await server.running.context.store.read { try $0.credentials(userID: userID) }
        #expect(credentials.count == 2)
        let jwtID = try Self.jwtID(token)
        let events = try await server.running.context.store.read { try $0.securityEvents(userID: userID, limit: 100) }
        let detail = RecoveryToken.eventDetail(jwtID: jwtID)
        let added = events.filter { $0.kind == "passkey_added" && $0.outcome == "success" }
        #expect(added.count == 1)
        #expect(added.first?.reasonCode == "recovery")
        #expect(added.first?.detail == detail)
        #expect(added.first?.credentialID == replacement.credentialID)
        #expect(events.contains { $0.kind == "recovery_attempt" && $0.outcome == "success" && $0.detail == detail })
        #expect(events.filter { $0.kind == "passkey_added" && $0.outcome == "failure" }.count == 2)
        await server.stop()
    }

    @Test("8 enrolments at once with one recovery token: exactly one 201, the others 401, one passkey added")
    func concurrentEnrolments() async throws {
        let server = try await LiveServer.startForLifecycle()
        let (userID, token) = try await Self.recovered(server, email: "fay@example.com")
        var answers: [(session: String, response: JSONValue)] = []
        for _ in 0..<8 {
            let challenge = try await Self.challenge(server, token: token)
            var passkey = Passkey()
            answers.append((challenge.session, try passkey.register(challenge.options)))
        }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for answer in answers {
                group.addTask {
                    try await Self.enrol(server, token: token, session: answer.session, response: answer.response)
                        .status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 201 }.count == 1, "\(statuses)")
        #expect(statuses.filter { $0 == 401 }.count == 7, "\(statuses)")
        let credentials = try await server.running.context.store.read { try $0.credentials(userID: userID) }
        #expect(credentials.count == 2)
        await server.stop()
    }
}
