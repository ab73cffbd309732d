import Crypto
import Foundation
import HTTP
import JSON
import Metadata
import SoftwareClient
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// A client's authenticator policy at sign-up (docs/authenticator-policy.md), through the router: the webauthn grant
/// on a `/passkey/register` session, judged against a BLOB of the test MDS. A refusal is 403 `access_denied` naming
/// the authenticator and the reason, creates no user, and records `authenticator_refused` with the sign-up's refusal.
@Suite("Authenticator policy at sign-up")
struct RegistrationPolicyTests {
    typealias Harness = AuthenticatorPolicyHarness

    /// Expects `response` to be the policy's refusal for `reason`, whose description contains `fragment`; no user was
    /// created, and the refusal's write holds `authenticator_refused` and the sign-up's failure.
    static func expectRefused(
        _ response: Response, _ harness: Harness, reason: String, _ fragment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(response.status == 403, "\(response.bodyText)", sourceLocation: sourceLocation)
        #expect(response.errorCode == "access_denied", sourceLocation: sourceLocation)
        let description = try response.jsonValue()["error_description"]?.stringValue ?? ""
        #expect(description.contains(fragment), "\(description)", sourceLocation: sourceLocation)
        #expect(description != OAuthError.ceremonyDescription, sourceLocation: sourceLocation)
        #expect(try await harness.userCount() == 0, "no user is created", sourceLocation: sourceLocation)
        let refused = try await harness.events(.authenticatorRefused)
        #expect(refused.map(\.reasonCode) == [reason], sourceLocation: sourceLocation)
        #expect(refused.first?.clientID != nil && refused.first?.outcome == "failure", sourceLocation: sourceLocation)
        let signups = try await harness.events(.signup)
        #expect(signups.map(\.reasonCode) == ["authenticator_refused"], sourceLocation: sourceLocation)
    }

    @Test(
        "each compromise status refuses the sign-up by default, naming the status and the authenticator",
        arguments: [
            AuthenticatorStatus.userVerificationBypass, .attestationKeyCompromise, .userKeyRemoteCompromise,
            .userKeyPhysicalCompromise, .revoked,
        ])
    func compromised(status: AuthenticatorStatus) async throws {
        let harness = try Harness(clients: "[\(Harness.client("app", attestation: "none"))]")
        try await harness.load([
            MetadataTestAuthority.entry(
                aaguid: Harness.otherAAGUID,
                reports: [(.fidoCertifiedL1, "2020-01-01"), (status, "2021-01-01"), (.updateAvailable, "2022-01-01")],
                description: "Leaky Key")
        ])
        var passkey = Harness.passkey(aaguid: Harness.otherAAGUID, ca: nil)
        let response = try await harness.signUp(&passkey, clientID: "app")
        try await Self.expectRefused(
            response, harness, reason: "compromised", "\"Leaky Key\" (AAGUID b2222222-2222-2222-2222-222222222222)")
        #expect(try response.jsonValue()["error_description"]?.stringValue?.contains(status.rawValue) == true)
        let event = try #require(try await harness.events(.authenticatorRefused).first)
        let detail = try Harness.detail(event)
        #expect(detail["status"]?.stringValue == status.rawValue)
        #expect(detail["aaguid"]?.stringValue == "b2222222-2222-2222-2222-222222222222")
        #expect(detail["authenticator"]?.stringValue == "Leaky Key")
    }

