extension SecurityEvent {
    /// What a security event records: every name passkeyd writes to `security_events` and the audit log (the entry's
    /// `event`, docs/audit.md lists each). The raw values are the stored names: databases and signed audit logs
    /// already hold them, so a raw value never changes; a name no longer written is removed from here only, and
    /// events that hold it stay readable (`SecurityEvent.kind` is the stored text).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        // MARK: sign-up, login and tokens
        /// A passkey sign-up (user and first credential created), or its refusal.
        case signup
        /// A passkey login, or its refusal (reason: the refusal's code, e.g. `bad_signature`, `session_unknown`).
        case login
        /// A refresh token rotated (RFC 9700 §4.14.2), or a refresh refused.
        case refresh
        /// A spent refresh token presented again: its whole family revoked (RFC 9700 §4.14.2).
        case refreshReuse = "refresh_reuse"
        /// A rotated refresh token presented again within `tokens.refresh_token_reuse_grace_seconds`, its successor
        /// never presented: the retry of a rotation whose answer was lost; that successor spent, another issued.
        case refreshRetry = "refresh_retry"
        /// A refresh-token family revoked by its client (RFC 7009).
        case revocation
        /// An access token issued to a confidential client for itself (RFC 6749 §4.4; reason: the API, its audience).
        case clientCredentials = "client_credentials"
        /// An authorization code of the hosted login redeemed at the token endpoint (RFC 6749 §4.1.3).
        case codeRedeemed = "code_redeemed"
        /// A redeemed authorization code presented again: the tokens its redemption issued revoked (RFC 6749 §4.1.2).
        case codeReuse = "code_reuse"
        /// A hosted login's authorization code presented by another client, after it expired, with another
        /// `redirect_uri` or with a verifier whose S256 is not its challenge (RFC 6749 §4.1.3, RFC 7636 §4.6): refused,
        /// the code kept for its holder.
        case codeRefused = "code_refused"
        /// A hosted-login session ended by a logout (OIDC RP-Initiated Logout, Auth0's `/v2/logout`).
        case logout
        /// A new token-signing key took over (`passkeyd keys rotate`).
        case signingKeyRotated = "signing_key_rotated"
        /// A stored token-signing key sealed (again) under the configured key-encryption key, at a start.
        case signingKeySealed = "signing_key_sealed"

        // MARK: passkeys, recovery and accounts
        /// A passkey added to an existing account (reason `recovery` when a recovery token did it), or refused.
        case passkeyAdded = "passkey_added"
        /// A passkey renamed.
        case passkeyRenamed = "passkey_renamed"
        /// A registration (sign-up or added passkey) refused by the client's authenticator policy (reason: why;
        /// detail: the AAGUID, metadata status and name; docs/authenticator-policy.md).
        case authenticatorRefused = "authenticator_refused"
        /// A login with a passkey whose authenticator the FIDO metadata reports compromised, warned (`success`) or
        /// refused (`failure`) per the client's `compromised_at_login`.
        case authenticatorReported = "authenticator_reported"
        /// A passkey removed (by the user, or `operator`), or refused (`last_passkey`).
        case passkeyRemoved = "passkey_removed"
        /// A new set of recovery codes generated, the old set revoked (reason `created` or `replaced`).
        case recoveryCodesGenerated = "recovery_codes_generated"
        /// A recovery started (`POST /recovery/challenge`).
        case recoveryChallenge = "recovery_challenge"
        /// A recovery code presented: success, or failure (`bad_code`, `recovery_delayed`, `recovery_locked`).
        case recoveryAttempt = "recovery_attempt"
        /// An identifier reached the recovery failure limit: recovery locked.
        case recoveryLocked = "recovery_locked"
        /// Every refresh-token family of a user revoked (recovery, `passkeyd sessions revoke`), or of every user.
        case sessionsRevoked = "sessions_revoked"
        /// An account deleted (`DELETE /me`, or `passkeyd users delete`).
        case accountDeleted = "account_deleted"
        /// A user's password and recovery locks lifted by an operator (`passkeyd users unlock`).
        case loginLocksLifted = "login_locks_lifted"
        /// A user made a member of an organization by an operator (`passkeyd orgs add-member`).
        case organizationMemberAdded = "organization_member_added"
        /// A user's membership of an organization ended by an operator (`passkeyd orgs remove-member`).
        case organizationMemberRemoved = "organization_member_removed"
        /// An organization deleted, with its memberships, by an operator (`passkeyd orgs delete`).
        case organizationDeleted = "organization_deleted"
        /// A FIDO MDS3 metadata BLOB verified and stored (by a server from `metadata.blob_file`, or `passkeyd metadata
        /// load`): its serial, entries, source and SHA-256.
        case metadataLoaded = "metadata_loaded"

        // MARK: password fallback
        /// A successful SRP login (the name the vault's audit trail uses).
        case passwordAuthFallback = "PASSWORD_AUTH_FALLBACK"
        /// An SRP login attempt refused (`bad_proof`, `srp_delayed`, `srp_locked`), with the failure count.
        case srpLoginAttempt = "srp_login_attempt"
        /// An identity reached `srp.max_failures` with a failed SRP login and is locked.
        case srpLocked = "srp_locked"
        /// A password verifier enrolled or replaced (reason `enrolled` or `replaced`).
        case passwordVerifierStored = "password_verifier_stored"
        /// A stored password verifier sealed (again) under the configured key-encryption key, at a start.
        case passwordVerifierSealed = "password_verifier_sealed"
        /// The stored server secret sealed (again) under the configured key-encryption key, at a start.
        case serverSecretSealed = "server_secret_sealed"
        /// The server secret of the sealed auth sessions rotated (`passkeyd keys rotate-session-key`).
        case serverSecretRotated = "server_secret_rotated"
        /// A device key's approvals now wait for the password (biometric failures reached the limit).
        case deviceKeyPasswordRequired = "device_key_password_required"

        // MARK: device keys
        /// A device key registered, or its registration refused.
        case deviceKeyRegistered = "device_key_registered"
        /// A device key revoked (`replaced`, `deleted`, `key_invalidated`, `operator`), or its revocation refused.
        case deviceKeyRevoked = "device_key_revoked"
        /// A device key locked (`failed_signatures`, `biometric_failures`).
        case deviceKeyLocked = "device_key_locked"
        /// A locked device key unlocked, or its unlock refused.
        case deviceKeyUnlocked = "device_key_unlocked"
        /// A device challenge issued, or refused.
        case deviceChallenge = "device_challenge"
        /// An approval accepted, or refused.
        case deviceApproval = "device_approval"
        /// A password login's access token refused at a device-key endpoint (the `route` in the detail).
        case deviceKeyRequest = "device_key_request"

        // MARK: what apps report to POST /device-events
        /// The app reports a successful biometric prompt.
        case biometricSuccess = "biometric_success"
        /// The app reports a failed biometric prompt (with its count), or the report refused for want of proof.
        case biometricFailure = "biometric_failure"
        /// The app reports that the user fell back to the password.
        case passwordFallback = "password_fallback"
        /// The app reports that biometry changed and its key is gone, or the report refused for want of proof.
        case keyInvalidated = "key_invalidated"
    }
}
