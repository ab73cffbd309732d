import CBOR
import Crypto
import Foundation
import Testing
import WebAuthn

// Shared by the four attestation-format test suites of h/attest. (It lives in a TPM-prefixed file because
// those are the test files h/attest owns; the loader is format-neutral.)

/// A recorded registration ceremony from `Fixtures/ceremonies/peers/py_webauthn`, reduced to what an
/// attestation statement format receives.
struct RecordedAttestation {
    /// `fmt` of the attestation object.
    let fmt: String
    /// `attStmt` as received.
    let statement: CBORValue
    /// The parsed authenticator data.
    let authenticatorData: AuthenticatorData
    /// SHA-256 of clientDataJSON.
    let clientDataHash: [UInt8]
    /// The file's `verifyAt`.
    let verificationTime: Date

    /// Loads `Fixtures/ceremonies/peers/py_webauthn/<name>.json`.
    init(_ name: String) throws {
        // Tests/WebAuthnTests/Attestation/<file>.swift → repository root is four levels up.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent("Fixtures/ceremonies/peers/py_webauthn/\(name).json")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        )
        let credential = try #require(json["response"] as? [String: Any])
        let response = try #require(credential["response"] as? [String: Any])
        let clientDataText = try #require(response["clientDataJSON"] as? String)
        let attestationObjectText = try #require(response["attestationObject"] as? String)
        let clientDataJSON = try #require(Base64URL.decode(clientDataText))
        let attestationObject = try #require(Base64URL.decode(attestationObjectText))
        let object = try AttestationObject(bytes: attestationObject)
        fmt = object.format
        statement = object.statement
        authenticatorData = object.authenticatorData
        clientDataHash = Digest.sha256(clientDataJSON)
        let verifyAt = try #require(json["verifyAt"] as? String)
        verificationTime = try #require(ISO8601DateFormatter().date(from: verifyAt))
    }

    /// The input the format verifier receives, optionally with one part replaced.
    func input(
        statement: CBORValue? = nil,
        authenticatorData: AuthenticatorData? = nil,
        clientDataHash: [UInt8]? = nil,
        verificationTime: Date? = nil
    ) -> AttestationStatementInput {
        AttestationStatementInput(
            statement: statement ?? self.statement,
            authenticatorData: authenticatorData ?? self.authenticatorData,
            clientDataHash: clientDataHash ?? self.clientDataHash,
            verificationTime: verificationTime ?? self.verificationTime
        )
    }

    /// `attStmt` with `key` set to `value` (added when absent) or removed when `value` is nil.
    func statement(setting key: String, to value: CBORValue?) -> CBORValue {
        statement.setting(key, to: value)
    }

    /// The bytes of `attStmt[key]`.
    func bytes(_ key: String) throws -> [UInt8] {
        try #require(statement[text: key]?.bytesValue)
    }
}

extension CBORValue {
    /// This map with text key `key` set to `value` (appended when absent) or removed when `value` is nil.
    func setting(_ key: String, to value: CBORValue?) -> CBORValue {
        var entries = mapEntries ?? []
        let index = entries.firstIndex { $0.key == .text(key) }
        switch (index, value) {
        case (let index?, let value?): entries[index] = CBORMapEntry(key: .text(key), value: value)
        case (let index?, nil): entries.remove(at: index)
        case (nil, let value?): entries.append(CBORMapEntry(key: .text(key), value: value))
        case (nil, nil): break
        }
        return .map(entries)
    }
}

/// Authenticator data with no attested credential data (flags UP only): rpIdHash(32) flags(1) signCount(4).
func authenticatorDataWithoutCredential() throws -> AuthenticatorData {
    try AuthenticatorData(bytes: [UInt8](repeating: 0, count: 32) + [0x01, 0, 0, 0, 0])
}

/// `bytes` with the byte at `offset` XOR-ed with 0x01.
func flipping(_ bytes: [UInt8], at offset: Int) -> [UInt8] {
    var copy = bytes
    copy[offset] ^= 0x01
    return copy
}

/// The code `body` throws, nil when it does not throw a WebAuthnError.
func errorCode(_ body: () throws(WebAuthnError) -> Void) -> WebAuthnError.Code? {
    do {
        try body()
        return nil
    } catch {
        return error.code
    }
}