    @Test("a status not yet in effect, or a BLOB that does not know the authenticator, refuses nothing")
    func notYetCompromised() async throws {
        let harness = try Harness(clients: "[\(Harness.client("app", attestation: "none"))]")
        try await harness.load([
            MetadataTestAuthority.entry(aaguid: Harness.otherAAGUID, reports: [(.revoked, "2099-01-01")])
        ])
        var future = Harness.passkey(aaguid: Harness.otherAAGUID, ca: nil)
        #expect(try await harness.signUp(&future, clientID: "app").status == 200)
        var unknown = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: nil)
        #expect(try await harness.signUp(&unknown, clientID: "app", email: "bob@example.com").status == 200)
    }

    @Test("refuse_compromised false accepts a reported authenticator, unless the policy needs its voided attestation")
    func refuseCompromisedOff() async throws {
        let ca = try Harness.shared.get().attestationCA(aaguid: Harness.certifiedAAGUID)
        let harness = try Harness(
            clients: """
                [\(Harness.client("lenient", attestation: "none", authenticators: #"{"refuse_compromised": false}"#)),
                 \(Harness.client("strict", authenticators: #"{"refuse_compromised": false, "require_trusted_attestation": true}"#))]
                """)
        try await harness.load([
            MetadataTestAuthority.entry(aaguid: Harness.otherAAGUID, status: .userVerificationBypass),
            MetadataTestAuthority.entry(
                aaguid: Harness.certifiedAAGUID, status: .attestationKeyCompromise, attestationRoots: [ca.root]),
        ])
        var bypass = Harness.passkey(aaguid: Harness.otherAAGUID, ca: nil)
        #expect(try await harness.signUp(&bypass, clientID: "lenient").status == 200)
        var voided = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: ca)
        let response = try await harness.signUp(&voided, clientID: "strict", email: "bob@example.com")
        #expect(response.status == 403)
        #expect(
            try response.jsonValue()["error_description"]?.stringValue?.contains("ATTESTATION_KEY_COMPROMISE") == true)
    }

    @Test("a certified authenticator whose attestation chains to its statement's root is accepted by a strict client")
    func certifiedAccepted() async throws {
        let ca = try Harness.shared.get().attestationCA(aaguid: Harness.certifiedAAGUID)
        let harness = try Harness(
            clients: """
                [\(Harness.client("bank", authenticators: """
                {"require_trusted_attestation": true, "minimum_certification": "FIDO_CERTIFIED_L2",
                 "allowed_aaguids": ["a1111111-1111-1111-1111-111111111111"]}
                """))]
                """)
        try await harness.load([
            MetadataTestAuthority.entry(
                aaguid: Harness.certifiedAAGUID, status: .fidoCertifiedL2, description: "Bank Key",
                attestationRoots: [ca.root])
        ])
        var passkey = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: ca)
        let response = try await harness.signUp(&passkey, clientID: "bank")
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(try await harness.userCount() == 1)
        #expect(try await harness.events(.authenticatorRefused).isEmpty)
    }

    @Test("minimum_certification: below it, not certified, without metadata or without a trusted attestation: refused")
    func minimumCertification() async throws {
        let authority = try Harness.shared.get()
        let ca = try authority.attestationCA(aaguid: Harness.certifiedAAGUID)
        let uncertified = try authority.attestationCA(aaguid: Harness.otherAAGUID)
        let policy = #"{"minimum_certification": "FIDO_CERTIFIED_L2"}"#
        let cases: [(entries: [JSONValue], passkey: Passkey, reason: String, fragment: String)] = [
            (
                [MetadataTestAuthority.entry(aaguid: Harness.certifiedAAGUID, attestationRoots: [ca.root])],
                Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: ca), "insufficient_certification",
                "it is certified FIDO_CERTIFIED_L1, this client requires FIDO_CERTIFIED_L2"
            ),
            (
                [
                    MetadataTestAuthority.entry(
                        aaguid: Harness.otherAAGUID, status: .notFIDOCertified, attestationRoots: [uncertified.root])
                ],
                Harness.passkey(aaguid: Harness.otherAAGUID, ca: uncertified), "insufficient_certification",
                "it is not FIDO certified"
            ),
            (
                [], Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: ca), "untrusted_attestation",
                "its attestation does not lead to a trusted root, and this client requires FIDO_CERTIFIED_L2"
            ),
            (
                [MetadataTestAuthority.entry(aaguid: Harness.certifiedAAGUID, status: .fidoCertifiedL3)],
                Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: nil), "untrusted_attestation",
                "it sent no attestation"
            ),
        ]
        for (entries, passkey, reason, fragment) in cases {
            let harness = try Harness(clients: "[\(Harness.client("app", authenticators: policy))]")
            try await harness.load(entries)
            var passkey = passkey
            try await Self.expectRefused(
                try await harness.signUp(&passkey, clientID: "app"), harness, reason: reason, fragment)
        }
        // Without metadata for a trusted (extra-root) attestation: no_metadata.
        let pem: String = ca.root.pemText
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-extra-\(UUID()).pem")
        try Data(pem.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let harness = try Harness(
            clients: "[\(Harness.client("app", authenticators: policy))]",
            extra: ["PASSKEYD_PASSKEYS_ATTESTATION_ROOT_FILES": #"["\#(file.path)"]"#])
        try await harness.load([])
        var passkey = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: ca)
        try await Self.expectRefused(
            try await harness.signUp(&passkey, clientID: "app"), harness, reason: "no_metadata",
            "it has no FIDO metadata, and this client requires FIDO_CERTIFIED_L2")
    }

    @Test("allowed_aaguids and denied_aaguids: the AAGUID outside or inside the list is refused, naming the list")
    func lists() async throws {
        let harness = try Harness(
            clients: """
                [\(Harness.client("allow", attestation: "none", authenticators: #"{"allowed_aaguids": ["a1111111-1111-1111-1111-111111111111"]}"#)),
                 \(Harness.client("deny", attestation: "none", authenticators: #"{"denied_aaguids": ["B2222222-2222-2222-2222-222222222222"]}"#))]
                """)
        var other = Harness.passkey(aaguid: Harness.otherAAGUID, ca: nil)
        try await Self.expectRefused(
            try await harness.signUp(&other, clientID: "allow"), harness, reason: "not_allowed_aaguid",
            "The authenticator with AAGUID b2222222-2222-2222-2222-222222222222 is not accepted: it is not in this "
                + "client's allowed authenticators.")
        var listed = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: nil)
        #expect(try await harness.signUp(&listed, clientID: "allow", email: "bob@example.com").status == 200)
        var denied = Harness.passkey(aaguid: Harness.otherAAGUID, ca: nil)
        let response = try await harness.signUp(&denied, clientID: "deny", email: "carol@example.com")
        #expect(response.status == 403)
        #expect(try response.jsonValue()["error_description"]?.stringValue?.contains("denied authenticators") == true)
        var fine = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: nil)
        #expect(try await harness.signUp(&fine, clientID: "deny", email: "dan@example.com").status == 200)
    }

    @Test("require_trusted_attestation: accepted with the AAGUID's root, refused without it, for none and self")
    func requireTrusted() async throws {
        let authority = try Harness.shared.get()
        let ca = try authority.attestationCA(aaguid: Harness.certifiedAAGUID)
        let stranger = try authority.attestationCA(aaguid: Harness.certifiedAAGUID)
        let clients = "[\(Harness.client("app", authenticators: #"{"require_trusted_attestation": true}"#))]"
        let harness = try Harness(clients: clients)
        try await harness.load([
            MetadataTestAuthority.entry(aaguid: Harness.certifiedAAGUID, attestationRoots: [ca.root])
        ])
        var trusted = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: ca)
        #expect(try await harness.signUp(&trusted, clientID: "app").status == 200)

        // Another CA's leaf for the same AAGUID: its chain leads to a root the statement does not list.
        for (index, passkey) in [
            Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: stranger),
            Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: nil),
        ].enumerated() {
            let refusing = try Harness(clients: clients)
            try await refusing.load([
                MetadataTestAuthority.entry(aaguid: Harness.certifiedAAGUID, attestationRoots: [ca.root])
            ])
            var passkey = passkey
            try await Self.expectRefused(
                try await refusing.signUp(&passkey, clientID: "app"), refusing, reason: "untrusted_attestation",
                index == 0 ? "its attestation does not lead to a trusted root" : "it sent no attestation")
        }
        var selfAttested = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: nil)
        selfAttested.attestation = .packedSelf
        let response = try await harness.signUp(&selfAttested, clientID: "app", email: "bob@example.com")
        #expect(try response.jsonValue()["error_description"]?.stringValue?.contains("self attestation") == true)
    }

    @Test("U2F: the all-zero AAGUID's attestation is found, trusted and judged by its certificate's key identifier")
    func keyIdentifier() async throws {
        let ca = try Harness.shared.get().attestationCA(aaguid: Harness.zeroAAGUID)
        let identifier = Hex.encode(ca.leaf.publicKeyIdentifier)
        let clients = "[\(Harness.client("app", authenticators: #"{"require_trusted_attestation": true}"#))]"
        let trusting = try Harness(clients: clients)
        try await trusting.load([
            MetadataTestAuthority.entry(
                keyIdentifiers: [identifier], reports: [(.fidoCertifiedL1, "2020-01-01")], attestationRoots: [ca.root])
        ])
        var passkey = Harness.passkey(aaguid: Harness.zeroAAGUID, ca: ca)
        #expect(try await trusting.signUp(&passkey, clientID: "app").status == 200)

        let revoking = try Harness(clients: clients)
        try await revoking.load([
            MetadataTestAuthority.entry(
                keyIdentifiers: [identifier], reports: [(.revoked, "2020-01-01")],
                description: "Old U2F Key", attestationRoots: [ca.root])
        ])
        var revoked = Harness.passkey(aaguid: Harness.zeroAAGUID, ca: ca)
        try await Self.expectRefused(
            try await revoking.signUp(&revoked, clientID: "app"), revoking, reason: "compromised",
            "\"Old U2F Key\" (AAGUID 00000000-0000-0000-0000-000000000000) is not accepted: its FIDO metadata reports "
                + "REVOKED")
    }

    @Test("passkeys.attestation_root_files: an operator's root makes an attestation trusted without any BLOB")
    func extraRoots() async throws {
        let ca = try Harness.shared.get().attestationCA(aaguid: Harness.certifiedAAGUID)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-extra-\(UUID()).pem")
        try Data(ca.root.pemText.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let clients =
            "[\(Harness.client("corp", attestation: "enterprise", authenticators: #"{"require_trusted_attestation": true}"#))]"
        let harness = try Harness(
            clients: clients, extra: ["PASSKEYD_PASSKEYS_ATTESTATION_ROOT_FILES": #"["\#(file.path)"]"#])
        var passkey = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: ca)
        #expect(try await harness.signUp(&passkey, clientID: "corp").status == 200)
        let without = try Harness(clients: clients)
        var refused = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: ca)
        try await Self.expectRefused(
            try await without.signUp(&refused, clientID: "corp"), without, reason: "untrusted_attestation",
            "its attestation does not lead to a trusted root")
    }

    @Test("the hosted page's sign-up is judged by the same policy: refused, no user, authenticator_refused recorded")
    func hostedSignup() async throws {
        let clients = """
            [{"client_id": "web", "grant_types": ["authorization_code"], "redirect_uris": ["\(HostedHarness.redirectURI)"],
              "authenticators": {"denied_aaguids": ["b2222222-2222-2222-2222-222222222222"]}}]
            """
        let hosted = try HostedHarness(["PASSKEYD_CLIENTS": clients])
        var denied = Harness.passkey(aaguid: Harness.otherAAGUID, ca: nil)
        let refusal = await #expect(throws: OAuthError.self) {
            try await hosted.signUp(&denied, try hosted.issuance())
        }
        #expect(refusal?.kind == .accessDenied && refusal?.logCode == "authenticator_refused")
        #expect(refusal?.clientDescription.contains("denied authenticators") == true)
        #expect(try await hosted.context.store.read { try $0.users(afterID: nil, limit: 10) }.isEmpty)
        #expect(try await hosted.events().filter { $0.kind == "authenticator_refused" }.count == 1)
        var accepted = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: nil)
        _ = try await hosted.signUp(&accepted, email: "bob@example.com", try hosted.issuance())
    }
}
