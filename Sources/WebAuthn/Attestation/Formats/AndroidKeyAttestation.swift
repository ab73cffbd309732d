import CBOR
import Crypto

/// The `android-key` attestation statement format (WebAuthn L3 §8.4): the credential key lives in the
/// Android Keystore, whose attestation certificate (`x5c[0]`) certifies it with a KeyDescription extension.
///
/// ```
/// androidStmtFormat = { alg: COSEAlgorithmIdentifier, sig: bytes, x5c: [ credCert: bytes, * (caCert: bytes) ] }
/// ```
public struct AndroidKeyAttestation: AttestationStatementFormat {
    /// Which authorization lists may vouch for the key's origin and purpose.
    public struct Configuration: Sendable {
        /// When false (the default), only `teeEnforced` counts, as WebAuthn L3 §8.4.2 step 5 says for an
        /// RP that "wants to accept only keys from a trusted execution environment". When true, a
        /// property in `softwareEnforced` is accepted too (the union of both lists).
        public var acceptsSoftwareEnforced: Bool

        /// The defaults: TEE-enforced properties only.
        public init(acceptsSoftwareEnforced: Bool = false) {
            self.acceptsSoftwareEnforced = acceptsSoftwareEnforced
        }
    }

    /// The attestation statement format identifier, "android-key".
    public static let identifier = "android-key"
    /// KM_ORIGIN_GENERATED: the key was generated inside the keystore.
    static let originGenerated = AndroidKeyDescription.originGenerated
    /// KM_PURPOSE_SIGN: the key may sign.
    static let purposeSign = AndroidKeyDescription.purposeSign

    /// The policy this verifier applies.
    public let configuration: Configuration

    /// Creates the verifier with the default configuration (TEE-enforced properties only).
    public init() { self.init(configuration: Configuration()) }

    /// Creates the verifier with `configuration`.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// Runs the WebAuthn L3 §8.4.2 verification procedure.
    /// - Returns: attestation type Basic with trust path `x5c` (credCert first).
    /// - Throws: an `androidKey…` code naming the first check that failed, or the shared `.unsupportedAlgorithm`,
    ///   `.missingAttestedCredentialData`, `.badSignature`.
    public func verify(_ input: AttestationStatementInput) throws(WebAuthnError) -> AttestationStatementResult {
        // Step 1: attStmt is valid CBOR conforming to the syntax above.
        let (alg, sig, certificates, credCert) = try Self.decode(input.statement)
        guard let credential = input.authenticatorData.attestedCredentialData else {
            throw WebAuthnError(
                .missingAttestedCredentialData, "androidKey: authenticator data has no attested credential data")
        }

        // Step 2: "Verify that sig is a valid signature over the concatenation of authenticatorData and
        // clientDataHash using the public key in the first certificate in x5c with the algorithm specified in alg."
        let signedBytes = input.authenticatorData.rawBytes + input.clientDataHash
        guard let certifiedKey = try? credCert.publicKey(),
            alg.isValidSignature(sig, for: signedBytes, with: certifiedKey)
        else {
            throw WebAuthnError(.badSignature, "sig does not verify with x5c[0]'s key")
        }

        // Step 3: "Verify that the public key in the first certificate in x5c matches the
        // credentialPublicKey in the attestedCredentialData in authenticatorData."
        guard certifiedKey.isSameKey(as: credential.credentialPublicKey.publicKey) else {
            throw WebAuthnError(.androidKeyPublicKeyMismatch, "x5c[0]'s key differs from the credential key")
        }

        // Step 4: "Verify that the attestationChallenge field in the attestation certificate extension data
        // is identical to clientDataHash."
        guard let extensionValue = credCert.extension(oid: AndroidKeyDescription.oid)?.value else {
            throw WebAuthnError(.androidKeyMalformedKeyDescription, "x5c[0] has no key description extension")
        }
        // The parser is shared with device-key enrolment (Crypto/X509/AndroidKeyDescription).
        let keyDescription: AndroidKeyDescription
        do {
            keyDescription = try AndroidKeyDescription(extensionValue: extensionValue)
        } catch {
            throw WebAuthnError(.androidKeyMalformedKeyDescription, "key description does not parse: \(error)")
        }
        guard ConstantTime.equals(keyDescription.attestationChallenge, input.clientDataHash) else {
            throw WebAuthnError(.androidKeyChallengeMismatch, "attestationChallenge is not clientDataHash")
        }

        // Step 5: the authorization lists.
        try checkAuthorizationLists(keyDescription)

        // Step 6: attestation type Basic, trust path x5c.
        return AttestationStatementResult(type: .basic, trustPath: certificates)
    }

