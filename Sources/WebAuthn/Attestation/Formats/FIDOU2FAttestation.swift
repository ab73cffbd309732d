import CBOR
import Crypto

/// The "fido-u2f" attestation statement format (WebAuthn L3 §8.6), produced for FIDO U2F authenticators.
///
/// `attStmt = {x5c: [attestnCert: bytes], sig: bytes}`
public struct FIDOU2FAttestation: AttestationStatementFormat {
    /// "fido-u2f".
    public static let identifier = "fido-u2f"

    /// Creates the verifier.
    public init() {}

    /// WebAuthn L3 §8.6 verification procedure.
    public func verify(_ input: AttestationStatementInput) throws(WebAuthnError) -> AttestationStatementResult {
        // §8.6 step 1: attStmt conforms to the syntax above.
        guard let signature = input.statement[text: "sig"]?.bytesValue else {
            throw WebAuthnError(.invalidAttestationStatement, "fido-u2f: sig missing or not bytes")
        }
        guard let chain = try AttestationCertificates.parse(input.statement, format: Self.identifier) else {
            throw WebAuthnError(.invalidAttestationStatement, "fido-u2f: x5c missing")
        }
        // §8.6 step 2: x5c has exactly one element, whose key is an EC public key on P-256.
        guard chain.count == 1, let certificate = chain.first else {
            throw WebAuthnError(.invalidAttestationStatement, "fido-u2f: x5c has \(chain.count) certificates, not 1")
        }
        guard
            case .ec(let certificateKey) = try AttestationCertificates.publicKey(
                of: certificate, format: Self.identifier),
            certificateKey.curve == .p256
        else {
            throw WebAuthnError(.invalidAttestationCertificate, "fido-u2f: certificate key is not EC P-256")
        }
        // §8.6 step 3: rpIdHash, credentialId and credentialPublicKey come from authenticatorData.
        guard let attested = input.authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.missingAttestedCredentialData, "fido-u2f: authData has no attested credential")
        }
        // The AAGUID is not judged: a client fills in zeros for a U2F device, but the §8.6 verification
        // procedure has no step on it, and the W3C's own §16.16 test vector carries a non-zero one.
        // §8.6 step 4: publicKeyU2F = 0x04 || x || y of a P-256 credential key (x, y 32 bytes each).
        guard case .ec(let credentialKey) = attested.credentialPublicKey.publicKey, credentialKey.curve == .p256 else {
            throw WebAuthnError(.invalidAttestationStatement, "fido-u2f: credential key is not EC P-256")
        }
        let publicKeyU2F = credentialKey.x963Representation
        // §8.6 step 5: verificationData = 0x00 || rpIdHash || clientDataHash || credentialId || publicKeyU2F.
        let verificationData: [UInt8] =
            [0x00] + input.authenticatorData.rpIDHash + input.clientDataHash + attested.credentialID + publicKeyU2F
        // §8.6 step 6: sig is an ECDSA SHA-256 signature over verificationData by the certificate key.
        guard certificateKey.isValidSignature(signature, for: verificationData, hash: .sha256) else {
            throw WebAuthnError(.badSignature, "fido-u2f: signature does not verify")
        }
        // §8.6 step 8: attestation type Basic or AttCA; trust path x5c.
        return AttestationStatementResult(type: .basic, trustPath: chain)
    }
}
