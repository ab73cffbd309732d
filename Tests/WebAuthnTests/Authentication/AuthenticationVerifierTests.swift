import Crypto
import Testing

@testable import WebAuthn

@Suite("AuthenticationVerifier")
struct AuthenticationVerifierTests {
    typealias SA = SoftwareAuthenticator
    typealias Flag = SoftwareAuthenticator.Flag
    let authenticator: SoftwareAuthenticator

    init() throws { authenticator = try SoftwareAuthenticator() }

    func verify(_ response: AuthenticationResponse, _ expectations: AuthenticationExpectations? = nil) throws
        -> VerifiedAssertion
    {
        try AuthenticationVerifier(expectations: expectations ?? authenticator.authenticationExpectations()).verify(
            response)
    }

    @Test("a valid assertion reports the new counter and flags")
    func valid() throws {
        let data = authenticator.authenticatorData(flags: Flag.up | Flag.uv | Flag.be | Flag.bs, signCount: 9)
        let verified = try verify(try authenticator.assertion(authData: data))
        #expect(verified.newSignCount == 9)
        #expect(verified.userVerified && verified.backupEligible && verified.backedUp)
        #expect(verified.credentialID == SA.credentialID)
    }

    @Test("a credential type other than public-key is credentialTypeMismatch")
    func credentialType() {
        #expect(throws: code(.credentialTypeMismatch)) { try verify(try authenticator.assertion(type: "x")) }
    }

    @Test("an id that is not base64url(rawId) is credentialIDMismatch")
    func idMismatch() {
        #expect(throws: code(.credentialIDMismatch)) { try verify(try authenticator.assertion(id: "AAAA")) }
    }

    @Test("§7.2 step 5: a rawId that is not the stored credential is credentialIDMismatch")
    func storedCredential() {
        #expect(throws: code(.credentialIDMismatch)) { try verify(try authenticator.assertion(rawID: [1, 2])) }
    }

    @Test("§7.2 step 6: a userHandle of another user is userHandleMismatch")
    func userHandle() throws {
        #expect(throws: code(.userHandleMismatch)) { try verify(try authenticator.assertion(userHandle: [0x01])) }
        _ = try verify(try authenticator.assertion(userHandle: nil))
    }

    @Test("§7.2 step 10: client data that is not JSON is malformedClientData")
    func clientDataMalformed() {
        #expect(throws: code(.malformedClientData)) { try verify(try authenticator.assertion(clientData: [0x7B])) }
    }

    @Test("§7.2 step 11: webauthn.create client data is typeMismatch")
    func typeMismatch() {
        #expect(throws: code(.typeMismatch)) { try verify(try authenticator.assertion(clientData: SA.clientData())) }
    }

    @Test("§7.2 step 12: another challenge is challengeMismatch")
    func challenge() {
        let clientData = SA.clientData(type: "webauthn.get", challenge: [7, 7])
        #expect(throws: code(.challengeMismatch)) { try verify(try authenticator.assertion(clientData: clientData)) }
    }

    @Test("§7.2 step 13: another origin is originMismatch")
    func origin() {
        let clientData = SA.clientData(type: "webauthn.get", origin: "http://example.com")
        #expect(throws: code(.originMismatch)) { try verify(try authenticator.assertion(clientData: clientData)) }
    }

    @Test("authenticator data that does not parse is malformedAuthenticatorData")
    func authDataMalformed() {
        #expect(throws: code(.malformedAuthenticatorData)) { try verify(try authenticator.assertion(authData: [0x00])) }
    }

    @Test("§7.2 step 15: another RP ID's hash is rpIDHashMismatch")
    func rpIDHash() {
        let data = authenticator.authenticatorData(rpID: "evil.com", signCount: 5)
        #expect(throws: code(.rpIDHashMismatch)) { try verify(try authenticator.assertion(authData: data)) }
    }

    @Test("§7.2 step 16: UP clear is userPresenceRequired")
    func userPresence() {
        let data = authenticator.authenticatorData(flags: Flag.uv, signCount: 5)
        #expect(throws: code(.userPresenceRequired)) { try verify(try authenticator.assertion(authData: data)) }
    }

