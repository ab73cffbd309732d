import CBOR
import Crypto
import Foundation
import SoftwareClient
import TestSupport

@testable import WebAuthn

/// A small software authenticator and client for tests: builds valid client data, authenticator data,
/// attestation objects and assertions, so each test can change exactly one thing.
struct SoftwareAuthenticator {
    static let rpID = "example.com"
    static let origin = "https://example.com"
    static let challenge: [UInt8] = Array(repeating: 0x5A, count: 32)
    static let credentialID: [UInt8] = Array(1...16)
    static let userHandle: [UInt8] = [0x75, 0x73, 0x65, 0x72]
    static let verificationTime = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15

    /// Flag bits (WebAuthn L3 §6.1).
    enum Flag {
        static let up = AuthenticatorFlags.userPresent.rawValue
        static let uv = AuthenticatorFlags.userVerified.rawValue
        static let be = AuthenticatorFlags.backupEligible.rawValue
        static let bs = AuthenticatorFlags.backedUp.rawValue
        static let at = AuthenticatorFlags.attestedCredentialData.rawValue
        static let ed = AuthenticatorFlags.extensionData.rawValue
    }

    let key: P256SigningKey

    init() throws {
        key = try P256SigningKey()
    }

    /// The credential key as a COSE_Key map (RFC 9053 §7.1.1), as TestSupport's authenticator writes it.
    var coseKey: CBORValue { CredentialSigningKey.es256(key).coseKey }

    var coseKeyBytes: [UInt8] { (try? CBOREncoder.encode(coseKey)) ?? [] }

    /// clientDataJSON with the given members (nil leaves a member out; `extra` is appended verbatim).
    static func clientData(
        type: String? = "webauthn.create",
        challenge: [UInt8] = challenge,
        origin: String? = origin,
        extra: String = ""
    ) -> [UInt8] {
        var members: [String] = []
        if let type { members.append("\"type\":\"\(type)\"") }
        members.append("\"challenge\":\"\(Base64URL.encode(challenge))\"")
        if let origin { members.append("\"origin\":\"\(origin)\"") }
        if !extra.isEmpty { members.append(extra) }
        return Array("{\(members.joined(separator: ","))}".utf8)
    }

    /// Authenticator data: `rpIdHash(32) flags(1) signCount(4) [attestedCredentialData] [extensions]`.
    func authenticatorData(
        rpID: String = rpID,
        flags: UInt8 = Flag.up | Flag.uv,
        signCount: UInt32 = 0,
        aaguid: [UInt8] = Array(repeating: 0, count: 16),
        credentialID: [UInt8]? = nil,
        credentialKey: [UInt8]? = nil,
        extensions: [UInt8]? = nil
    ) -> [UInt8] {
        var attested: [UInt8]?
        if let credentialID {
            attested =
                aaguid + withUnsafeBytes(of: UInt16(credentialID.count).bigEndian, Array.init) + credentialID
                + (credentialKey ?? coseKeyBytes)
        }
        var bytes = VirtualAuthenticator.authenticatorData(
            rpID: rpID, flags: AuthenticatorFlags(rawValue: flags), signCount: signCount,
            attestedCredentialData: attested)
        if let extensions { bytes += extensions }
        return bytes
    }

    /// Registration authenticator data with AT set.
    func registrationData(
        flags: UInt8 = Flag.up | Flag.uv | Flag.at,
        aaguid: [UInt8] = Array(repeating: 0, count: 16),
        rpID: String = rpID,
        credentialKey: [UInt8]? = nil
    ) -> [UInt8] {
        authenticatorData(
            rpID: rpID, flags: flags, aaguid: aaguid, credentialID: Self.credentialID, credentialKey: credentialKey)
    }

    static func attestationObject(fmt: String, attStmt: CBORValue, authData: [UInt8]) throws -> [UInt8] {
        try CBOREncoder.encode(
            .map([
                CBORMapEntry(key: .text("fmt"), value: .text(fmt)),
                CBORMapEntry(key: .text("attStmt"), value: attStmt),
                CBORMapEntry(key: .text("authData"), value: .bytes(authData)),
            ]))
    }

