import Foundation
import Storage
import WebAuthn

extension TokenEndpoint {
    /// A verified registration: the credential record to store and whether the authenticator verified the user.
    struct RegisteredCredential: Sendable {
        let credential: Credential
        let userVerified: Bool
    }

    /// WebAuthn L3 §7.1 on `response` (an attestation) against `challenge` for `client`, then the ceremony policy:
    /// the credential record of `userID` it registers. One home for registration, used by the sign-up and by
    /// adding a passkey (`POST /me/passkeys`).
    /// - Throws: the verifier's `WebAuthnError` or the policy's refusal (mapped to 403 `invalid_grant`).
    func registeredCredential(
        challenge: [UInt8], response: PublicKeyCredentialJSON, client: ClientConfiguration, userID: String, now: Date
    ) throws -> RegisteredCredential {
        guard let policy = originPolicies[client.clientID] else {
            throw OAuthError.bug("client \(client.clientID) without origin policy")
        }
        let expectations = RegistrationExpectations(
            challenge: challenge, rpID: relyingPartyID, originPolicy: policy,
            userVerificationRequired: userVerificationRequired(client),
            // §7.1 step 19: only what the creation options offered in pubKeyCredParams.
            allowedAlgorithms: [.edDSA, .es256, .rs256], verificationTime: now)
        let registration = try response.registration()
        // The verifier also refuses a rawId other than the attested credential id (the record is keyed on it), so
        // `passkeyd replay` judges a recorded sign-up exactly as this endpoint does.
        let verified = try RegistrationVerifier(expectations: expectations).verify(registration)
        // §7.1 step 24: the attestation trust outcome, as the policy decides (reported, not required, by default).
        try ceremonyPolicy.evaluate(verified).get()
        let credential = Credential(
            credentialID: verified.credentialID, userID: userID, publicKey: verified.credentialPublicKey.rawBytes,
            algorithm: verified.credentialPublicKey.algorithm.rawValue, signCount: verified.signCount,
            uvInitialized: verified.userVerified, backupEligible: verified.backupEligible, backedUp: verified.backedUp,
            transports: verified.transports, aaguid: verified.aaguid, attestationFormat: verified.format,
            createdAt: now, lastUsedAt: now)
        return RegisteredCredential(credential: credential, userVerified: verified.userVerified)
    }
}
