import CBOR
import Crypto
import Foundation
import JSON
import Testing

@testable import WebAuthn

/// `COSEKey(bytes:)` reads most keys in place (`CBORIntegerMap`) and the rest through `CBORDecoder`; these tests
/// hold the two paths to the same verdict on every recorded key and on changed copies of them.
@Suite("COSEKey decoding paths")
struct COSEKeyDecodingPathTests {
    /// Every COSE_Key in `Fixtures/ceremonies`: the stored keys of authentications and the attested keys of
    /// registrations whose attestation object parses.
    static let recordedKeys: [[UInt8]] = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ceremonies")
        var keys: Set<[UInt8]> = []
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects ?? []
        for case let url as URL in files where ["json", "jsonl"].contains(url.pathExtension) {
            guard let data = try? Data(contentsOf: url) else { continue }
            let documents =
                url.pathExtension == "json" ? [data] : data.split(separator: UInt8(ascii: "\n")).map { Data($0) }
            for document in documents {
                // The two members of a recording (Fixtures/ceremonies/FORMAT.md) that hold keys, read without the
                // Replay module: WebAuthn's tests stay below it.
                guard let recording = try? JSONValue(parsing: Array(document)) else { continue }
                if let text = recording["credentialPublicKey"]?.stringValue, let key = Base64URL.decode(text) {
                    keys.insert(key)
                }
                if let json = recording["response"],
                    let response = try? PublicKeyCredentialJSON(json: json).registration(),
                    let attested = try? AttestationObject(bytes: response.attestationObject).authenticatorData
                        .attestedCredentialData
                {
                    keys.insert(attested.rawCredentialPublicKey)
                }
            }
        }
        return keys.sorted { $0.lexicographicallyPrecedes($1) }
    }()

    /// The verdict through the general decoder only (what `COSEKey(bytes:)` did before the in-place path).
    static func throughDecoder(_ bytes: [UInt8]) -> Result<COSEKey, WebAuthnError> {
        Result { () throws(WebAuthnError) in
            let value: CBORValue
            do {
                value = try CBORDecoder.decode(bytes)
            } catch {
                throw WebAuthnError(.malformedCOSEKey, "not one CBOR item: \(error)")
            }
            return try COSEKey(cbor: value, raw: bytes)
        }
    }

    /// Whether two verdicts agree: the same algorithm and key, or the same error code.
    static func agree(_ a: Result<COSEKey, WebAuthnError>, _ b: Result<COSEKey, WebAuthnError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            x.algorithm == y.algorithm && x.publicKey == y.publicKey && x.rawBytes == y.rawBytes
        case (.failure(let x), .failure(let y)): x.code == y.code
        default: false
        }
    }

    @Test("the recordings hold keys of every type: EC2, OKP and RSA")
    func recordingsCoverKeyTypes() throws {
        let types = Set(Self.recordedKeys.compactMap { try? COSEKey(bytes: $0).algorithm.keyType })
        #expect(types == [.ec2, .okp, .rsa])
        #expect(Self.recordedKeys.count >= 20)
    }

    @Test("every recorded key, and every copy with one byte changed, gets the same verdict on both paths")
    func pathsAgree() {
        var compared = 0
        for key in Self.recordedKeys {
            var inputs = [key]
            for position in key.indices {
                for mask: UInt8 in [0x01, 0x20, 0x80, 0xFF] {
                    var changed = key
                    changed[position] ^= mask
                    inputs.append(changed)
                }
            }
            for input in inputs {
                let fast = Result { () throws(WebAuthnError) in try COSEKey(bytes: input) }
                #expect(Self.agree(fast, Self.throughDecoder(input)), "\(Base64URL.encode(input))")
                compared += 1
            }
        }
        #expect(compared > 1000)
    }
}
