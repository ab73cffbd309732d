import CBOR
import Crypto
import Foundation
import HTTP

/// A software passkey for the server tests: makes a credential of one algorithm and answers creation and
/// request options in the WebAuthn JSON wire form, with knobs to break exactly one thing.
struct TestAuthenticator: Sendable {
    enum Algorithm: String, CaseIterable, Sendable {
        case es256, edDSA, rs256
    }

    /// Flag bits (WebAuthn L3 §6.1).
    enum Flag {
        static let up: UInt8 = 0x01
        static let uv: UInt8 = 0x04
        static let be: UInt8 = 0x08
        static let bs: UInt8 = 0x10
        static let at: UInt8 = 0x40
    }

    let algorithm: Algorithm
    private let p256: P256SigningKey?
    private let ed25519: Ed25519SigningKey?
    private let rsa: RSASigningKey?
    var credentialID: [UInt8]
    /// The user handle learnt at registration (`user.id` of the creation options).
    var userHandle: [UInt8]?
    var signCount: UInt32 = 0
    var rpID = "example.com"
    var origin = "https://example.com"
    /// Extra flags (BE/BS) set on every response.
    var extraFlags: UInt8 = 0

    init(_ algorithm: Algorithm = .es256) throws {
        self.algorithm = algorithm
        p256 = algorithm == .es256 ? try P256SigningKey() : nil
        ed25519 = algorithm == .edDSA ? try Ed25519SigningKey() : nil
        rsa = algorithm == .rs256 ? try RSASigningKey(bits: 2048) : nil
        credentialID = try SecureRandom.bytes(count: 16)
    }

    /// The credential public key as COSE_Key (RFC 9053 §7.1, RFC 8230 §4).
    var coseKey: [UInt8] {
        let entries: [CBORMapEntry]
        switch algorithm {
        case .es256:
            let key = p256!.publicKey
            entries = [
                CBORMapEntry(key: CBORValue(1), value: CBORValue(2)),
                CBORMapEntry(key: CBORValue(3), value: CBORValue(-7)),
                CBORMapEntry(key: CBORValue(-1), value: CBORValue(1)),
                CBORMapEntry(key: CBORValue(-2), value: .bytes(key.x)),
                CBORMapEntry(key: CBORValue(-3), value: .bytes(key.y)),
            ]
        case .edDSA:
            entries = [
                CBORMapEntry(key: CBORValue(1), value: CBORValue(1)),
                CBORMapEntry(key: CBORValue(3), value: CBORValue(-8)),
                CBORMapEntry(key: CBORValue(-1), value: CBORValue(6)),
                CBORMapEntry(key: CBORValue(-2), value: .bytes(ed25519!.publicKey.rawRepresentation)),
            ]
        case .rs256:
            let key = rsa!.publicKey
            entries = [
                CBORMapEntry(key: CBORValue(1), value: CBORValue(3)),
                CBORMapEntry(key: CBORValue(3), value: CBORValue(-257)),
                CBORMapEntry(key: CBORValue(-1), value: .bytes(key.modulus)),
                CBORMapEntry(key: CBORValue(-2), value: .bytes(key.exponent)),
            ]
        }
        return try! CBOREncoder.encode(.map(entries))
    }

    func sign(_ message: [UInt8]) -> [UInt8] {
        switch algorithm {
        case .es256: try! p256!.signature(for: message)
        case .edDSA: try! ed25519!.signature(for: message)
        case .rs256: try! rsa!.signature(for: message, hash: .sha256, padding: .pkcs1v15)
        }
    }

    static func clientData(type: String, challenge: String, origin: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    /// `rpIdHash(32) flags(1) signCount(4) [attestedCredentialData]`.
    func authenticatorData(flags: UInt8, signCount: UInt32, attested: Bool) -> [UInt8] {
        var bytes = Digest.sha256(Array(rpID.utf8)) + [flags | extraFlags | (attested ? Flag.at : 0)]
        bytes += withUnsafeBytes(of: signCount.bigEndian, Array.init)
        if attested {
            bytes += [UInt8](repeating: 0, count: 16)
            bytes += withUnsafeBytes(of: UInt16(credentialID.count).bigEndian, Array.init) + credentialID + coseKey
        }
        return bytes
    }

    /// Answers `authn_params_public_key` of /passkey/register with a "none" attestation.
    mutating func register(
        _ options: JSONValue, type: String = "webauthn.create", flags: UInt8 = Flag.up | Flag.uv
    ) -> JSONValue {
        let challenge = options["challenge"]?.stringValue ?? ""
        userHandle = options["user"]?["id"]?.stringValue.flatMap { Base64URL.decode($0) }
        let clientData = Self.clientData(type: type, challenge: challenge, origin: origin)
        let attestation = try! CBOREncoder.encode(
            .map([
                CBORMapEntry(key: .text("fmt"), value: .text("none")),
                CBORMapEntry(key: .text("attStmt"), value: .map([])),
                CBORMapEntry(
                    key: .text("authData"),
                    value: .bytes(authenticatorData(flags: flags, signCount: signCount, attested: true))),
            ]))
        let id = Base64URL.encode(credentialID)
        return [
            "id": .string(id), "rawId": .string(id), "type": "public-key",
            "response": [
                "clientDataJSON": .string(Base64URL.encode(clientData)),
                "attestationObject": .string(Base64URL.encode(attestation)),
                "transports": ["internal", "hybrid"],
            ],
        ]
    }

    /// Answers `authn_params_public_key` of /passkey/challenge; the counter advances unless `signCount` is given.
    mutating func assert(
        _ options: JSONValue, type: String = "webauthn.get", flags: UInt8 = Flag.up | Flag.uv, signCount: UInt32? = nil,
        userHandle: [UInt8]?? = .none, tamper: Bool = false
    ) -> JSONValue {
        let challenge = options["challenge"]?.stringValue ?? ""
        if signCount == nil { self.signCount += 1 }
        let clientData = Self.clientData(type: type, challenge: challenge, origin: origin)
        let authData = authenticatorData(flags: flags, signCount: signCount ?? self.signCount, attested: false)
        var signature = sign(authData + Digest.sha256(clientData))
        if tamper { signature[signature.count / 2] ^= 0x01 }
        let handle: [UInt8]? = userHandle ?? self.userHandle
        let id = Base64URL.encode(credentialID)
        return [
            "id": .string(id), "rawId": .string(id), "type": "public-key",
            "response": [
                "clientDataJSON": .string(Base64URL.encode(clientData)),
                "authenticatorData": .string(Base64URL.encode(authData)),
                "signature": .string(Base64URL.encode(signature)),
                "userHandle": handle.map { .string(Base64URL.encode($0)) } ?? .null,
            ],
        ]
    }
}
