import Configuration
import Foundation
import JSON
import Storage
import WebAuthn

extension CeremonyVerifier {
    /// A verified registration: the credential record to store and whether the authenticator verified the user.
    package struct RegisteredCredential: Sendable {
        package let credential: Credential
        package let userVerified: Bool
    }

    /// WebAuthn L3 §7.1 on `credential` (an attestation, as read from `sent`) against `challenge` for `client` in
    /// `realm` (whose related origins are accepted, `originPolicy(for:realm:)`), then
    /// the ceremony policy, through `verifiedRegistration` (the one place a registration is judged, and recorded in
    /// record mode): the credential record of `userID` it registers. Used by the sign-up and by adding a passkey
    /// (`POST /me/passkeys`). `origins`: the expected origins when not the client's (the hosted page's).
    /// - Throws: the verifier's `WebAuthnError` or the policy's refusal (mapped to 403 `invalid_grant`).
    package func registeredCredential(
        challenge: [UInt8], credential: Result<PublicKeyCredentialJSON, WebAuthnError>, sent: JSONValue,
        client: ClientConfiguration, realm: String, userID: String, now: Date, originPolicy origins: OriginPolicy? = nil
    ) throws -> RegisteredCredential {
        let expectations = RegistrationExpectations(
            challenge: challenge, rpID: relyingPartyID,
            originPolicy: try origins ?? originPolicy(for: client, realm: realm),
            userVerificationRequired: userVerificationRequired(client),
            // §7.1 step 19: only what the creation options offered in pubKeyCredParams.
            allowedAlgorithms: PasskeyAlgorithms.offered, verificationTime: now)
        // The verifier also refuses a rawId other than the attested credential id (the record is keyed on it), so
        // `passkeyd replay` judges a recorded sign-up exactly as the server does. §7.1 step 24: the attestation
        // trust outcome, as the policy decides (reported, not required, by default).
        let verified = try verifiedRegistration(credential, sent: sent, expectations: expectations)
        let credential = Credential(
            credentialID: verified.credentialID, userID: userID, publicKey: verified.credentialPublicKey.rawBytes,
            algorithm: verified.credentialPublicKey.algorithm.rawValue, signCount: verified.signCount,
            uvInitialized: verified.userVerified, backupEligible: verified.backupEligible, backedUp: verified.backedUp,
            transports: verified.transports, aaguid: verified.aaguid, attestationFormat: verified.format,
            createdAt: now, lastUsedAt: now)
        return RegisteredCredential(credential: credential, userVerified: verified.userVerified)
    }
}
