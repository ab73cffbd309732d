import CBOR
import Crypto

/// The "packed" attestation statement format (WebAuthn L3 §8.2): either self attestation, signed with
/// the credential key, or basic/AttCA attestation with an `x5c` chain.
///
/// `attStmt = {alg: COSEAlgorithmIdentifier, sig: bytes, ? x5c: [attestnCert: bytes, * (caCert: bytes)]}`
public struct PackedAttestation: AttestationStatementFormat {
    /// "packed".
    public static let identifier = "packed"

    /// Creates the verifier.
    public init() {}

    /// WebAuthn L3 §8.2 verification procedure.
    public func verify(_ input: AttestationStatementInput) throws(WebAuthnError) -> AttestationStatementResult {
        // §8.2 step 1: attStmt conforms to the syntax above.
        guard let algorithmID = input.statement[text: "alg"]?.intValue else {
            throw WebAuthnError(.invalidAttestationStatement, "packed: alg missing or not an integer")
        }
        guard let signature = input.statement[text: "sig"]?.bytesValue else {
            throw WebAuthnError(.invalidAttestationStatement, "packed: sig missing or not bytes")
        }
        guard let algorithm = COSEAlgorithm(rawValue: algorithmID) else {
            throw WebAuthnError(.unsupportedAlgorithm, "packed: alg \(algorithmID)")
        }
        guard let attested = input.authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.missingAttestedCredentialData, "packed: authData has no attested credential")
        }
        let signedData = input.authenticatorData.rawBytes + input.clientDataHash

        if let chain = try AttestationCertificates.parse(input.statement, format: Self.identifier),
            let attestationCertificate = chain.first
        {
            // §8.2 step 2: sig is a signature over authenticatorData || clientDataHash by attestnCert's key.
            let key = try AttestationCertificates.publicKey(of: attestationCertificate, format: Self.identifier)
            guard algorithm.isValidSignature(signature, for: signedData, with: key) else {
                throw WebAuthnError(.badSignature, "packed: x5c signature does not verify")
            }
            // §8.2 step 2: attestnCert meets §8.2.1, and its AAGUID extension (if any) matches authData.
            try PackedCertificateRequirements.check(attestationCertificate, aaguid: attested.aaguid)
            return AttestationStatementResult(type: .basic, trustPath: chain)
        }

        // §8.2 step 3 (self attestation): alg is the credential key's algorithm…
        guard algorithm == attested.credentialPublicKey.algorithm else {
            throw WebAuthnError(
                .invalidAttestationStatement,
                "packed: self attestation alg \(algorithmID) differs from credential alg "
                    + "\(attested.credentialPublicKey.algorithm.rawValue)")
        }
        // …and sig verifies with the credential public key.
        guard attested.credentialPublicKey.isValidSignature(signature, for: signedData) else {
            throw WebAuthnError(.badSignature, "packed: self attestation signature does not verify")
        }
        return AttestationStatementResult(type: .self, trustPath: [])
    }
}
