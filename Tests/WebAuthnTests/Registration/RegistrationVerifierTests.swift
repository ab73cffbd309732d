import CBOR
import Crypto
import Testing

@testable import WebAuthn

@Suite("RegistrationVerifier")
struct RegistrationVerifierTests {
    typealias SA = SoftwareAuthenticator
    typealias Flag = SoftwareAuthenticator.Flag
    let authenticator: SoftwareAuthenticator

    init() throws { authenticator = try SoftwareAuthenticator() }

    func verify(
        _ response: RegistrationResponse,
        _ expectations: RegistrationExpectations = SA.registrationExpectations()
    ) throws -> VerifiedRegistration {
        try RegistrationVerifier(expectations: expectations).verify(response)
    }

    func withAttestation(fmt: String = "none", attStmt: CBORValue = .map([]), authData: [UInt8]? = nil) throws
        -> RegistrationResponse
    {
        let object = try SA.attestationObject(
            fmt: fmt, attStmt: attStmt, authData: authData ?? authenticator.registrationData())
        return SA.registration(clientData: SA.clientData(), attestationObject: object)
    }

    @Test("a valid none registration reports every field")
    func valid() throws {
        let verified = try verify(try authenticator.noneRegistration(flags: Flag.up | Flag.uv | Flag.at | Flag.be))
        #expect(verified.credentialID == SA.credentialID)
        #expect(verified.credentialPublicKey.rawBytes == authenticator.coseKeyBytes)
        #expect(verified.credentialPublicKey.algorithm == .es256)
        #expect(verified.signCount == 0)
        #expect(verified.aaguidString == "00000000-0000-0000-0000-000000000000")
        #expect(verified.format == "none")
        #expect(verified.attestationType == AttestationType.none)
        #expect(verified.trustPath.isEmpty && verified.attestationTrust == .noAttestation)
        #expect(verified.userVerified && verified.backupEligible && !verified.backedUp)
        #expect(verified.transports == ["internal"])
    }

    @Test("a credential type other than public-key is credentialTypeMismatch")
    func credentialType() throws {
        let valid = try authenticator.noneRegistration()
        let response = SA.registration(
            clientData: valid.clientDataJSON, attestationObject: valid.attestationObject, type: "password")
        #expect(throws: code(.credentialTypeMismatch)) { try verify(response) }
    }

    @Test("an id that is not base64url(rawId) is credentialIDMismatch")
    func idMismatch() throws {
        let valid = try authenticator.noneRegistration()
        let response = SA.registration(
            clientData: valid.clientDataJSON, attestationObject: valid.attestationObject, id: "AAAA")
        #expect(throws: code(.credentialIDMismatch)) { try verify(response) }
    }

    @Test("a rawId other than the attested credential ID is credentialIDMismatch (the record is keyed on it)")
    func rawIDMismatch() throws {
        let valid = try authenticator.noneRegistration()
        let response = SA.registration(
            clientData: valid.clientDataJSON, attestationObject: valid.attestationObject, rawID: [9, 9, 9])
        #expect(throws: code(.credentialIDMismatch)) { try verify(response) }
        let attested = try verify(valid).credentialID
        let same = SA.registration(
            clientData: valid.clientDataJSON, attestationObject: valid.attestationObject, rawID: attested)
        #expect(try verify(same).credentialID == attested)
    }

    @Test("an id is base64url(rawId): padding, + or / or whitespace name no credential")
    func nonCanonicalID() throws {
        let valid = try authenticator.noneRegistration()
        let attested = try verify(valid).credentialID
        let canonical = Base64URL.encode(attested)
        func response(id: String?) -> RegistrationResponse {
            SA.registration(
                clientData: valid.clientDataJSON, attestationObject: valid.attestationObject, rawID: attested, id: id)
        }
        #expect(response(id: nil).id == canonical)
        _ = try verify(response(id: canonical))
        let respelled = [canonical + "=", canonical + "==", " " + canonical, "+" + canonical.dropFirst()]
        for id in respelled where id != canonical {
            let other = response(id: id)
            #expect(throws: code(.credentialIDMismatch)) { try verify(other) }
        }
        // The attested id's last character with every unused bit set: the same bytes (RFC 4648 §3.5), as rawId
        // is read; the signature-bearing bytes are what is verified, not their spelling.
        let respelledID = settingUnusedBits(canonical)
        try #require(respelledID != canonical, "the credential id must leave unused bits")
        _ = try verify(response(id: respelledID))
    }

    @Test("§7.1 step 7: webauthn.get client data is typeMismatch")
    func typeMismatch() throws {
        let valid = try authenticator.noneRegistration()
        let response = SA.registration(
            clientData: SA.clientData(type: "webauthn.get"), attestationObject: valid.attestationObject)
        #expect(throws: code(.typeMismatch)) { try verify(response) }
    }