    @Test("§7.2 step 17: UV clear when required is userVerificationRequired")
    func userVerification() throws {
        let response = try authenticator.assertion(
            authData: authenticator.authenticatorData(flags: Flag.up, signCount: 5))
        #expect(throws: code(.userVerificationRequired)) {
            try verify(response, try authenticator.authenticationExpectations(userVerificationRequired: true))
        }
        #expect(try !verify(response).userVerified)
    }

    @Test("§7.2 step 21: a signature over other bytes is badSignature")
    func badSignature() throws {
        let wrong = try authenticator.key.signature(for: [1, 2, 3])
        #expect(throws: code(.badSignature)) { try verify(try authenticator.assertion(signature: wrong)) }
    }

    @Test("§7.2 step 21: the signature covers the raw clientDataJSON bytes, not a re-serialisation")
    func rawClientData() throws {
        let original = SA.clientData(type: "webauthn.get")
        let data = authenticator.authenticatorData(signCount: 5)
        let signature = try authenticator.key.signature(for: data + Digest.sha256(original))
        let reordered = SA.clientData(type: "webauthn.get", extra: "\"crossOrigin\":false")
        #expect(throws: code(.badSignature)) {
            try verify(try authenticator.assertion(authData: data, clientData: reordered, signature: signature))
        }
    }

    @Test("§7.2 step 22: a counter that did not grow is reported as notIncreased, which the policy refuses")
    func counter() throws {
        let equal = try verify(try authenticator.assertion(authData: authenticator.authenticatorData(signCount: 4)))
        #expect(equal.signatureCounter == .notIncreased(stored: 4, received: 4))
        #expect(throws: code(.counterNotIncreased)) { try CeremonyPolicy().evaluate(equal).get() }
        let lower = try verify(try authenticator.assertion(authData: authenticator.authenticatorData(signCount: 0)))
        #expect(lower.signatureCounter == .notIncreased(stored: 4, received: 0))
        #expect(throws: code(.counterNotIncreased)) { try CeremonyPolicy().evaluate(lower).get() }
        let higher = try verify(try authenticator.assertion(authData: authenticator.authenticatorData(signCount: 5)))
        #expect(higher.signatureCounter == .increased && CeremonyPolicy().evaluate(higher) == .meetsPolicy)
    }

    @Test("§7.2 step 22: stored 0 and received 0 is an authenticator that does not count")
    func counterZero() throws {
        let response = try authenticator.assertion(authData: authenticator.authenticatorData(signCount: 0))
        let zero = try verify(response, try authenticator.authenticationExpectations(storedSignCount: 0))
        #expect(zero.newSignCount == 0 && zero.signatureCounter == .notCounted)
        #expect(CeremonyPolicy().evaluate(zero) == .meetsPolicy)
        let first = try authenticator.assertion(authData: authenticator.authenticatorData(signCount: 1))
        let counted = try verify(first, try authenticator.authenticationExpectations(storedSignCount: 0))
        #expect(counted.newSignCount == 1 && counted.signatureCounter == .increased)
    }

    @Test("§6.1.3: the backup flags are compared with the stored ones and reported; a BE change is refused")
    func backupState() throws {
        let flags = Flag.up | Flag.uv | Flag.be
        let response = try authenticator.assertion(
            authData: authenticator.authenticatorData(flags: flags | Flag.bs, signCount: 5))
        func outcome(_ stored: BackupStateResult.Stored?) throws -> VerifiedAssertion {
            try verify(response, try authenticator.authenticationExpectations(storedBackupState: stored))
        }
        #expect(try outcome(nil).backupState == .notCompared)
        let same = try outcome(BackupStateResult.Stored(backupEligible: true, backedUp: true))
        #expect(same.backupState == .unchanged)
        let backedUp = try outcome(BackupStateResult.Stored(backupEligible: true, backedUp: false))
        #expect(backedUp.backupState == .backedUpChanged(backedUp: true))
        #expect(CeremonyPolicy().evaluate(backedUp) == .meetsPolicy)
        let eligibility = try outcome(BackupStateResult.Stored(backupEligible: false, backedUp: false))
        #expect(eligibility.backupState == .eligibilityChanged(stored: false, received: true))
        #expect(throws: code(.backupEligibilityChanged)) { try CeremonyPolicy().evaluate(eligibility).get() }
    }

    @Test("every prefix and single-byte flip of valid authenticator data is refused with a typed error")
    func robustness() throws {
        let data = authenticator.authenticatorData(signCount: 5)
        let verifier = AuthenticationVerifier(expectations: try authenticator.authenticationExpectations())
        for length in 0..<data.count {
            let response = try authenticator.assertion(authData: Array(data[..<length]), signature: [0x30])
            #expect(throws: WebAuthnError.self) { try verifier.verify(response) }
        }
        for offset in data.indices {
            var mutated = data
            mutated[offset] ^= 0x01
            let response = try authenticator.assertion(authData: data, signature: nil)
            let flipped = AuthenticationResponse(
                id: response.id, rawID: response.rawID, type: response.type, clientDataJSON: response.clientDataJSON,
                authenticatorData: mutated, signature: response.signature, userHandle: response.userHandle)
            #expect(throws: WebAuthnError.self) { try verifier.verify(flipped) }
        }
    }
}
