import CBOR
import Crypto

/// The `apple` anonymous attestation statement format (WebAuthn L3 §8.8): Apple's Anonymous
/// Attestation CA issues a one-off certificate (credCert) for the credential key, with the
/// challenge-bound nonce in an extension.
///
/// ```
/// appleStmtFormat = { x5c: [ credCert: bytes, * (caCert: bytes) ] }
/// ```
public struct AppleAttestation: AttestationStatementFormat {
    /// The attestation statement format identifier, "apple".
    public static let identifier = "apple"
    /// The extension of credCert that holds the nonce (WebAuthn L3 §8.8.2 step 4).
    static let nonceExtensionOID = "1.2.840.113635.100.8.2"

    /// Creates the verifier; it has no options.
    public init() {}

    /// Runs the WebAuthn L3 §8.8.2 verification procedure.
    /// - Returns: attestation type AnonCA with trust path `x5c` (credCert first).
    /// - Throws: an `apple…` code naming the first check that failed, or `.missingAttestedCredentialData`.
    public func verify(_ input: AttestationStatementInput) throws(WebAuthnError) -> AttestationStatementResult {
        // Step 1: attStmt is valid CBOR conforming to the syntax above.
        let certificates = try Self.certificates(input.statement)
        guard let credCert = certificates.first else {
            throw WebAuthnError(.appleMalformedStatement, "attStmt.x5c is empty")
        }
        guard let credential = input.authenticatorData.attestedCredentialData else {
            throw WebAuthnError(
                .missingAttestedCredentialData, "apple: authenticator data has no attested credential data")
        }

        // Steps 2–3: nonce = SHA-256(authenticatorData || clientDataHash).
        let nonce = Digest.sha256(input.authenticatorData.rawBytes + input.clientDataHash)

        // Step 4: "Verify that nonce equals the value of the extension with OID 1.2.840.113635.100.8.2 in credCert."
        guard let nonceExtension = credCert.extension(oid: Self.nonceExtensionOID) else {
            throw WebAuthnError(.appleMalformedNonceExtension, "credCert has no extension \(Self.nonceExtensionOID)")
        }
        let certifiedNonce = try Self.nonce(fromExtensionValue: nonceExtension.value)
        guard ConstantTime.equals(certifiedNonce, nonce) else {
            throw WebAuthnError(
                .appleNonceMismatch, "credCert nonce is not SHA-256(authenticatorData || clientDataHash)")
        }

        // Step 5: "Verify that the credential public key equals the Subject Public Key of credCert."
        let certifiedKey: PublicKey
        do {
            certifiedKey = try credCert.publicKey()
        } catch {
            throw WebAuthnError(.applePublicKeyMismatch, "credCert public key does not load: \(error)")
        }
        guard certifiedKey.isSameKey(as: credential.credentialPublicKey.publicKey) else {
            throw WebAuthnError(.applePublicKeyMismatch, "credCert public key differs from the credential key")
        }

        // Step 6: attestation type Anonymization CA, trust path x5c.
        return AttestationStatementResult(type: .anonCA, trustPath: certificates)
    }

    /// Decodes `x5c`: a non-empty array of DER certificates.
    private static func certificates(_ statement: CBORValue) throws(WebAuthnError) -> [Certificate] {
        guard statement.mapEntries != nil else {
            throw WebAuthnError(.appleMalformedStatement, "attStmt is not a map")
        }
        guard let entries = statement[text: "x5c"]?.arrayValue, !entries.isEmpty else {
            throw WebAuthnError(.appleMalformedStatement, "attStmt.x5c is missing, empty or not an array")
        }
        var certificates: [Certificate] = []
        for (index, entry) in entries.enumerated() {
            guard let der = entry.bytesValue else {
                throw WebAuthnError(.appleMalformedStatement, "attStmt.x5c[\(index)] is not bytes")
            }
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw WebAuthnError(.appleInvalidCertificate, "attStmt.x5c[\(index)]: \(error)")
            }
        }
        return certificates
    }

    /// Reads the nonce from the extension value: `SEQUENCE { [1] EXPLICIT OCTET STRING }`
    /// (the shape Apple's Anonymous Attestation CA issues; WebAuthn L3 §8.8.2 step 4, and App Attest's credCert,
    /// which device-key enrolment reads through here).
    public static func nonce(fromExtensionValue value: [UInt8]) throws(WebAuthnError) -> [UInt8] {
        do {
            let sequence = try DERNode.parse(value)
            let elements = try sequence.children()
            guard sequence.hasTag(.universal, DERNode.UniversalTag.sequence), elements.count == 1,
                let tagged = elements.first, tagged.hasTag(.contextSpecific, 1)
            else {
                throw WebAuthnError(.appleMalformedNonceExtension, "nonce extension is not SEQUENCE { [1] … }")
            }
            let inner = try tagged.children()
            guard inner.count == 1, let octets = inner.first else {
                throw WebAuthnError(.appleMalformedNonceExtension, "nonce extension [1] holds \(inner.count) elements")
            }
            return try octets.octetString()
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw WebAuthnError(.appleMalformedNonceExtension, "nonce extension does not parse: \(error)")
        }
    }
}