    @Test("§7.1 step 8: another challenge is challengeMismatch")
    func challengeMismatch() throws {
        #expect(throws: code(.challengeMismatch)) {
            try verify(try authenticator.noneRegistration(), SA.registrationExpectations(challenge: [1]))
        }
    }

    @Test("§7.1 step 9: another origin is originMismatch")
    func originMismatch() throws {
        let valid = try authenticator.noneRegistration()
        let response = SA.registration(
            clientData: SA.clientData(origin: "https://example.com.evil"), attestationObject: valid.attestationObject)
        #expect(throws: code(.originMismatch)) { try verify(response) }
    }

    @Test("§7.1 step 12: an attestation object that is not CBOR is malformedAttestationObject")
    func attestationNotCBOR() {
        let response = SA.registration(clientData: SA.clientData(), attestationObject: [0xA3, 0x63])
        #expect(throws: code(.malformedAttestationObject)) { try verify(response) }
    }

    @Test("§7.1 step 12: an attestation object that is not a map is malformedAttestationObject")
    func attestationNotMap() throws {
        let response = SA.registration(
            clientData: SA.clientData(), attestationObject: try CBOREncoder.encode(.array([])))
        #expect(throws: code(.malformedAttestationObject)) { try verify(response) }
    }

    @Test("§7.1 step 12: a missing fmt is malformedAttestationObject")
    func missingFmt() throws {
        let object = try CBOREncoder.encode(
            .map([
                CBORMapEntry(key: .text("attStmt"), value: .map([])),
                CBORMapEntry(key: .text("authData"), value: .bytes(authenticator.registrationData())),
            ]))
        #expect(throws: code(.malformedAttestationObject)) {
            try verify(SA.registration(clientData: SA.clientData(), attestationObject: object))
        }
    }

    @Test("§7.1 step 12: an attStmt that is neither a map nor an array is malformedAttestationObject")
    func attStmtNotMap() {
        #expect(throws: code(.malformedAttestationObject)) { try verify(try withAttestation(attStmt: .text("x"))) }
        #expect(throws: code(.malformedAttestationObject)) { try verify(try withAttestation(attStmt: .bytes([]))) }
    }

    @Test("§6.5.4: an array attStmt parses (compound's, §8.9), and a format whose statement is a map refuses it")
    func attStmtArray() {
        #expect(throws: code(.invalidAttestationStatement)) { try verify(try withAttestation(attStmt: .array([]))) }
        #expect(throws: code(.invalidAttestationStatement)) {
            try verify(try withAttestation(fmt: "packed", attStmt: .array([])))
        }
    }

    @Test("§7.1 step 12: authData that is not bytes is malformedAttestationObject")
    func authDataNotBytes() throws {
        let object = try CBOREncoder.encode(
            .map([
                CBORMapEntry(key: .text("fmt"), value: .text("none")),
                CBORMapEntry(key: .text("attStmt"), value: .map([])),
                CBORMapEntry(key: .text("authData"), value: .text("x")),
            ]))
        #expect(throws: code(.malformedAttestationObject)) {
            try verify(SA.registration(clientData: SA.clientData(), attestationObject: object))
        }
    }

    @Test("§7.1 step 13: another RP ID's hash is rpIDHashMismatch")
    func rpIDHash() {
        #expect(throws: code(.rpIDHashMismatch)) {
            try verify(try withAttestation(authData: authenticator.registrationData(rpID: "evil.com")))
        }
    }

    @Test("§7.1 step 14: UP clear is userPresenceRequired")
    func userPresence() {
        #expect(throws: code(.userPresenceRequired)) {
            try verify(try authenticator.noneRegistration(flags: Flag.uv | Flag.at))
        }
    }

    @Test("§7.1 step 15: UV clear when required is userVerificationRequired")
    func userVerification() throws {
        let response = try authenticator.noneRegistration(flags: Flag.up | Flag.at)
        #expect(throws: code(.userVerificationRequired)) {
            try verify(response, SA.registrationExpectations(userVerificationRequired: true))
        }
        #expect(try !verify(response).userVerified)
    }

    @Test("§7.1 step 16: BS without BE is invalidBackupState")
    func backupState() {
        #expect(throws: code(.invalidBackupState)) {
            try verify(try authenticator.noneRegistration(flags: Flag.up | Flag.at | Flag.bs))
        }
    }

    @Test("registration authData without AT is missingAttestedCredentialData")
    func missingAttestedData() {
        #expect(throws: code(.missingAttestedCredentialData)) {
            try verify(try withAttestation(authData: authenticator.authenticatorData()))
        }
    }

    @Test("§7.1 step 19: an algorithm the RP did not offer is algorithmNotAllowed")
    func algorithmNotAllowed() {
        #expect(throws: code(.algorithmNotAllowed)) {
            try verify(
                try authenticator.noneRegistration(), SA.registrationExpectations(allowedAlgorithms: [.edDSA, .rs256]))
        }
    }

    @Test("§7.1 step 21: an unknown fmt is unsupportedAttestationFormat")
    func unsupportedFormat() {
        #expect(throws: code(.unsupportedAttestationFormat)) { try verify(try withAttestation(fmt: "Packed")) }
    }

    @Test("§7.1 step 24: none attestation is reported as a value, refused by the policy only when trust is required")
    func requireTrusted() throws {
        let verified = try verify(try authenticator.noneRegistration())
        #expect(verified.attestationTrust == .noAttestation)
        #expect(throws: code(.untrustedAttestation)) {
            try CeremonyPolicy(requireTrustedAttestation: true).evaluate(verified).get()
        }
        #expect(CeremonyPolicy().evaluate(verified) == .meetsPolicy)
    }

    @Test("every prefix and single-byte flip of a valid attestation object gives a typed error or a value")
    func robustness() throws {
        let valid = try authenticator.noneRegistration()
        let verifier = RegistrationVerifier(expectations: SA.registrationExpectations())
        for length in 0..<valid.attestationObject.count {
            let response = SA.registration(
                clientData: valid.clientDataJSON, attestationObject: Array(valid.attestationObject[..<length]))
            #expect(throws: WebAuthnError.self) { try verifier.verify(response) }
        }
        for offset in valid.attestationObject.indices {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var mutated = valid.attestationObject
                mutated[offset] ^= mask
                _ = try? verifier.verify(SA.registration(clientData: valid.clientDataJSON, attestationObject: mutated))
                _ = try? AttestationObject(bytes: mutated)
            }
        }
    }
}
