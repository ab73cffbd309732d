import CBOR
import Crypto
import Testing

@testable import WebAuthn

@Suite("AuthenticatorData")
struct AuthenticatorDataTests {
    typealias SA = SoftwareAuthenticator
    typealias Flag = SoftwareAuthenticator.Flag
    let authenticator: SoftwareAuthenticator

    init() throws { authenticator = try SoftwareAuthenticator() }

    @Test("assertion data parses: hash, flags, counter, nothing else")
    func assertionData() throws {
        let bytes = authenticator.authenticatorData(flags: Flag.up | Flag.be | Flag.bs, signCount: 0x0102_0304)
        let data = try AuthenticatorData(bytes: bytes)
        #expect(data.rawBytes == bytes)
        #expect(data.rpIDHash == Digest.sha256(Array(SA.rpID.utf8)))
        #expect(data.signCount == 0x0102_0304)
        #expect(data.flags.userPresent && !data.flags.userVerified)
        #expect(data.flags.backupEligible && data.flags.backedUp)
        #expect(data.attestedCredentialData == nil && data.extensions == nil)
    }

    @Test("registration data parses the attested credential and finds the key's end")
    func registrationData() throws {
        let extensions = try CBOREncoder.encode(.map([CBORMapEntry(key: .text("credProtect"), value: CBORValue(1))]))
        let bytes = authenticator.authenticatorData(
            flags: Flag.up | Flag.at | Flag.ed, aaguid: Array(0..<16), credentialID: SA.credentialID,
            extensions: extensions)
        let data = try AuthenticatorData(bytes: bytes)
        let attested = try #require(data.attestedCredentialData)
        #expect(attested.aaguid == Array(0..<16))
        #expect(attested.credentialID == SA.credentialID)
        #expect(attested.rawCredentialPublicKey == authenticator.coseKeyBytes)
        #expect(attested.credentialPublicKey.algorithm == .es256)
        #expect(data.extensions?[text: "credProtect"] == CBORValue(1))
    }

    @Test("fewer than 37 bytes is malformedAuthenticatorData")
    func tooShort() {
        let bytes = authenticator.authenticatorData().dropLast()
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: Array(bytes)) }
    }

    @Test("BS without BE is invalidBackupState")
    func backedUpWithoutEligible() {
        let bytes = authenticator.authenticatorData(flags: Flag.up | Flag.bs)
        #expect(throws: code(.invalidBackupState)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("AT set with no attested credential data is malformedAuthenticatorData")
    func atWithoutData() {
        let bytes = authenticator.authenticatorData(flags: Flag.up | Flag.at)
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("attested credential data with AT clear is leftover bytes: malformedAuthenticatorData")
    func dataWithoutAT() {
        let bytes = authenticator.authenticatorData(flags: Flag.up, credentialID: SA.credentialID)
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("credentialIdLength above 1023 is malformedAuthenticatorData")
    func credentialIDTooLong() {
        let bytes = authenticator.authenticatorData(
            flags: Flag.up | Flag.at, credentialID: Array(repeating: 7, count: 1024))
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("a credential ID of exactly 1023 bytes is accepted")
    func credentialIDMaximum() throws {
        let bytes = authenticator.authenticatorData(
            flags: Flag.up | Flag.at, credentialID: Array(repeating: 7, count: 1023))
        #expect(try AuthenticatorData(bytes: bytes).attestedCredentialData?.credentialID.count == 1023)
    }

    @Test("a credential public key that is not CBOR is malformedAuthenticatorData")
    func keyNotCBOR() {
        let bytes = authenticator.authenticatorData(
            flags: Flag.up | Flag.at, credentialID: SA.credentialID, credentialKey: [0xFF])
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("a credential public key that is not a COSE key is malformedCOSEKey")
    func keyNotCOSE() throws {
        let bytes = authenticator.authenticatorData(
            flags: Flag.up | Flag.at, credentialID: SA.credentialID, credentialKey: try CBOREncoder.encode(.map([])))
        #expect(throws: code(.malformedCOSEKey)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("ED set with no extension data is malformedAuthenticatorData")
    func edWithoutData() {
        let bytes = authenticator.authenticatorData(flags: Flag.up | Flag.ed)
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("extensions that are not a map are malformedAuthenticatorData")
    func extensionsNotMap() {
        let bytes = authenticator.authenticatorData(flags: Flag.up | Flag.ed, extensions: [0x01])
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("extensions that are not CBOR are malformedAuthenticatorData")
    func extensionsNotCBOR() {
        let bytes = authenticator.authenticatorData(flags: Flag.up | Flag.ed, extensions: [0xBF])
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("bytes after the extensions are malformedAuthenticatorData")
    func bytesAfterExtensions() {
        let bytes = authenticator.authenticatorData(flags: Flag.up | Flag.ed, extensions: [0xA0, 0x00])
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("every prefix and single-byte flip of valid data gives a value or a WebAuthnError, never a trap")
    func robustness() throws {
        let extensions = try CBOREncoder.encode(.map([CBORMapEntry(key: .text("x"), value: .bool(true))]))
        let valid = authenticator.authenticatorData(
            flags: Flag.up | Flag.at | Flag.ed, credentialID: SA.credentialID, extensions: extensions)
        for length in 0..<valid.count {
            #expect(throws: WebAuthnError.self) { try AuthenticatorData(bytes: Array(valid[..<length])) }
        }
        for offset in valid.indices {
            for mask: UInt8 in [0x01, 0x40, 0x80, 0xFF] {
                var mutated = valid
                mutated[offset] ^= mask
                _ = try? AuthenticatorData(bytes: mutated)
            }
        }
    }
}