    /// WebAuthn L3 §8.4.2 step 5.
    func checkAuthorizationLists(_ keyDescription: AndroidKeyDescription) throws(WebAuthnError) {
        // "The AuthorizationList.allApplications field is not present on either authorization list
        // (softwareEnforced nor teeEnforced), since PublicKeyCredential MUST be scoped to the RP ID."
        guard !keyDescription.softwareEnforced.allApplications, !keyDescription.teeEnforced.allApplications else {
            throw WebAuthnError(.androidKeyAllApplications, "an authorization list holds allApplications")
        }
        // "For the following, use only the teeEnforced authorization list if the RP wants to accept only keys
        // from a trusted execution environment, otherwise use the union of teeEnforced and softwareEnforced."
        var lists = [keyDescription.teeEnforced]
        if configuration.acceptsSoftwareEnforced {
            lists.append(keyDescription.softwareEnforced)
        }
        // "The value in the AuthorizationList.origin field is equal to KM_ORIGIN_GENERATED."
        guard lists.contains(where: { $0.origin == Self.originGenerated }) else {
            throw WebAuthnError(.androidKeyOriginNotGenerated, "origin is not KM_ORIGIN_GENERATED")
        }
        // "The value in the AuthorizationList.purpose field is equal to KM_PURPOSE_SIGN." — purpose is a
        // SET OF INTEGER, so it must contain KM_PURPOSE_SIGN.
        guard lists.contains(where: { $0.purposes?.contains(Self.purposeSign) == true }) else {
            throw WebAuthnError(.androidKeyPurposeNotSign, "purpose does not contain KM_PURPOSE_SIGN")
        }
    }

    /// Decodes `alg`, `sig` and a non-empty `x5c` of DER certificates (returned with its first element).
    private static func decode(
        _ statement: CBORValue
    ) throws(WebAuthnError) -> (COSEAlgorithm, [UInt8], [Certificate], Certificate) {
        guard statement.mapEntries != nil else {
            throw WebAuthnError(.androidKeyMalformedStatement, "attStmt is not a map")
        }
        guard let algValue = statement[text: "alg"]?.intValue else {
            throw WebAuthnError(.androidKeyMalformedStatement, "attStmt.alg is missing or not an integer")
        }
        guard let alg = COSEAlgorithm(rawValue: algValue) else {
            throw WebAuthnError(.unsupportedAlgorithm, "attStmt.alg \(algValue) is not supported")
        }
        guard let sig = statement[text: "sig"]?.bytesValue else {
            throw WebAuthnError(.androidKeyMalformedStatement, "attStmt.sig is missing or not bytes")
        }
        guard let entries = statement[text: "x5c"]?.arrayValue, !entries.isEmpty else {
            throw WebAuthnError(.androidKeyMalformedStatement, "attStmt.x5c is missing, empty or not an array")
        }
        var certificates: [Certificate] = []
        for (index, entry) in entries.enumerated() {
            guard let der = entry.bytesValue else {
                throw WebAuthnError(.androidKeyMalformedStatement, "attStmt.x5c[\(index)] is not bytes")
            }
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw WebAuthnError(.androidKeyInvalidCertificate, "attStmt.x5c[\(index)]: \(error)")
            }
        }
        guard let credCert = certificates.first else {
            throw WebAuthnError(.androidKeyMalformedStatement, "attStmt.x5c is empty")
        }
        return (alg, sig, certificates, credCert)
    }
}
