import CBOR
import Testing

@testable import WebAuthn

@Suite("NoneAttestation")
struct NoneAttestationTests {
    typealias SA = SoftwareAuthenticator

    func input(_ statement: CBORValue) throws -> AttestationStatementInput {
        let authenticator = try SoftwareAuthenticator()
        return AttestationStatementInput(
            statement: statement, authenticatorData: try AuthenticatorData(bytes: authenticator.registrationData()),
            clientDataHash: Array(repeating: 0, count: 32), verificationTime: SA.verificationTime)
    }

    @Test("an empty attStmt is attestation type none with no trust path")
    func valid() throws {
        let result = try NoneAttestation().verify(try input(.map([])))
        #expect(result.type == .none && result.trustPath.isEmpty)
    }

    @Test("a non-empty attStmt is invalidAttestationStatement")
    func nonEmpty() {
        #expect(throws: code(.invalidAttestationStatement)) {
            try NoneAttestation().verify(try input(.map([CBORMapEntry(key: .text("sig"), value: .bytes([1]))])))
        }
    }
}