    /// A packed self-attestation statement over `authData` and `clientData`.
    func packedSelfStatement(authData: [UInt8], clientData: [UInt8], alg: Int = -7) throws -> CBORValue {
        let signature = try key.signature(for: authData + Digest.sha256(clientData))
        return .map([
            CBORMapEntry(key: .text("alg"), value: CBORValue(alg)),
            CBORMapEntry(key: .text("sig"), value: .bytes(signature)),
        ])
    }

    /// A registration response with the given pieces.
    static func registration(
        clientData: [UInt8],
        attestationObject: [UInt8],
        rawID: [UInt8] = credentialID,
        id: String? = nil,
        type: String = "public-key"
    ) -> RegistrationResponse {
        RegistrationResponse(
            id: id ?? Base64URL.encode(rawID), rawID: rawID, type: type, clientDataJSON: clientData,
            attestationObject: attestationObject, transports: ["internal"])
    }

    /// A valid "none" registration.
    func noneRegistration(flags: UInt8 = Flag.up | Flag.uv | Flag.at) throws -> RegistrationResponse {
        let attestation = try Self.attestationObject(
            fmt: "none", attStmt: .map([]), authData: registrationData(flags: flags))
        return Self.registration(clientData: Self.clientData(), attestationObject: attestation)
    }

    static func registrationExpectations(
        challenge: [UInt8] = challenge,
        userVerificationRequired: Bool = false,
        allowedAlgorithms: [COSEAlgorithm] = COSEAlgorithm.allCases,
        trustAnchors: AttestationTrustAnchors = .init()
    ) -> RegistrationExpectations {
        RegistrationExpectations(
            challenge: challenge, rpID: RelyingPartyID(rpID), originPolicy: OriginPolicy(allowedOrigins: [origin]),
            userVerificationRequired: userVerificationRequired, allowedAlgorithms: allowedAlgorithms,
            trustAnchors: trustAnchors, verificationTime: verificationTime)
    }

    /// A valid assertion, signed over `authData || SHA-256(clientData)` unless a signature is given.
    func assertion(
        authData: [UInt8]? = nil,
        clientData: [UInt8] = clientData(type: "webauthn.get"),
        signature: [UInt8]? = nil,
        userHandle: [UInt8]? = userHandle,
        rawID: [UInt8] = credentialID,
        id: String? = nil,
        type: String = "public-key"
    ) throws -> AuthenticationResponse {
        let data = authData ?? authenticatorData(signCount: 5)
        let sig = try signature ?? key.signature(for: data + Digest.sha256(clientData))
        return AuthenticationResponse(
            id: id ?? Base64URL.encode(rawID), rawID: rawID, type: type, clientDataJSON: clientData,
            authenticatorData: data, signature: sig, userHandle: userHandle)
    }

    func authenticationExpectations(
        storedSignCount: UInt32 = 4,
        userVerificationRequired: Bool = false,
        credentialID: [UInt8]? = credentialID,
        storedBackupState: BackupStateResult.Stored? = nil,
        userHandle: [UInt8]? = userHandle
    ) throws -> AuthenticationExpectations {
        AuthenticationExpectations(
            challenge: Self.challenge, rpID: RelyingPartyID(Self.rpID),
            originPolicy: OriginPolicy(allowedOrigins: [Self.origin]),
            userVerificationRequired: userVerificationRequired, credentialID: credentialID,
            credentialPublicKey: try COSEKey(bytes: coseKeyBytes), storedSignCount: storedSignCount,
            storedBackupState: storedBackupState, userHandle: userHandle)
    }
}

/// `#expect(throws:)` matches WebAuthnError by code only.
func code(_ code: WebAuthnError.Code) -> WebAuthnError { WebAuthnError(code, "") }
