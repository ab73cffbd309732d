import Crypto
import Foundation

/// Verifies an Android Key Attestation certificate chain (`KeyStore.getCertificateChain(alias)`, leaf first) for a
/// device-key enrolment: the chain leads to Google's hardware attestation roots, the leaf certifies the enrolled
/// key, and its key description (Android Key and ID Attestation schema, the parser WebAuthn's `android-key` format
/// uses too) shows a hardware-bound signing key, generated in the keystore, that needs a biometric per use, bound
/// to the server nonce and to the client's app.
public enum AndroidKeyAttestationVerifier {
    /// Runs every check, in order, and says which failed first.
    /// - Throws: a `DeviceKeyError` `attestation…` code.
    public static func verify(chain: [[UInt8]], expecting expected: AndroidKeyAttestationExpectations)
        throws(DeviceKeyError) -> VerifiedPlatformAttestation
    {
        let certificates = try AttestationChain.certificates(chain)
        try AttestationChain.validate(certificates, roots: expected.roots, at: expected.now)
        guard let leaf = certificates.first else { throw DeviceKeyError(.attestationMalformed, "empty chain") }
        guard AttestationChain.certifies(leaf, expected.publicKey) else {
            throw DeviceKeyError(.attestationKeyMismatch, "the leaf certifies another key")
        }
        guard let value = leaf.extension(oid: AndroidKeyDescription.oid)?.value else {
            throw DeviceKeyError(.attestationMalformed, "the leaf has no key description")
        }
        let description: AndroidKeyDescription
        do {
            description = try AndroidKeyDescription(extensionValue: value)
        } catch {
            throw DeviceKeyError(.attestationMalformed, "key description: \(error)")
        }
        guard ConstantTime.equals(description.attestationChallenge, expected.challenge) else {
            throw DeviceKeyError(.attestationChallengeMismatch, "attestationChallenge is not the enrolment nonce")
        }
        // Both the key and the attestation must be hardware-backed: a software attestation proves nothing.
        guard description.keyMintSecurityLevel != .software, description.attestationSecurityLevel != .software else {
            throw DeviceKeyError(.attestationSoftwareLevel, "the key or its attestation is software-backed")
        }
        try checkKeyProperties(description.teeEnforced)
        try checkApplication(description, expecting: expected)
        let level = description.keyMintSecurityLevel == .strongBox ? "strongbox" : "tee"
        return VerifiedPlatformAttestation(
            platform: VerifiedPlatformAttestation.androidKeyAttestation, level: level,
            verifiedBootState: description.teeEnforced.verifiedBootState.map(Self.name))
    }

    /// The hardware-enforced properties: only the TEE/StrongBox list counts (as WebAuthn L3 §8.4.2 step 5 for an
    /// RP that accepts only TEE keys).
    static func checkKeyProperties(_ list: AndroidKeyDescription.AuthorizationList) throws(DeviceKeyError) {
        guard list.purposes?.contains(AndroidKeyDescription.purposeSign) == true else {
            throw DeviceKeyError(.attestationKeyProperties, "purpose does not contain SIGN")
        }
        guard list.origin == AndroidKeyDescription.originGenerated else {
            throw DeviceKeyError(.attestationKeyProperties, "origin is not GENERATED")
        }
        guard !list.allApplications else {
            throw DeviceKeyError(.attestationKeyProperties, "the key is usable by all applications")
        }
        // setUserAuthenticationRequired(true) with setUserAuthenticationParameters(0, AUTH_BIOMETRIC_STRONG): a
        // biometric is needed, and for each use (no timeout).
        guard !list.noAuthRequired, let authType = list.userAuthType,
            authType & AndroidKeyDescription.userAuthBiometric != 0
        else {
            throw DeviceKeyError(.attestationKeyProperties, "the key does not need a biometric")
        }
        guard (list.authTimeout ?? 0) == 0 else {
            throw DeviceKeyError(.attestationKeyProperties, "the key is usable without a biometric per use")
        }
    }

    /// `attestationApplicationId` (in either list: Keystore puts it in softwareEnforced) names the client's package
    /// and one of its signing-certificate digests.
    static func checkApplication(
        _ description: AndroidKeyDescription, expecting expected: AndroidKeyAttestationExpectations
    )
        throws(DeviceKeyError)
    {
        guard let application = description.teeEnforced.applicationID ?? description.softwareEnforced.applicationID
        else {
            throw DeviceKeyError(.attestationWrongApp, "no attestationApplicationId")
        }
        guard application.packageNames.contains(expected.packageName) else {
            throw DeviceKeyError(.attestationWrongApp, "package \(application.packageNames) is not the client's")
        }
        guard
            application.signatureDigests.contains(where: { digest in
                expected.signatureDigests.contains { ConstantTime.equals($0, digest) }
            })
        else {
            throw DeviceKeyError(.attestationWrongSignature, "no signing-certificate digest is the client's")
        }
    }

    /// The wire name of a verified boot state.
    static func name(_ state: AndroidKeyDescription.VerifiedBootState) -> String {
        switch state {
        case .verified: "verified"
        case .selfSigned: "self_signed"
        case .unverified: "unverified"
        case .failed: "failed"
        }
    }
}
