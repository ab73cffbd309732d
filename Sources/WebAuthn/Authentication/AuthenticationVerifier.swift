import Crypto

/// Verifies an authentication ceremony (WebAuthn L3 §7.2 "Verifying an Authentication Assertion"),
/// every step in order. No I/O: looking the credential up (steps 5–7) and storing the new counter are
/// the caller's.
public struct AuthenticationVerifier: Sendable {
    /// What the RP expects.
    public let expectations: AuthenticationExpectations

    /// Creates a verifier for one ceremony.
    public init(expectations: AuthenticationExpectations) {
        self.expectations = expectations
    }

    /// Runs §7.2 on `response`.
    /// - Returns: the verified assertion with the counter to store, and the counter and backup-state outcomes as
    ///   values for `CeremonyPolicy` to decide on.
    /// - Throws: `WebAuthnError` naming the step that failed.
    public func verify(_ response: AuthenticationResponse) throws(WebAuthnError) -> VerifiedAssertion {
        // §5.1: type "public-key", id = base64url(rawId).
        try CredentialIdentity.verify(type: response.type, id: response.id, rawID: response.rawID)
        // §7.2 step 5/7: the credential used is the one whose record the RP looked up.
        if let storedID = expectations.credentialID, !ConstantTime.equals(storedID, response.rawID) {
            throw WebAuthnError(.credentialIDMismatch, "rawId is not the stored credential")
        }
        // §7.2 step 6: when userHandle is present, it is the user handle of the credential's owner.
        if let returned = response.userHandle, !returned.isEmpty, let owner = expectations.userHandle,
            !ConstantTime.equals(returned, owner)
        {
            throw WebAuthnError(.userHandleMismatch, "userHandle is not the credential owner's")
        }
        // §7.2 steps 8–10: decode and parse clientDataJSON.
        let clientData = try CollectedClientData(bytes: response.clientDataJSON)
        // §7.2 steps 11–14: type, challenge, origin, topOrigin (and L2's tokenBinding).
        try clientData.verify(
            type: CollectedClientData.CeremonyType.get,
            challenge: expectations.challenge,
            originPolicy: expectations.originPolicy)
        let authenticatorData = try AuthenticatorData(bytes: response.authenticatorData)
        // §7.2 step 15: rpIdHash is SHA-256 of the RP ID.
        guard ConstantTime.equals(authenticatorData.rpIDHashBytes, expectations.rpID.hash) else {
            throw WebAuthnError(.rpIDHashMismatch, "rpIdHash is not SHA-256(\"\(expectations.rpID)\")")
        }
        // §7.2 step 16: the UP flag is set.
        guard authenticatorData.flags.userPresent else {
            throw WebAuthnError(.userPresenceRequired, "UP flag not set")
        }
        // §7.2 step 17: UV is set if the RP requires user verification.
        guard authenticatorData.flags.userVerified || !expectations.userVerificationRequired else {
            throw WebAuthnError(.userVerificationRequired, "UV flag not set")
        }
        // §7.2 step 18 (BE clear ⇒ BS clear) is enforced by AuthenticatorData.init.
        // §7.2 step 20: hash = SHA-256(cData); step 21: sig verifies over authData || hash with the stored key.
        guard
            expectations.credentialPublicKey.isValidSignature(
                response.signature, overAuthenticatorData: response.authenticatorData,
                clientDataJSON: response.clientDataJSON)
        else {
            throw WebAuthnError(.badSignature, "assertion signature does not verify")
        }
        // §7.2 step 22 (signature counter) and §7.2 step 19 / §6.1.3 (backup state) are reported as values; the
        // relying party's CeremonyPolicy decides on them.
        return VerifiedAssertion(
            credentialID: response.rawID, authenticatorData: authenticatorData,
            signatureCounter: SignatureCounterResult(
                stored: expectations.storedSignCount, received: authenticatorData.signCount),
            backupState: BackupStateResult(stored: expectations.storedBackupState, flags: authenticatorData.flags))
    }
}
