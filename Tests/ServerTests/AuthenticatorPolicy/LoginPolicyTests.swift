import Crypto
import Foundation
import HTTP
import JSON
import Metadata
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// `compromised_at_login` for a passkey registered while its authenticator was in good standing, once a newer BLOB
/// reports it compromised; and the policy on the other registration path, `POST /me/passkeys`.
@Suite("Authenticator policy at login and when adding a passkey")
struct LoginPolicyTests {
    typealias Harness = AuthenticatorPolicyHarness

    /// A harness with clients `allow`, `warn` and `refuse` (their `compromised_at_login`), a user signed up through
    /// each with a passkey of `otherAAGUID` under a BLOB that certifies it, then a newer BLOB (serial 2) that
    /// reports it REVOKED.
    static func reported() async throws -> (Harness, [String: Passkey]) {
        let clients = ["allow", "warn", "refuse"].map {
            Harness.client($0, attestation: "none", authenticators: #"{"compromised_at_login": "\#($0)"}"#)
        }
        let harness = try Harness(clients: "[\(clients.joined(separator: ","))]")
        try await harness.load([
            MetadataTestAuthority.entry(aaguid: Harness.otherAAGUID, status: .fidoCertifiedL1, description: "Old Key")
        ])
        var passkeys: [String: Passkey] = [:]
        for client in ["allow", "warn", "refuse"] {
            var passkey = Harness.passkey(aaguid: Harness.otherAAGUID, ca: nil)
            let signedUp = try await harness.signUp(&passkey, clientID: client, email: "\(client)@example.com")
            try #require(signedUp.status == 200, "\(signedUp.bodyText)")
            passkeys[client] = passkey
        }
        try await harness.load(
            [
                MetadataTestAuthority.entry(
                    aaguid: Harness.otherAAGUID, reports: [(.fidoCertifiedL1, "2020-01-01"), (.revoked, "2026-01-01")],
                    description: "Old Key")
            ], serial: 2)
        return (harness, passkeys)
    }

    @Test("allow: the login proceeds and nothing is recorded about the authenticator")
    func allow() async throws {
        let (harness, passkeys) = try await Self.reported()
        var passkey = try #require(passkeys["allow"])
        let response = try await harness.logIn(&passkey, clientID: "allow")
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(try await harness.events(.authenticatorReported).isEmpty)
    }

    @Test("warn: the login proceeds and authenticator_reported records it, decision warned")
    func warn() async throws {
        let (harness, passkeys) = try await Self.reported()
        var passkey = try #require(passkeys["warn"])
        let response = try await harness.logIn(&passkey, clientID: "warn")
        #expect(response.status == 200, "\(response.bodyText)")
        let events = try await harness.events(.authenticatorReported)
        #expect(events.map(\.reasonCode) == ["warned"])
        #expect(events.first?.outcome == "success" && events.first?.clientID == "warn")
        #expect(events.first?.credentialID == passkeys["warn"]?.credentialID)
        let detail = try Harness.detail(try #require(events.first))
        #expect(detail["status"]?.stringValue == "REVOKED" && detail["authenticator"]?.stringValue == "Old Key")
        #expect(try await harness.events(.login).last?.outcome == "success")
    }

    @Test("refuse: 403 access_denied naming the authenticator and its status, recorded with the login's refusal")
    func refuse() async throws {
        let (harness, passkeys) = try await Self.reported()
        var passkey = try #require(passkeys["refuse"])
        let response = try await harness.logIn(&passkey, clientID: "refuse")
        #expect(response.status == 403)
        #expect(response.errorCode == "access_denied")
        let description = try response.jsonValue()["error_description"]?.stringValue ?? ""
        #expect(description.contains("\"Old Key\" (AAGUID b2222222-2222-2222-2222-222222222222)"), "\(description)")
        #expect(description.contains("REVOKED"))
        let events = try await harness.events(.authenticatorReported)
        #expect(events.map(\.reasonCode) == ["refused"] && events.first?.outcome == "failure")
        #expect(try await harness.events(.login).last?.reasonCode == "authenticator_reported")
        // The other clients' users still log in: the decision is the client's.
        var allowed = try #require(passkeys["allow"])
        #expect(try await harness.logIn(&allowed, clientID: "allow").status == 200)
    }

    @Test("a U2F key (all-zero AAGUID) is found at login by the key identifier kept at its registration")
    func u2fKey() async throws {
        let ca = try Harness.shared.get().attestationCA(aaguid: Harness.zeroAAGUID)
        let identifier = Hex.encode(ca.leaf.publicKeyIdentifier)
        let clients = ["warn", "refuse"].map {
            Harness.client($0, authenticators: #"{"compromised_at_login": "\#($0)"}"#)
        }
        let harness = try Harness(clients: "[\(clients.joined(separator: ","))]")
        try await harness.load([
            MetadataTestAuthority.entry(
                keyIdentifiers: [identifier], reports: [(.fidoCertifiedL1, "2020-01-01")], attestationRoots: [ca.root])
        ])
        var passkeys: [String: Passkey] = [:]
        for client in ["warn", "refuse"] {
            var passkey = Harness.passkey(aaguid: Harness.zeroAAGUID, ca: ca)
            let signedUp = try await harness.signUp(&passkey, clientID: client, email: "\(client)@example.com")
            try #require(signedUp.status == 200, "\(signedUp.bodyText)")
            passkeys[client] = passkey
        }
        let warnedID = try #require(passkeys["warn"]?.credentialID)
        let stored = try await harness.passkeys.context.store.read { try $0.credential(id: warnedID) }
        #expect(stored?.attestationKeyIdentifier == identifier && stored?.aaguid == Harness.zeroAAGUID)
        try await harness.load(
            [
                MetadataTestAuthority.entry(
                    keyIdentifiers: [identifier],
                    reports: [(.fidoCertifiedL1, "2020-01-01"), (.revoked, "2026-01-01")], description: "Old U2F Key",
                    attestationRoots: [ca.root])
            ], serial: 2)
        var warned = try #require(passkeys["warn"])
        #expect(try await harness.logIn(&warned, clientID: "warn").status == 200)
        let events = try await harness.events(.authenticatorReported)
        #expect(events.map(\.reasonCode) == ["warned"])
        #expect(try Harness.detail(try #require(events.first))["authenticator"]?.stringValue == "Old U2F Key")
        var refused = try #require(passkeys["refuse"])
        let response = try await harness.logIn(&refused, clientID: "refuse")
        #expect(response.status == 403 && response.errorCode == "access_denied", "\(response.bodyText)")
        #expect(try response.jsonValue()["error_description"]?.stringValue?.contains("REVOKED") == true)
    }

    @Test("without a report in the current BLOB, refuse lets the login through")
    func refuseWithoutReport() async throws {
        let harness = try Harness(
            clients: """
                [\(Harness.client("refuse", attestation: "none", authenticators: #"{"compromised_at_login": "refuse"}"#))]
                """)
        var passkey = Harness.passkey(aaguid: Harness.otherAAGUID, ca: nil)
        #expect(try await harness.signUp(&passkey, clientID: "refuse").status == 200)
        #expect(try await harness.logIn(&passkey, clientID: "refuse").status == 200)
        try await harness.load([MetadataTestAuthority.entry(aaguid: Harness.otherAAGUID, status: .fidoCertifiedL2)])
        #expect(try await harness.logIn(&passkey, clientID: "refuse").status == 200)
    }

    @Test(
        "POST /me/passkeys: a denied authenticator is refused, no passkey added, authenticator_refused names the user")
    func addPasskey() async throws {
        let harness = try Harness(
            clients: """
                [\(Harness.client("app", attestation: "none", authenticators: #"{"denied_aaguids": ["b2222222-2222-2222-2222-222222222222"]}"#))]
                """)
        var first = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: nil)
        let challenge = try await harness.passkeys.registerChallenge(email: "ada@example.com", clientID: "app")
            .jsonValue()
        let signedUp = await harness.passkeys.token(
            session: try #require(challenge["auth_session"]?.stringValue),
            response: try first.register(try #require(challenge["authn_params_public_key"])),
            audience: TestConfiguration.accountAudience)
        try #require(signedUp.status == 200, "\(signedUp.bodyText)")
        let bearer: HTTPHeaders = [
            "Authorization": "Bearer \(try #require(try signedUp.jsonValue()["access_token"]?.stringValue))"
        ]
        let enrolment = try await harness.passkeys.client.post(
            "/me/passkeys/challenge", json: [String: String](), headers: bearer
        ).jsonValue()
        var second = Harness.passkey(aaguid: Harness.otherAAGUID, ca: nil)
        let body: JSONValue = [
            "auth_session": .string(try #require(enrolment["auth_session"]?.stringValue)),
            "authn_response": try second.register(try #require(enrolment["authn_params_public_key"])),
        ]
        let response = await harness.passkeys.client.post("/me/passkeys", json: body, headers: bearer)
        #expect(response.status == 403, "\(response.bodyText)")
        #expect(response.errorCode == "access_denied")
        let listed = try await harness.passkeys.client.get("/me/passkeys", headers: bearer).jsonValue()
        #expect(listed["passkeys"]?.arrayValue?.count == 1)
        let refused = try await harness.events(.authenticatorRefused)
        #expect(refused.map(\.reasonCode) == ["denied_aaguid"])
        #expect(refused.first?.userID != nil)
        #expect(try await harness.events(.passkeyAdded).map(\.reasonCode) == ["authenticator_refused"])
    }
}
