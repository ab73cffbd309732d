import CBOR
import Crypto

/// A software authenticator plus the client around it: turns the server's options into the PublicKeyCredential
/// a platform would return, with every byte under the test's control (flags, counter, algorithm, attestation,
/// and the defects of `CeremonyTampering`). Not for production: keys live in memory.
public struct VirtualAuthenticator: Sendable {
    /// The AAGUID written into attested credential data.
    public var aaguid: [UInt8]
    /// The flags of every ceremony (AT is added to registrations).
    public var flags: AuthenticatorFlags
    /// Counter growth per assertion given to new credentials (0: never counts, like synced passkeys).
    public var counterStep: UInt32
    /// `authenticatorAttachment` reported, nil to leave it out.
    public var attachment: String?
    /// `transports` reported on registration.
    public var transports: [String]
    /// Length of new credential IDs in bytes.
    public var credentialIDLength: Int

    /// Creates an authenticator; the defaults describe a synced platform passkey that counts.
    public init(
        aaguid: [UInt8] = Array(repeating: 0, count: 16), flags: AuthenticatorFlags = .passkey, counterStep: UInt32 = 1,
        attachment: String? = "platform", transports: [String] = ["hybrid", "internal"], credentialIDLength: Int = 16
    ) {
        self.aaguid = aaguid
        self.flags = flags
        self.counterStep = counterStep
        self.attachment = attachment
        self.transports = transports
        self.credentialIDLength = credentialIDLength
    }

    /// Creates a credential for `options` (WebAuthn L3 §6.3.2 authenticatorMakeCredential) and returns it with the
    /// registration the client would post.
    /// - Parameters:
    ///   - algorithm: the key type; nil picks ES256 when offered, else the first offered algorithm implemented here.
    ///     An algorithm that was not offered is used anyway (so tests can send one the server must refuse).
    ///   - origin: the origin written into `clientDataJSON`.
    public func makeCredential(
        options: PublicKeyCredentialCreationOptions, origin: String, algorithm: CredentialAlgorithm? = nil,
        attestation: AttestationChoice = .none, tampering: CeremonyTampering = .none
    ) throws(SoftwareClientError) -> (credential: VirtualCredential, response: PublicKeyCredential) {
        let chosen: CredentialAlgorithm
        if let algorithm { chosen = algorithm } else { chosen = try Self.preferredAlgorithm(options.algorithms) }
        let key = try CredentialSigningKey(generating: chosen)
        let credentialID: [UInt8]
        do {
            credentialID = try tampering.reusedCredentialID ?? SecureRandom.bytes(count: credentialIDLength)
        } catch {
            throw SoftwareClientError(.internalFailure, "drawing a credential ID: \(error)")
        }
        let credential = VirtualCredential(
            id: credentialID, key: key, rpID: options.rpID, userHandle: options.userID, signCount: 0,
            counterStep: counterStep)
        let clientData = Self.clientDataJSON(
            type: tampering.clientDataType ?? "webauthn.create", challenge: tampering.challenge ?? options.challenge,
            origin: origin, challengeText: tampering.challengeText)
        // WebAuthn L3 §6.5.1: attestedCredentialData = aaguid(16) credentialIdLength(2) credentialId credentialPublicKey
        var attested = aaguid
        attested += [UInt8(truncatingIfNeeded: credentialID.count >> 8), UInt8(truncatingIfNeeded: credentialID.count)]
        attested += credentialID
        attested += try key.coseKeyBytes()
        let authData = Self.authenticatorData(
            rpID: tampering.rpID ?? options.rpID,
            flags: (tampering.flags ?? flags).union(.attestedCredentialData),
            signCount: tampering.signCount ?? 0, attestedCredentialData: attested)
        let (format, statement) = try Self.statement(
            attestation, key: key, algorithm: chosen, signedData: authData + Digest.sha256(clientData),
            tampering: tampering)
        let attestationObject: [UInt8]
        do {
            // WebAuthn L3 §6.5.4: the attestation object is a map of fmt, attStmt and authData.
            attestationObject = try CBOREncoder.encode(
                .map([
                    CBORMapEntry(key: .text("fmt"), value: .text(format)),
                    CBORMapEntry(key: .text("attStmt"), value: statement),
                    CBORMapEntry(key: .text("authData"), value: .bytes(authData)),
                ]))
        } catch {
            throw SoftwareClientError(.internalFailure, "encoding the attestation object: \(error)")
        }
        let reportedID = tampering.rawID ?? credentialID
        let response = PublicKeyCredential(
            id: Self.id(for: reportedID, tampering: tampering), rawID: reportedID,
            type: tampering.credentialType ?? "public-key", authenticatorAttachment: attachment,
            clientDataJSON: clientData, attestationObject: attestationObject, transports: transports,
            authenticatorData: nil, signature: nil, userHandle: nil)
        return (credential, response)
    }

