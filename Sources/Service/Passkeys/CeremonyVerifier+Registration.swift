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
    /// (`POST /me/passkeys`). `origins`: the expected origins when not the client's (the hosted page's). Then the
    /// client's authenticator policy (`AuthenticatorPolicyEvaluation`) against the loaded FIDO metadata, once, for
    /// every registration path. `accountExists`: `userID` is an existing user's (adding a passkey), named in a
    /// refusal's audit event.
    /// - Throws: the verifier's `WebAuthnError` or the policy's refusal (mapped to 403 `invalid_grant`); the
    ///   authenticator policy's refusal, 403 `access_denied` naming the authenticator and why.
    package func registeredCredential(
        challenge: [UInt8], credential: Result<PublicKeyCredentialJSON, WebAuthnError>, sent: JSONValue,
        client: ClientConfiguration, realm: String, userID: String, now: Date,
        originPolicy origins: OriginPolicy? = nil,
        accountExists: Bool = false
    ) throws -> RegisteredCredential {
        // One snapshot for the whole judgement: the anchors and the policy see the same BLOB.
        let snapshot = metadata?.current()
        let expectations = RegistrationExpectations(
            challenge: challenge, rpID: relyingPartyID,
            originPolicy: try origins ?? originPolicy(for: client, realm: realm),
            userVerificationRequired: userVerificationRequired(client),
            // §7.1 step 19: only what the creation options offered in pubKeyCredParams.
            allowedAlgorithms: PasskeyAlgorithms.offered,
            // §7.1 step 23: the metadata statements' roots for the AAGUID and the operator's extra roots.
            trustAnchors: attestationAnchors(snapshot), verificationTime: now)
        // The verifier also refuses a rawId other than the attested credential id (the record is keyed on it), so
        // `passkeyd replay` judges a recorded sign-up exactly as the server does. §7.1 step 24: the attestation
        // trust outcome, as the policy decides (reported, not required, by default).
        let verified = try verifiedRegistration(credential, sent: sent, expectations: expectations)
        // §7.1 step 24 as the client decides it, with the lists, statuses and certification of its policy.
        if let refusal = AuthenticatorPolicyEvaluation.registration(
            .init(verified), policy: client.authenticators, catalog: snapshot?.catalog, now: now)
        {
            throw refusal.error(clientID: client.clientID, userID: accountExists ? userID : nil, now: now)
        }
        let credential = Credential(
            credentialID: verified.credentialID, userID: userID, publicKey: verified.credentialPublicKey.rawBytes,
            algorithm: verified.credentialPublicKey.algorithm.rawValue, signCount: verified.signCount,
            uvInitialized: verified.userVerified, backupEligible: verified.backupEligible, backedUp: verified.backedUp,
            transports: verified.transports, aaguid: verified.aaguid, attestationFormat: verified.format,
            createdAt: now, lastUsedAt: now,
            // A U2F authenticator's model is its attestation certificate's, which only registration sees: kept for
            // `compromised_at_login`. The statement's signature by that certificate's key was verified (§8.6 step 4).
            attestationKeyIdentifier: AuthenticatorModelKey(aaguid: verified.aaguid, leaf: verified.trustPath.first)?
                .keyIdentifier)
        return RegisteredCredential(credential: credential, userVerified: verified.userVerified)
    }
}
