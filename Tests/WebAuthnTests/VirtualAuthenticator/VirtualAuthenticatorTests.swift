import Crypto
import Foundation
import SoftwareClient
import TestSupport
import Testing
import WebAuthn

/// The TestSupport software authenticator's output verifies with the WebAuthn module's verifiers, for every
/// algorithm and attestation it offers, and each tampering knob trips exactly the check it is meant for.
@Suite("VirtualAuthenticator")
struct VirtualAuthenticatorTests {
    static let origin = "https://localhost"
    static let time = Date(timeIntervalSince1970: 1_800_000_000)

    /// A `/passkey/register` response in Auth0's shape.
    static func registerResponse(challenge: [UInt8] = Array(repeating: 7, count: 32)) -> [UInt8] {
        Array(
            """
            {"authn_params_public_key":{"challenge":"\(Base64URL.encode(challenge))","timeout":60000,
            "rp":{"id":"localhost","name":"passkeyd"},"user":{"id":"\(Base64URL.encode(Array(repeating: 9, count: 32)))",
            "name":"ada@example.com","displayName":"Ada"},"pubKeyCredParams":[{"type":"public-key","alg":-8},
            {"type":"public-key","alg":-7},{"type":"public-key","alg":-257}],
            "authenticatorSelection":{"residentKey":"required","userVerification":"required"}},"auth_session":"s1"}
            """.utf8)
    }

    /// A `/passkey/challenge` response in Auth0's shape.
    static func challengeResponse(challenge: [UInt8] = Array(repeating: 3, count: 32)) -> [UInt8] {
        Array(
            """
            {"authn_params_public_key":{"challenge":"\(Base64URL.encode(challenge))","timeout":60000,"rpId":"localhost",
            "userVerification":"required"},"auth_session":"s2"}
            """.utf8)
    }

    static func registrationVerifier(challenge: [UInt8] = Array(repeating: 7, count: 32)) -> RegistrationVerifier {
        RegistrationVerifier(
            expectations: RegistrationExpectations(
                challenge: challenge, rpID: "localhost", originPolicy: OriginPolicy(allowedOrigins: [origin]),
                userVerificationRequired: true, verificationTime: time))
    }

    static func authenticationVerifier(
        for credential: VirtualCredential, storedSignCount: UInt32
    ) throws -> AuthenticationVerifier {
        AuthenticationVerifier(
            expectations: AuthenticationExpectations(
                challenge: Array(repeating: 3, count: 32), rpID: "localhost",
                originPolicy: OriginPolicy(allowedOrigins: [origin]), userVerificationRequired: true,
                credentialID: credential.id, credentialPublicKey: try COSEKey(bytes: credential.key.coseKeyBytes()),
                storedSignCount: storedSignCount, userHandle: credential.userHandle))
    }

    /// Registers one credential and returns it with the request options of a login.
    static func enrolled(_ algorithm: CredentialAlgorithm = .es256, authenticator: VirtualAuthenticator = .init())
        throws -> VirtualCredential
    {
        let options = try PublicKeyCredentialCreationOptions(json: registerResponse())
        return try authenticator.makeCredential(options: options, origin: origin, algorithm: algorithm).credential
    }

    static func code(_ code: WebAuthnError.Code) -> WebAuthnError { WebAuthnError(code, "") }

    @Test("the register response's options are read as Auth0 documents them", arguments: [true, false])
    func parsesCreationOptions(wrapped: Bool) throws {
        var json = Self.registerResponse()
        if !wrapped {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
            json = Array(try JSONSerialization.data(withJSONObject: try #require(object["authn_params_public_key"])))
        }
        let options = try PublicKeyCredentialCreationOptions(json: json)
        #expect(options.rpID == "localhost")
        #expect(options.userID == Array(repeating: 9, count: 32))
        #expect(options.userName == "ada@example.com")
        #expect(options.algorithms == [-8, -7, -257])
        #expect(options.userVerification == "required")
        #expect(options.residentKey == "required")
        #expect(options.timeout == 60000)
        #expect(options.authSession == (wrapped ? "s1" : nil))
    }

    @Test("the challenge response's options are read as Auth0 documents them")
    func parsesRequestOptions() throws {
        let options = try PublicKeyCredentialRequestOptions(json: Self.challengeResponse())
        #expect(options.challenge == Array(repeating: 3, count: 32))
        #expect(options.rpID == "localhost")
        #expect(options.authSession == "s2")
    }

    @Test(
        "options that are not the documented shape are refused",
        arguments: [
            "[]", "{\"authn_params_public_key\":1}", "{\"challenge\":\"@@\",\"rpId\":\"x\"}", "{\"challenge\":\"AA\"}",
            "{",
        ])
    func refusesMalformedOptions(json: String) {
        #expect(throws: SoftwareClientError(.malformedOptions, "")) {
            try PublicKeyCredentialRequestOptions(json: Array(json.utf8))
        }
    }

    @Test("creation options without pubKeyCredParams are refused")
    func refusesCreationOptionsWithoutAlgorithms() {
        let json = #"{"challenge":"AA","rp":{"id":"x"},"user":{"id":"AA","name":"n"}}"#
        #expect(throws: SoftwareClientError(.malformedOptions, "")) {
            try PublicKeyCredentialCreationOptions(json: Array(json.utf8))
        }
    }