    /// The `fmt` and `attStmt` of `choice` for a credential of `key` (`algorithm`), signing `signedData`
    /// (authenticatorData || clientDataHash).
    private static func statement(
        _ choice: AttestationChoice, key: CredentialSigningKey, algorithm: CredentialAlgorithm, signedData: [UInt8],
        tampering: CeremonyTampering
    ) throws(SoftwareClientError) -> (format: String, statement: CBORValue) {
        switch choice {
        case .none:
            // WebAuthn L3 §8.7: attStmt is an empty map.
            return ("none", .map([]))
        case .packedSelf:
            // WebAuthn L3 §8.2 (self attestation): sig over authenticatorData || clientDataHash by the credential key.
            var signature = try key.signature(for: signedData)
            if tampering.corruptsSignature { flipBit(&signature) }
            return (
                "packed",
                .map([
                    CBORMapEntry(key: .text("alg"), value: CBORValue(algorithm.coseIdentifier)),
                    CBORMapEntry(key: .text("sig"), value: .bytes(signature)),
                ])
            )
        case .packedFull(let identity):
            // WebAuthn L3 §8.2 (full attestation): sig over authenticatorData || clientDataHash by the attestation
            // key, whose certificate chain is x5c, leaf first.
            var signature = try identity.key.signature(for: signedData)
            if tampering.corruptsSignature { flipBit(&signature) }
            return (
                "packed",
                .map([
                    CBORMapEntry(key: .text("alg"), value: CBORValue(identity.key.algorithm.coseIdentifier)),
                    CBORMapEntry(key: .text("sig"), value: .bytes(signature)),
                    CBORMapEntry(key: .text("x5c"), value: .array(identity.certificates.map { .bytes($0) })),
                ])
            )
        case .compound(let choices):
            // WebAuthn L3 §8.9: attStmt is an array of {fmt, attStmt}, one per statement.
            var entries: [CBORValue] = []
            for entry in choices {
                let (format, statement) = try Self.statement(
                    entry, key: key, algorithm: algorithm, signedData: signedData, tampering: tampering)
                entries.append(
                    .map([
                        CBORMapEntry(key: .text("fmt"), value: .text(format)),
                        CBORMapEntry(key: .text("attStmt"), value: statement),
                    ]))
            }
            return ("compound", .array(entries))
        }
    }

