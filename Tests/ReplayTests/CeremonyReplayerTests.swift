import Crypto
import Replay
import TestSupport
import Testing
import WebAuthn

@Suite("CeremonyReplayer")
struct CeremonyReplayerTests {
    static let paths = FixtureLoader.ceremonyPaths()

    @Test("the fixture folder holds the recorded ceremonies")
    func fixturesFound() {
        #expect(Self.paths.count >= 57)
        // The W3C WebAuthn L3 §16 test vectors: 15 registrations and their authentications, plus variants.
        #expect(Self.paths.filter { $0.hasPrefix("ceremonies/w3c/") }.count >= 30)
    }

    @Test("every recorded ceremony replays as PASS", arguments: paths)
    func replay(path: String) throws {
        let ceremony = try FixtureLoader.ceremony(path)
        let outcome = CeremonyReplayer.replay(ceremony)
        #expect(outcome.passed, "\(outcome) — expected \(outcome.expected), actual \(outcome.actual)")
    }

    /// Each mutation changes one thing; its name says which check must refuse it.
    static let mutationCodes: [String: WebAuthnError.Code] = [
        "wrong-challenge": .challengeMismatch,
        "wrong-origin": .originMismatch,
        "wrong-rpid": .rpIDHashMismatch,
        "flipped-signature-byte": .badSignature,
        "counter-regression": .counterNotIncreased,
        "uv-required-but-absent": .userVerificationRequired,
    ]

    @Test(
        "every mutation is refused by the check it targets",
        arguments: paths.filter { $0.hasPrefix("ceremonies/mutations/") })
    func mutationCode(path: String) throws {
        let ceremony = try FixtureLoader.ceremony(path)
        let stem = path.dropLast(".json".count)
        // A mutation names its code in expect.errorCode, or by the suffix of its name.
        let named = ceremony.expect.errorCode
        let code = try #require(
            named ?? Self.mutationCodes.first { stem.hasSuffix("." + $0.key) }?.value, "unknown mutation")
        let outcome = CeremonyReplayer.replay(ceremony)
        #expect(outcome.errorCode == code, "\(outcome.actual)")
    }

    /// Recordings a relying party (or passkeyd in particular) must refuse, and the check that must refuse each.
    static let knownRefusals: [String: WebAuthnError.Code] = [
        "ceremonies/w3c/none-es256-crossorigin.json": .crossOriginNotAllowed,
        "ceremonies/w3c/none-es256-crossorigin-auth.json": .crossOriginNotAllowed,
        "ceremonies/w3c/none-es256-toporigin.json": .crossOriginNotAllowed,
        "ceremonies/w3c/none-es256-toporigin-auth.json": .crossOriginNotAllowed,
        "ceremonies/w3c/none-es256-toporigin-other-top-origin.json": .topOriginMismatch,
        "ceremonies/w3c/none-es256-toporigin-auth-other-top-origin.json": .topOriginMismatch,
        // The earlier draft of §16.14, whose key description has empty authorization lists.
        "ceremonies/w3c/android-key-es256-superseded.json": .androidKeyOriginNotGenerated,
        // ML-DSA-44 (-48): Debian's OpenSSL 3.0 has no ML-DSA.
        "ceremonies/peers/simplewebauthn/auth.verify_ML-DSA-44_authentication_response.json": .unsupportedAlgorithm,
        // tokenBinding.status "not-supported" (pre-L1 clients): outside {present, supported}.
        "ceremonies/peers/fido2-net-lib/reg-packed.TestAuthenticatorDataParsing.json": .tokenBindingUnsupported,
        // A pre-standard encoder's COSE key (text kty and crv, x outside the map), which webauthn-framework repairs.
        "ceremonies/peers/webauthn-framework/reg-none-eddsa.aPreviouslyFixedKeyCanBeVerified.json": .malformedCOSEKey,
        // An early Security Key's certificate signature is a malformed BIT STRING: no path to the Yubico root.
        "ceremonies/peers/java-webauthn-server/reg-fido-u2f.SecurityKey.yubico-root.json": .untrustedAttestation,
        // A rawId other than the attested credential id: the token endpoint refuses the sign-up, and so does replay.
        "ceremonies/peers/fido2-net-lib/reg-apple.TestAppleAttestationAsync.json": .credentialIDMismatch,
        "ceremonies/peers/go-webauthn/reg-apple.VerifyAppleFormat-success.json": .credentialIDMismatch,
        "ceremonies/peers/webauthn-rs/reg-android-key.google_android_key.json": .credentialIDMismatch,
        // Placeholder rawIds ("bbb", "aaa") in place of the attested credential id.
        "ceremonies/peers/simplewebauthn/reg-packed.verify_Packed_EC2_attestation.json": .credentialIDMismatch,
        "ceremonies/peers/simplewebauthn/reg-packed.verify_Packed_X5C_attestation.json": .credentialIDMismatch,
    ]

    @Test(
        "recordings that must be refused are refused by the check that names why",
        arguments: knownRefusals.keys.sorted())
    func knownRefusal(path: String) throws {
        let outcome = CeremonyReplayer.replay(try FixtureLoader.ceremony(path))
        #expect(outcome.errorCode == Self.knownRefusals[path], "\(outcome.actual)")
    }

    @Test("the W3C vectors that must verify cover every attestation format the spec publishes one for")
    func w3cCoverage() throws {
        let accepted = try Self.paths.filter { $0.hasPrefix("ceremonies/w3c/") }.compactMap { path -> String? in
            let ceremony = try FixtureLoader.ceremony(path)
            guard ceremony.expect.ok, ceremony.ceremony == .registration else { return nil }
            return ceremony.expect.fmt
        }
        #expect(Set(accepted) == ["none", "packed", "tpm", "android-key", "apple", "fido-u2f"])
    }
}