    @Test("with no algorithm asked for, ES256 is chosen when offered, else the first implemented one")
    func choosesAlgorithm() throws {
        var options = try PublicKeyCredentialCreationOptions(json: Self.registerResponse())
        #expect(
            try VirtualAuthenticator().makeCredential(options: options, origin: Self.origin).credential.key
                .algorithm == .es256)
        options.algorithms = [-35, -257, -8]
        #expect(
            try VirtualAuthenticator().makeCredential(options: options, origin: Self.origin).credential.key
                .algorithm == .rs256)
        options.algorithms = [-35]
        #expect(throws: SoftwareClientError(.unsupportedAlgorithm, "")) {
            try VirtualAuthenticator().makeCredential(options: options, origin: Self.origin)
        }
    }

    @Test(
        "registrations verify with RegistrationVerifier",
        arguments: CredentialAlgorithm.allCases, [AttestationChoice.none, .packedSelf])
    func registrationVerifies(algorithm: CredentialAlgorithm, attestation: AttestationChoice) throws {
        let options = try PublicKeyCredentialCreationOptions(json: Self.registerResponse())
        let (credential, response) = try VirtualAuthenticator().makeCredential(
            options: options, origin: Self.origin, algorithm: algorithm, attestation: attestation)
        let verified = try Self.registrationVerifier().verify(try #require(response.registrationResponse))
        #expect(verified.credentialID == credential.id)
        #expect(verified.credentialPublicKey.algorithm.rawValue == algorithm.coseIdentifier)
        #expect(verified.format == (attestation == .none ? "none" : "packed"))
        #expect(verified.attestationType == (attestation == .none ? AttestationType.none : .self))
        #expect(verified.userVerified && verified.backupEligible && verified.backedUp)
        #expect(credential.userHandle == options.userID)
    }

    @Test(
        "assertions verify with AuthenticationVerifier and the counter advances",
        arguments: CredentialAlgorithm.allCases)
    func assertionVerifies(algorithm: CredentialAlgorithm) throws {
        var credential = try Self.enrolled(algorithm)
        let options = try PublicKeyCredentialRequestOptions(json: Self.challengeResponse())
        let response = try VirtualAuthenticator().getAssertion(
            options: options, origin: Self.origin, credential: &credential)
        let verifier = try Self.authenticationVerifier(for: credential, storedSignCount: 0)
        let verified = try verifier.verify(try #require(response.authenticationResponse))
        #expect(verified.newSignCount == 1)
        #expect(credential.signCount == 1)
        #expect(response.userHandle == credential.userHandle)
    }

    @Test("a credential that never counts reports 0 every time")
    func nonCountingCredential() throws {
        var credential = try Self.enrolled(authenticator: VirtualAuthenticator(counterStep: 0))
        let options = try PublicKeyCredentialRequestOptions(json: Self.challengeResponse())
        for _ in 0..<2 {
            let response = try VirtualAuthenticator().getAssertion(
                options: options, origin: Self.origin, credential: &credential)
            let verified = try Self.authenticationVerifier(for: credential, storedSignCount: 0)
                .verify(try #require(response.authenticationResponse))
            #expect(verified.newSignCount == 0)
        }
    }

    @Test("the JSON form carries every member, base64url-encoded, as WebAuthn L3 §5.1.8 names them")
    func jsonForm() throws {
        let options = try PublicKeyCredentialCreationOptions(json: Self.registerResponse())
        var (credential, registration) = try VirtualAuthenticator().makeCredential(
            options: options, origin: Self.origin, attestation: .packedSelf)
        let created = try #require(
            try JSONSerialization.jsonObject(with: Data(registration.toJSON().utf8)) as? [String: Any])
        let createdResponse = try #require(created["response"] as? [String: Any])
        #expect(created["id"] as? String == Base64URL.encode(credential.id))
        #expect(created["rawId"] as? String == Base64URL.encode(credential.id))
        #expect(created["type"] as? String == "public-key")
        #expect((created["clientExtensionResults"] as? [String: Any])?.isEmpty == true)
        #expect(createdResponse["clientDataJSON"] as? String == Base64URL.encode(registration.clientDataJSON))
        #expect(createdResponse["attestationObject"] as? String == registration.attestationObject.map(Base64URL.encode))
        #expect(createdResponse["signature"] == nil)

        registration = try VirtualAuthenticator().getAssertion(
            options: try PublicKeyCredentialRequestOptions(json: Self.challengeResponse()), origin: Self.origin,
            credential: &credential)
        let asserted = try #require(
            try JSONSerialization.jsonObject(with: Data(registration.toJSON().utf8)) as? [String: Any])
        let assertedResponse = try #require(asserted["response"] as? [String: Any])
        #expect(
            assertedResponse["authenticatorData"] as? String == registration.authenticatorData.map(Base64URL.encode))
        #expect(assertedResponse["signature"] as? String == registration.signature.map(Base64URL.encode))
        #expect(assertedResponse["userHandle"] as? String == Base64URL.encode(credential.userHandle))
        #expect(assertedResponse["attestationObject"] == nil)
    }

    @Test("JSON strings are escaped (a tampered type with quotes stays valid JSON)")
    func escapesStrings() throws {
        var credential = try Self.enrolled()
        let response = try VirtualAuthenticator().getAssertion(
            options: try PublicKeyCredentialRequestOptions(json: Self.challengeResponse()), origin: "https://a\"b\\\n",
            credential: &credential, tampering: CeremonyTampering(credentialType: "x\"\u{1}"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(response.toJSON().utf8)) as? [String: Any])
        #expect(object["type"] as? String == "x\"\u{1}")
        let clientData = try #require(
            try JSONSerialization.jsonObject(with: Data(response.clientDataJSON)) as? [String: Any])
        #expect(clientData["origin"] as? String == "https://a\"b\\\n")
    }

    /// Each knob trips the check it names (assertion side).
    static let assertionCases: [(String, CeremonyTampering, WebAuthnError.Code)] = [
        ("wrong type", CeremonyTampering(clientDataType: "webauthn.create"), .typeMismatch),
        ("other challenge", CeremonyTampering(challenge: [1, 2, 3]), .challengeMismatch),
        ("other RP ID", CeremonyTampering(rpID: "example.com"), .rpIDHashMismatch),
        ("UP clear", CeremonyTampering(flags: [.userVerified]), .userPresenceRequired),
        ("UV clear", CeremonyTampering(flags: [.userPresent]), .userVerificationRequired),
        ("counter regression", CeremonyTampering(signCount: 4), .counterNotIncreased),
        ("other userHandle", CeremonyTampering(userHandle: [0xEE]), .userHandleMismatch),
        ("tampered signature", CeremonyTampering(corruptsSignature: true), .badSignature),
        ("id is not rawId", CeremonyTampering(mismatchesID: true), .credentialIDMismatch),
        ("wrong credential type", CeremonyTampering(credentialType: "password"), .credentialTypeMismatch),
    ]

    @Test("each assertion tampering knob trips its check", arguments: 0..<assertionCases.count)
    func assertionTampering(index: Int) throws {
        let (_, tampering, expected) = Self.assertionCases[index]
        var credential = try Self.enrolled()
        let response = try VirtualAuthenticator().getAssertion(
            options: try PublicKeyCredentialRequestOptions(json: Self.challengeResponse()), origin: Self.origin,
            credential: &credential, tampering: tampering)
        let verifier = try Self.authenticationVerifier(for: credential, storedSignCount: 5)
        let assertion = try #require(response.authenticationResponse)
        // The verifier and the relying party's default policy, as the token endpoint runs them (the counter is
        // decided by the policy).
        #expect(throws: Self.code(expected)) { try CeremonyPolicy().evaluate(try verifier.verify(assertion)).get() }
    }

    @Test("a wrong origin is refused")
    func wrongOrigin() throws {
        var credential = try Self.enrolled()
        let response = try VirtualAuthenticator().getAssertion(
            options: try PublicKeyCredentialRequestOptions(json: Self.challengeResponse()),
            origin: "https://evil.example",
            credential: &credential)
        let verifier = try Self.authenticationVerifier(for: credential, storedSignCount: 0)
        let assertion = try #require(response.authenticationResponse)
        #expect(throws: Self.code(.originMismatch)) { try verifier.verify(assertion) }
    }

    @Test("a fixed counter does not move the stored one; a left-out userHandle is left out")
    func fixedCounterAndOmittedHandle() throws {
        var credential = try Self.enrolled()
        let response = try VirtualAuthenticator().getAssertion(
            options: try PublicKeyCredentialRequestOptions(json: Self.challengeResponse()), origin: Self.origin,
            credential: &credential, tampering: CeremonyTampering(signCount: 9, omitsUserHandle: true))
        #expect(credential.signCount == 0)
        #expect(response.userHandle == nil)
        #expect(!response.toJSON().contains("userHandle"))
        let verified = try Self.authenticationVerifier(for: credential, storedSignCount: 0)
            .verify(try #require(response.authenticationResponse))
        #expect(verified.newSignCount == 9)
    }

    /// Each knob trips the check it names (registration side).
    static let registrationCases: [(CeremonyTampering, AttestationChoice, WebAuthnError.Code)] = [
        (CeremonyTampering(clientDataType: "webauthn.get"), .none, .typeMismatch),
        (CeremonyTampering(challenge: [1]), .none, .challengeMismatch),
        (CeremonyTampering(rpID: "example.com"), .none, .rpIDHashMismatch),
        (CeremonyTampering(flags: [.userVerified]), .none, .userPresenceRequired),
        (CeremonyTampering(corruptsSignature: true), .packedSelf, .badSignature),
        (CeremonyTampering(mismatchesID: true), .none, .credentialIDMismatch),
        (CeremonyTampering(credentialType: "password"), .none, .credentialTypeMismatch),
    ]

    @Test("each registration tampering knob trips its check", arguments: 0..<registrationCases.count)
    func registrationTampering(index: Int) throws {
        let (tampering, attestation, expected) = Self.registrationCases[index]
        let options = try PublicKeyCredentialCreationOptions(json: Self.registerResponse())
        let response = try VirtualAuthenticator().makeCredential(
            options: options, origin: Self.origin, attestation: attestation, tampering: tampering
        ).response
        let registration = try #require(response.registrationResponse)
        #expect(throws: Self.code(expected)) { try Self.registrationVerifier().verify(registration) }
    }

    @Test("a rawId other than the attested credential id is refused, after every §7.1 step passed")
    func otherRawID() throws {
        let options = try PublicKeyCredentialCreationOptions(json: Self.registerResponse())
        let (credential, response) = try VirtualAuthenticator().makeCredential(
            options: options, origin: Self.origin, attestation: .packedSelf,
            tampering: CeremonyTampering(rawID: [9, 9, 9]))
        let registration = try #require(response.registrationResponse)
        #expect(registration.rawID == [9, 9, 9])
        #expect(credential.id != [9, 9, 9])
        #expect(throws: Self.code(.credentialIDMismatch)) { try Self.registrationVerifier().verify(registration) }
    }

    @Test("a replayed assertion is the same bytes, so only the relying party's single-use session can refuse it")
    func replayIsIdentical() throws {
        var credential = try Self.enrolled()
        let response = try VirtualAuthenticator().getAssertion(
            options: try PublicKeyCredentialRequestOptions(json: Self.challengeResponse()), origin: Self.origin,
            credential: &credential)
        #expect(response.toJSON() == response.toJSON())
        let verifier = try Self.authenticationVerifier(for: credential, storedSignCount: 1)
        let verified = try verifier.verify(try #require(response.authenticationResponse))
        #expect(verified.signatureCounter == .notIncreased(stored: 1, received: 1))
        #expect(throws: Self.code(.counterNotIncreased)) { try CeremonyPolicy().evaluate(verified).get() }
    }
}
