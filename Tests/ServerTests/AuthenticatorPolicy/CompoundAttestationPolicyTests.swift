import Crypto
import Foundation
import HTTP
import JSON
import Metadata
import SoftwareClient
import Storage
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// A sign-up whose attestation is `compound` (WebAuthn L3 §8.9), through the router: every entry verified, the
/// credential stored with the format `compound`, and a client that requires trusted attestation judging it by its
/// best-trusted entry (docs/authenticator-policy.md).
@Suite("Compound attestation at sign-up")
struct CompoundAttestationPolicyTests {
    typealias Harness = AuthenticatorPolicyHarness

    static func strictClients() -> String {
        "[\(Harness.client("bank", authenticators: #"{"require_trusted_attestation": true}"#))]"
    }

    @Test(
        "an entry that chains to the model's root lets a strict client sign the user up; the credential says compound")
    func trustedEntryAccepted() async throws {
        let ca = try Harness.shared.get().attestationCA(aaguid: Harness.certifiedAAGUID)
        let harness = try Harness(clients: Self.strictClients())
        try await harness.load([
            MetadataTestAuthority.entry(
                aaguid: Harness.certifiedAAGUID, status: .fidoCertifiedL1, attestationRoots: [ca.root])
        ])
        var passkey = Harness.passkey(aaguid: Harness.certifiedAAGUID, ca: ca)
        passkey.attestation = .compound([.packedSelf, passkey.attestation])
        let response = try await harness.signUp(&passkey, clientID: "bank")
        #expect(response.status == 200, "\(response.bodyText)")
        let users = try await harness.passkeys.context.store.read { try $0.users(afterID: nil, limit: 10) }
        let user = try #require(users.first)
        let credentials = try await harness.passkeys.context.store.read { try $0.credentials(userID: user.id) }
        #expect(credentials.map(\.attestationFormat) == ["compound"])
        // The passkey logs in as any other.
        #expect(try await harness.logIn(&passkey, clientID: "bank").status == 200)
    }

    @Test("entries with no trusted path are refused by a strict client, as self attestation alone is")
    func untrustedRefused() async throws {
        let harness = try Harness(clients: Self.strictClients())
        var passkey = Harness.passkey(aaguid: Harness.otherAAGUID, ca: nil)
        passkey.attestation = .compound([.none, .packedSelf])
        let response = try await harness.signUp(&passkey, clientID: "bank")
        try await RegistrationPolicyTests.expectRefused(
            response, harness, reason: "untrusted_attestation", "AAGUID b2222222-2222-2222-2222-222222222222")
    }

    @Test("a malformed compound statement is refused as the ceremony's failure, creating no user")
    func malformedRefused() async throws {
        let harness = try Harness(clients: "[\(Harness.client("app", attestation: "direct"))]")
        var passkey = Harness.passkey(aaguid: Harness.otherAAGUID, ca: nil)
        passkey.attestation = .compound([.packedSelf])
        let response = try await harness.signUp(&passkey, clientID: "app")
        #expect(response.status == 403 && response.errorCode == "invalid_grant", "\(response.bodyText)")
        #expect(try response.jsonValue()["error_description"]?.stringValue == OAuthError.ceremonyDescription)
        #expect(try await harness.userCount() == 0)
        let signups = try await harness.events(.signup)
        #expect(signups.map(\.reasonCode) == ["compound_malformed_statement"])
    }
}