    /// Signs an assertion for `options` with `credential` (WebAuthn L3 §6.3.3 authenticatorGetAssertion), advancing
    /// its counter by its `counterStep` unless `tampering.signCount` fixes the reported value.
    public func getAssertion(
        options: PublicKeyCredentialRequestOptions, origin: String, credential: inout VirtualCredential,
        tampering: CeremonyTampering = .none
    ) throws(SoftwareClientError) -> PublicKeyCredential {
        let signCount: UInt32
        if let fixed = tampering.signCount {
            signCount = fixed
        } else {
            credential.signCount &+= credential.counterStep
            signCount = credential.signCount
        }
        let clientData = Self.clientDataJSON(
            type: tampering.clientDataType ?? "webauthn.get", challenge: tampering.challenge ?? options.challenge,
            origin: origin, challengeText: tampering.challengeText)
        let authData = Self.authenticatorData(
            rpID: tampering.rpID ?? options.rpID, flags: tampering.flags ?? flags, signCount: signCount,
            attestedCredentialData: nil)
        // WebAuthn L3 §6.3.3 step 11: the signature is over authenticatorData || SHA-256(clientDataJSON).
        var signature = try credential.key.signature(for: authData + Digest.sha256(clientData))
        if tampering.corruptsSignature { Self.flipBit(&signature) }
        let userHandle: [UInt8]? = tampering.omitsUserHandle ? nil : (tampering.userHandle ?? credential.userHandle)
        return PublicKeyCredential(
            id: Self.id(for: credential.id, tampering: tampering), rawID: credential.id,
            type: tampering.credentialType ?? "public-key", authenticatorAttachment: attachment,
            clientDataJSON: clientData, attestationObject: nil, transports: [], authenticatorData: authData,
            signature: signature, userHandle: userHandle)
    }

    /// ES256 when offered (what platform passkeys use), else the first offered algorithm implemented here.
    static func preferredAlgorithm(_ offered: [Int]) throws(SoftwareClientError) -> CredentialAlgorithm {
        if offered.contains(CredentialAlgorithm.es256.coseIdentifier) { return .es256 }
        for identifier in offered {
            if let algorithm = CredentialAlgorithm(rawValue: identifier) { return algorithm }
        }
        throw SoftwareClientError(.unsupportedAlgorithm, "none of \(offered) is ES256, EdDSA or RS256")
    }

    /// WebAuthn L3 §5.8.1.1: the client data's members in the order the spec's serialisation writes them;
    /// `challengeText`, when given, is written as the challenge instead of base64url(`challenge`).
    static func clientDataJSON(type: String, challenge: [UInt8], origin: String, challengeText: String? = nil)
        -> [UInt8]
    {
        let challengeLiteral = challengeText.map(JSONText.quoted) ?? "\"\(Base64URL.encode(challenge))\""
        let text =
            "{\"type\":\(JSONText.quoted(type)),\"challenge\":\(challengeLiteral),"
            + "\"origin\":\(JSONText.quoted(origin)),\"crossOrigin\":false}"
        return Array(text.utf8)
    }

    /// Authenticator data bytes, WebAuthn L3 §6.1: rpIdHash(32) flags(1) signCount(4, big-endian)
    /// [attestedCredentialData]. Public so tests that build authenticator data by hand share this layout.
    public static func authenticatorData(
        rpID: String, flags: AuthenticatorFlags, signCount: UInt32, attestedCredentialData: [UInt8]?
    ) -> [UInt8] {
        var bytes = Digest.sha256(Array(rpID.utf8))
        bytes.append(flags.rawValue)
        bytes += [
            UInt8(truncatingIfNeeded: signCount >> 24), UInt8(truncatingIfNeeded: signCount >> 16),
            UInt8(truncatingIfNeeded: signCount >> 8), UInt8(truncatingIfNeeded: signCount),
        ]
        if let attestedCredentialData { bytes += attestedCredentialData }
        return bytes
    }

    private static func id(for credentialID: [UInt8], tampering: CeremonyTampering) -> String {
        tampering.mismatchesID ? Base64URL.encode(credentialID.reversed() + [0]) : Base64URL.encode(credentialID)
    }

    /// Flips the lowest bit of the last byte (a DER ECDSA signature stays well-formed, so the check that fails is
    /// the signature check itself).
    private static func flipBit(_ signature: inout [UInt8]) {
        guard let last = signature.indices.last else { return }
        signature[last] ^= 0x01
    }
}
