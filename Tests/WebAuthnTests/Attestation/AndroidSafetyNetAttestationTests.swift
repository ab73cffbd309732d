import CBOR
import Crypto
import Foundation
import Testing

@testable import WebAuthn

@Suite("android-safetynet attestation (WebAuthn L3 §8.5)")
struct AndroidSafetyNetAttestationTests {
    static let fixtureName = "reg-android-safetynet.verify_attestation_android_safetynet"

    @Test("the recorded SafetyNet ceremony verifies as Basic with the JWS x5c trust path")
    func recordedCeremonyVerifies() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        #expect(fixture.fmt == AndroidSafetyNetAttestation.identifier)
        let result = try AndroidSafetyNetAttestation().verify(fixture.input())
        #expect(result.type == .basic)
        #expect(result.trustPath.count == 3)
    }

    // MARK: statement syntax

    @Test("attStmt that is not a map, or missing or mistyped ver/response, is refused")
    func malformedStatement() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        #expect(code(fixture.input(statement: .null)) == .androidSafetyNetMalformedStatement)
        for key in ["ver", "response"] {
            #expect(
                code(fixture.input(statement: fixture.statement(setting: key, to: nil)))
                    == .androidSafetyNetMalformedStatement)
            #expect(
                code(fixture.input(statement: fixture.statement(setting: key, to: CBORValue(1))))
                    == .androidSafetyNetMalformedStatement)
        }
    }

    @Test("an empty ver is refused")
    func emptyVersion() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        #expect(
            code(fixture.input(statement: fixture.statement(setting: "ver", to: .text(""))))
                == .androidSafetyNetInvalidVersion)
    }

    // MARK: JWS shape

    @Test("a response that is not a compact JWS with JSON header and payload is refused")
    func malformedResponse() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let parts = try jwsParts(fixture)
        let header = Base64URL.encode(Array(#"{"alg":"RS256","x5c":[]}"#.utf8))
        let noX5C = Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8))
        let badPayload = Base64URL.encode(Array(#"{"nonce":"x"}"#.utf8))
        for response in [
            parts[0] + "." + parts[1],
            parts.joined(separator: ".") + ".x",
            "!!!." + parts[1] + "." + parts[2],
            header + "." + parts[1] + "." + parts[2],
            noX5C + "." + parts[1] + "." + parts[2],
            parts[0] + "." + badPayload + "." + parts[2],
        ] {
            #expect(code(input(fixture, response: response)) == .androidSafetyNetMalformedResponse)
        }
    }

    @Test("RFC 7515 §4: a JWS header or payload that repeats a member name is malformed")
    func duplicateMembers() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let parts = try jwsParts(fixture)
        let headerText = try #require(Base64URL.decode(parts[0]).map { String(decoding: $0, as: UTF8.self) })
        let payloadText = try #require(Base64URL.decode(parts[1]).map { String(decoding: $0, as: UTF8.self) })
        let header = Base64URL.encode(Array((headerText.dropLast() + #","alg":"RS256"}"#).utf8))
        let payload = Base64URL.encode(Array((payloadText.dropLast() + #","ctsProfileMatch":true}"#).utf8))
        for response in [header + "." + parts[1] + "." + parts[2], parts[0] + "." + payload + "." + parts[2]] {
            #expect(code(input(fixture, response: response)) == .androidSafetyNetMalformedResponse)
        }
    }

    @Test("a header x5c entry that is not a base64 certificate is refused")
    func invalidCertificate() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let parts = try jwsParts(fixture)
        for entry in ["not base64!", "AAAA"] {
            let header = Base64URL.encode(Array(#"{"alg":"RS256","x5c":["\#(entry)"]}"#.utf8))
            #expect(
                code(input(fixture, response: header + "." + parts[1] + "." + parts[2]))
                    == .androidSafetyNetInvalidCertificate)
        }
    }

    // MARK: signature and signer

    @Test("a JWS whose signature or payload was changed is refused")
    func badSignature() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let parts = try jwsParts(fixture)
        let signature = Base64URL.encode(flipping(try #require(Base64URL.decode(parts[2])), at: 0))
        #expect(
            code(input(fixture, response: parts[0] + "." + parts[1] + "." + signature))
                == .badSignature)
        // A payload re-encoded with ctsProfileMatch false is caught by the signature first.
        let payload = String(decoding: Base64URL.decode(parts[1]) ?? [], as: UTF8.self)
        let forged = Base64URL.encode(
            Array(payload.replacingOccurrences(of: "\"ctsProfileMatch\":true", with: "\"ctsProfileMatch\":false").utf8))
        #expect(
            code(input(fixture, response: parts[0] + "." + forged + "." + parts[2]))
                == .badSignature)
    }

    @Test("a JWS alg other than RS256/ES256 is refused")
    func unsupportedAlgorithm() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let parts = try jwsParts(fixture)
        let header = String(decoding: Base64URL.decode(parts[0]) ?? [], as: UTF8.self)
        let hs256 = Base64URL.encode(Array(header.replacingOccurrences(of: "\"RS256\"", with: "\"HS256\"").utf8))
        #expect(
            code(input(fixture, response: hs256 + "." + parts[1] + "." + parts[2]))
                == .unsupportedAlgorithm)
        let es256 = Base64URL.encode(Array(header.replacingOccurrences(of: "\"RS256\"", with: "\"ES256\"").utf8))
        #expect(
            code(input(fixture, response: es256 + "." + parts[1] + "." + parts[2])) == .badSignature
        )
    }

    @Test("an ES256 JWS signed by a self-made attest.android.com certificate verifies")
    func selfMadeES256() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let response = try selfMadeJWS(fixture, certificate: AndroidSafetyNetTestVectors.safetyNetAttestHost)
        #expect(try AndroidSafetyNetAttestation().verify(input(fixture, response: response)).type == .basic)
    }

    @Test("an ES256 signature that is not 64 bytes of R || S is refused")
    func shortES256Signature() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let response = try selfMadeJWS(fixture, certificate: AndroidSafetyNetTestVectors.safetyNetAttestHost)
        // 61 bytes, spelled canonically (the JWS's base64url has one spelling).
        let parts = response.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let signature = try #require(Base64URL.decode(parts[2]))
        let short = parts[0] + "." + parts[1] + "." + Base64URL.encode(signature.dropLast(3))
        #expect(code(input(fixture, response: short)) == .badSignature)
    }

    @Test("RFC 7515 §2: a JWS part padded or with non-zero unused bits is malformed, not a second spelling")
    func oneSpelling() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let response = try selfMadeJWS(fixture, certificate: AndroidSafetyNetTestVectors.safetyNetAttestHost)
        var parts = response.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        // The 64-byte ES256 signature is 86 characters: its last one has 4 unused bits.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(parts[2].last.flatMap { alphabet.firstIndex(of: $0) })
        let signature = parts[2]
        let unusedBitSet = String(signature.dropLast()) + String(alphabet[last | 1])
        for respelled in [signature + "=", signature + "==", unusedBitSet] {
            parts[2] = respelled
            #expect(
                code(input(fixture, response: parts.joined(separator: "."))) == .androidSafetyNetMalformedResponse,
                "\(respelled.suffix(4))")
        }
    }

    @Test("a signing certificate not issued to attest.android.com is refused")
    func hostnameMismatch() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let response = try selfMadeJWS(fixture, certificate: AndroidSafetyNetTestVectors.safetyNetOtherHost)
        #expect(code(input(fixture, response: response)) == .androidSafetyNetHostnameMismatch)
    }

    // MARK: payload

    @Test("a nonce that is not base64(SHA-256(authData || clientDataHash)) is refused")
    func nonceMismatch() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        // clientDataHash is bound only through the nonce: the recorded JWS stays valid.
        #expect(
            code(fixture.input(clientDataHash: flipping(fixture.clientDataHash, at: 3)))
                == .androidSafetyNetNonceMismatch)
        // The nonce must be padded standard base64, not base64url.
        let nonce = Base64URL.encode(Digest.sha256(fixture.authenticatorData.rawBytes + fixture.clientDataHash))
        let response = try selfMadeJWS(
            fixture, certificate: AndroidSafetyNetTestVectors.safetyNetAttestHost, nonce: nonce)
        #expect(code(input(fixture, response: response)) == .androidSafetyNetNonceMismatch)
    }

    @Test("ctsProfileMatch false is refused")
    func ctsProfileMismatch() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let response = try selfMadeJWS(
            fixture, certificate: AndroidSafetyNetTestVectors.safetyNetAttestHost, ctsProfileMatch: false)
        #expect(code(input(fixture, response: response)) == .androidSafetyNetCTSProfileMismatch)
    }

    @Test("timestampMs outside [time - 60 s, time + 5 s] is refused; the window is configurable")
    func timestampWindow() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let later = fixture.verificationTime.addingTimeInterval(61)
        #expect(code(fixture.input(verificationTime: later)) == .androidSafetyNetTimestampOutOfRange)
        let earlier = fixture.verificationTime.addingTimeInterval(-6)
        #expect(code(fixture.input(verificationTime: earlier)) == .androidSafetyNetTimestampOutOfRange)
        #expect(code(fixture.input(verificationTime: fixture.verificationTime.addingTimeInterval(59))) == nil)
        let lenient = AndroidSafetyNetAttestation(configuration: .init(maximumAge: .seconds(3600)))
        #expect(code(fixture.input(verificationTime: later), lenient) == nil)
    }

    // MARK: helpers

    private func code(
        _ input: AttestationStatementInput,
        _ format: AndroidSafetyNetAttestation = AndroidSafetyNetAttestation()
    ) -> WebAuthnError.Code? {
        errorCode { () throws(WebAuthnError) in _ = try format.verify(input) }
    }

    private func jwsParts(_ fixture: RecordedAttestation) throws -> [String] {
        let response = try #require(String(bytes: try fixture.bytes("response"), encoding: .utf8))
        let parts = response.components(separatedBy: ".")
        try #require(parts.count == 3)
        return parts
    }

    private func input(_ fixture: RecordedAttestation, response: String) -> AttestationStatementInput {
        fixture.input(statement: fixture.statement(setting: "response", to: .bytes(Array(response.utf8))))
    }

    /// A compact JWS for `fixture`'s authData and clientDataHash, ES256-signed by the self-made key.
    private func selfMadeJWS(
        _ fixture: RecordedAttestation,
        certificate: [UInt8],
        nonce: String? = nil,
        ctsProfileMatch: Bool = true
    ) throws -> String {
        let expectedNonce = Data(Digest.sha256(fixture.authenticatorData.rawBytes + fixture.clientDataHash))
            .base64EncodedString()
        let timestamp = Int64(fixture.verificationTime.timeIntervalSince1970 * 1000)
        let header = #"{"alg":"ES256","x5c":["\#(Data(certificate).base64EncodedString())"]}"#
        let payload =
            #"{"nonce":"\#(nonce ?? expectedNonce)","timestampMs":\#(timestamp),"#
            + #""ctsProfileMatch":\#(ctsProfileMatch),"basicIntegrity":true}"#
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        let key = try P256SigningKey(pkcs8DERRepresentation: AndroidSafetyNetTestVectors.safetyNetKey)
        let der = try key.signature(for: Array(signingInput.utf8))
        let raw = try ECDSASignature.rawRepresentation(fromDER: der, curve: .p256)
        return signingInput + "." + Base64URL.encode(raw)
    }
}
