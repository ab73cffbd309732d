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

@Suite("Passkey lifecycle and recovery through the daemon on SQLite", .serialized)
struct PasskeyLifecycleEndToEndTests {
    @Test("add a second passkey and log in with each; excludeCredentials; rename; delete one, the other is last")
    func passkeys() async throws {
        let server = try await LiveServer.startForLifecycle()
        var first = Passkey()
        _ = try await server.signUp(&first, email: "ann@example.com")
        let (access, refreshToken) = try await server.loginTokens(&first)
        let refresh = try #require(refreshToken)

        // The creation options exclude the first passkey and carry the client's hints.
        let (status, challenge) = try await server.addChallenge(token: access)
        #expect(status == 200)
        let options = try #require(challenge["authn_params_public_key"])
        let excluded = options["excludeCredentials"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(excluded == [Base64URL.encode(first.credentialID)])
        #expect(options["hints"]?.arrayValue?.compactMap(\.stringValue) == ["client-device", "hybrid"])
        #expect(options["user"]?["name"]?.stringValue == "ann@example.com")
        // The first authenticator refuses to register again (it holds an excluded credential) ...
        var again = first
        #expect(throws: (any Error).self) { _ = try again.register(options) }
        // ... and the server refuses a credential id already registered (an authenticator ignoring the list).
        let session = try #require(challenge["auth_session"]?.stringValue)
        let reused = try again.register(options, CeremonyTampering(reusedCredentialID: first.credentialID))
        let (reusedStatus, reusedBody) = try await server.call(
            "POST", "/me/passkeys", token: access, body: ["auth_session": .string(session), "authn_response": reused])
        #expect(reusedStatus == 403)
        #expect(reusedBody["error"]?.stringValue == "invalid_grant")

        // A second passkey; both log in.
        var second = Passkey(.edDSA)
        let (added, addedBody) = try await server.addPasskey(&second, token: access)
        #expect(added == 201)
        #expect(addedBody["id"]?.stringValue == Base64URL.encode(second.credentialID))
        #expect(addedBody["name"]?.stringValue == "Passkey")
        #expect(try await server.logIn(&first) == 200)
        #expect(try await server.logIn(&second) == 200)

        // The list: both, in order, with the user's names for the Signal API.
        let (listed, list) = try await server.call("GET", "/me/passkeys", token: access)
        #expect(listed == 200)
        let ids = list["passkeys"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(ids == [Base64URL.encode(first.credentialID), Base64URL.encode(second.credentialID)])
        #expect(list["user"]?["name"]?.stringValue == "ann@example.com")
        #expect(list["user"]?["user_handle"]?.stringValue == Base64URL.encode(first.userHandle))
        let entry = try #require(list["passkeys"]?.arrayValue?.first)
        for member in ["created_at", "last_used_at", "backup_eligible", "backed_up", "transports", "aaguid"] {
            #expect(entry[member] != nil, "\(member)")
        }

        // Rename (bounded, kept as text), another user's id is 404, a control character is refused.
        let path = "/me/passkeys/\(Base64URL.encode(second.credentialID))"
        let (renamed, renamedBody) = try await server.call("PATCH", path, token: access, body: ["name": "<b>Work</b>"])
        #expect(renamed == 200)
        #expect(renamedBody["name"]?.stringValue == "<b>Work</b>")
        #expect(try await server.call("PATCH", path, token: access, body: ["name": "a\u{7}b"]).status == 400)
        let long = String(repeating: "x", count: 65)
        #expect(try await server.call("PATCH", path, token: access, body: ["name": .string(long)]).status == 400)
        var bob = Passkey()
        _ = try await server.signUp(&bob, email: "bob@example.com")
        let bobPath = "/me/passkeys/\(Base64URL.encode(bob.credentialID))"
        #expect(try await server.call("PATCH", bobPath, token: access, body: ["name": "mine"]).status == 404)
        #expect(try await server.call("DELETE", bobPath, token: access).status == 404)

        // A token from the refresh grant keeps the login's auth_time: not fresh enough to add or remove.
        let refreshed = try await server.refresh(refresh)
        let refreshedAccess = try #require(refreshed.body["access_token"]?.stringValue)
        let (stale, staleBody) = try await server.call("DELETE", path, token: refreshedAccess)
        #expect(stale == 401)
        #expect(staleBody["error"]?.stringValue == "insufficient_user_authentication")
        #expect(try await server.addChallenge(token: refreshedAccess).status == 401)

        // Delete one, then the other is the last: refused.
        #expect(try await server.call("DELETE", path, token: access).status == 204)
        #expect(try await server.logIn(&second) == 403)
        let firstPath = "/me/passkeys/\(Base64URL.encode(first.credentialID))"
        let (last, lastBody) = try await server.call("DELETE", firstPath, token: access)
        #expect(last == 409)
        #expect(lastBody["error"]?.stringValue == "last_passkey")
        #expect(try await server.logIn(&first) == 200)
        await server.stop()
    }

    @Test("recovery codes: use one, reuse refused, wrong code limited, restricted token enrols only")
    func recovery() async throws {
        // A stopped clock, moved by hand: the recovery lock below is waited out without sleeping.
        let clock = TestClock(Date())
        let server = try await LiveServer.startForLifecycle(clock: clock)
        var lost = Passkey()
        let signup = try await server.signUp(&lost, email: "cat@example.com")
        let oldRefresh = try #require(signup["refresh_token"]?.stringValue)
        let (access, _) = try await server.loginTokens(&lost)
        let (generated, codesBody) = try await server.call("POST", "/me/recovery-codes", token: access)
        #expect(generated == 201)
        let codes = codesBody["recovery_codes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(codes.count == 10)
        #expect(Set(codes).count == 10)

        // With recovery codes, the only passkey may be removed (then put back below by recovery).
        // Use one code (typed in lower case without dashes): a restricted token, no refresh token.
        let typed = codes[0].replacingOccurrences(of: "-", with: "").lowercased()
        let (recovered, tokenBody) = try await server.recover(identifier: "CAT@example.com", code: typed)
        #expect(recovered == 200)
        #expect(tokenBody["scope"]?.stringValue == "enroll:passkey")
        #expect(tokenBody["expires_in"]?.intValue == 600)
        #expect(tokenBody["refresh_token"] == nil)
        #expect(tokenBody["id_token"] == nil)
        #expect(tokenBody["token_type"]?.stringValue == "Bearer")
        let restricted = try #require(tokenBody["access_token"]?.stringValue)
        // RFC 9068: its own audience only, the one scope, amr otp, a jti, RS256 like the built-in APIs
        // (tokens.access_token_signing_alg).
        let parts = restricted.split(separator: ".")
        let header = try JSONValue(parsing: try #require(Base64URL.decode(parts[0])))
        let claims = try JSONValue(parsing: try #require(Base64URL.decode(parts[1])))
        let issuer = server.running.context.configuration.issuer
        #expect(header["alg"]?.stringValue == "RS256")
        #expect(claims["aud"]?.stringValue == issuer + "recovery")  // one audience: a string (RFC 7519 §4.1.3)
        #expect(claims["scope"]?.stringValue == "enroll:passkey")
        #expect(claims["amr"]?.arrayValue?.compactMap(\.stringValue) == ["otp"])
        #expect(claims["jti"]?.stringValue?.isEmpty == false)
        #expect(claims["exp"]?.intValue.map { $0 - (claims["iat"]?.intValue ?? 0) } == 600)

        // Reuse is refused; an unknown identifier gets the same answers.
        let reuse = try await server.recover(identifier: "cat@example.com", code: codes[0])
        #expect(reuse.status == 403)
        let unknown = try await server.recover(identifier: "nobody@example.com", code: codes[1])
        #expect(unknown.status == reuse.status)
        #expect(unknown.body == reuse.body)
        let (unknownChallenge, unknownBody) = try await server.post(
            "/recovery/challenge", ["client_id": "app", "identifier": "nobody@example.com"])
        #expect(unknownChallenge == 200)
        #expect(unknownBody["auth_session"]?.stringValue != nil)

        // The restricted token can do nothing but enrol.
        #expect(try await server.call("GET", "/me/passkeys", token: restricted).status == 401)
        #expect(try await server.call("GET", "/userinfo", token: restricted).status == 401)
        #expect(try await server.call("POST", "/me/recovery-codes", token: restricted).status == 401)
        #expect(try await server.call("DELETE", "/me", token: restricted).status == 401)
        let lostPath = "/me/passkeys/\(Base64URL.encode(lost.credentialID))"
        #expect(try await server.call("DELETE", lostPath, token: restricted).status == 401)
        #expect(try await server.call("GET", "/device-keys", token: restricted).status == 401)
        var replacement = Passkey()
        let (enrolled, _) = try await server.addPasskey(&replacement, token: restricted)
        #expect(enrolled == 201)
        #expect(try await server.logIn(&replacement) == 200)
        // The other sessions were revoked with the enrolment.
        #expect(try await server.refresh(oldRefresh).status == 403)

        // Wrong codes: counted per identifier (known or not) and per client network. The passkey login above lifted
        // the count of the reuse: five failures lock this identifier's recovery for srp.lock_seconds, even for a
        // right code; the network's seven failures stay below its delay (srp.address_delay_after_failures, 20).
        for _ in 0..<5 {
            #expect(try await server.recover(identifier: "cat@example.com", code: "0000-0000-0000").status == 403)
        }
        let (locked, lockedBody) = try await server.recover(identifier: "cat@example.com", code: codes[2])
        #expect(locked == 403)
        #expect(lockedBody["error"]?.stringValue == "recovery_locked")
        let other = try await server.recover(identifier: "dog@example.com", code: codes[2])
        #expect(other.body["error"]?.stringValue == "invalid_grant", "another identifier is judged, not delayed")
        // The lock cools down after an hour: the right code recovers again.
        clock.advance(3_600)
        #expect(try await server.recover(identifier: "cat@example.com", code: codes[2]).status == 200)

        // Regenerating revokes the old set (fresh login of the new passkey).
        let (fresh, _) = try await server.loginTokens(&replacement)
        let (regenerated, regeneratedBody) = try await server.call("POST", "/me/recovery-codes", token: fresh)
        #expect(regenerated == 201)
        #expect(regeneratedBody["revoked_previous"]?.boolValue == true)
        let handle = replacement.userHandle
        let userID = try #require(try await server.running.context.store.read { try $0.user(userHandle: handle) }?.id)
        let stored = try await server.running.context.store.read { try $0.recoveryCodes(userID: userID) }
        #expect(stored.count == 10)
        let events = try await server.running.context.store.read { try $0.securityEvents(userID: userID, limit: 100) }
        let kinds = Set(events.map(\.kind))
        for kind in [
            "recovery_codes_generated", "recovery_challenge", "recovery_attempt", "recovery_locked", "passkey_added",
            "sessions_revoked",
        ] {
            #expect(kinds.contains(kind), "\(kind)")
        }
        await server.stop()
    }

    @Test("DELETE /me leaves no row of the user outside the audit log")
    func accountDeletion() async throws {
        let server = try await LiveServer.startForLifecycle()
        var dan = Passkey()
        _ = try await server.signUp(&dan, email: "dan@example.com")
        var eve = Passkey()
        _ = try await server.signUp(&eve, email: "eve@example.com")
        let (access, refresh) = try await server.loginTokens(&dan)
        var spare = Passkey()
        #expect(try await server.addPasskey(&spare, token: access).status == 201)
        #expect(try await server.call("POST", "/me/recovery-codes", token: access).status == 201)
        _ = try await server.addChallenge(token: access)  // a pending add-passkey session
        _ = try await server.recover(identifier: "dan@example.com", code: "0000-0000-0001")  // a counter
        let store = server.running.context.store
        let danHandle = dan.userHandle
        let user = try #require(try await store.read { try $0.user(userHandle: danHandle) })
        let before = try await store.read { try $0.rowsMentioningUser(id: user.id, userHandle: user.userHandle) }
        #expect(before["credentials"] == 2)
        #expect(before["recovery_codes"] == 10)

        #expect(try await server.call("DELETE", "/me", token: access).status == 204)
        let after = try await store.read { try $0.rowsMentioningUser(id: user.id, userHandle: user.userHandle) }
        #expect(after == [:])
        let counter = try await store.read {
            try $0.fallbackCounter(
                key: FallbackCounterKey.recoveryIdentifier(realm: "main", identifier: "dan@example.com"))
        }
        #expect(counter == nil)
        #expect(try await server.logIn(&dan) == 403)
        #expect(try await server.refresh(try #require(refresh)).status == 403)
        // The audit log keeps the deletion, by user id only.
        let events = try await store.read { try $0.securityEvents(userID: user.id, limit: 100) }
        #expect(events.contains { $0.kind == "account_deleted" })
        #expect(!events.contains { String(decoding: $0.detail ?? [], as: UTF8.self).contains("dan@example.com") })
        // Others are untouched.
        #expect(try await server.logIn(&eve) == 200)
        await server.stop()
    }
}
