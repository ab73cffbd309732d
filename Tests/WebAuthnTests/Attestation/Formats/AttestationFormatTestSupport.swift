import CBOR
import Crypto
import Foundation

@testable import WebAuthn

/// Builds attestation statement inputs signed by the test certificates' leaf key.
struct AttestationFixture {
    typealias SA = SoftwareAuthenticator
    let authenticator: SoftwareAuthenticator
    let leafKey: P256SigningKey
    let clientDataHash: [UInt8] = Digest.sha256(SA.clientData())

    init() throws {
        authenticator = try SoftwareAuthenticator()
        leafKey = try P256SigningKey(
            pkcs8DERRepresentation: [UInt8](Data(base64Encoded: TestCertificates.leafPrivateKeyPKCS8)!))
    }

    static func der(_ base64: String) -> [UInt8] { [UInt8](Data(base64Encoded: base64)!) }

    func input(_ statement: CBORValue, authData: [UInt8]) throws -> AttestationStatementInput {
        AttestationStatementInput(
            statement: statement, authenticatorData: try AuthenticatorData(bytes: authData),
            clientDataHash: clientDataHash, verificationTime: SA.verificationTime)
    }

    static func statement(_ entries: [(String, CBORValue?)]) -> CBORValue {
        .map(entries.compactMap { key, value in value.map { CBORMapEntry(key: .text(key), value: $0) } })
    }
}
