extension Settings {
    /// `tokens`: lifetimes, the access tokens' algorithm and the user-metadata claim.
    package enum Tokens {
        package static let accessTokenLifetimeSeconds = IntegerSetting(
            "tokens.access_token_lifetime_seconds", default: 3_600, range: 60...86_400,
            doc: "`expires_in` of access tokens, and of an API's that sets none of its own")
        package static let accessTokenSigningAlg = ChoiceSetting<TokenSigningAlgorithm>(
            "tokens.access_token_signing_alg", default: .rs256,
            doc: """
                `RS256` or `ES256`: how access tokens are signed, for the built-in audiences (the issuer's, the \
                device-key, account and recovery ones) and every API without a `signing_alg` of its own; RS256 as \
                Auth0's (its API quickstarts accept only RS256)
                """)
        package static let idTokenLifetimeSeconds = IntegerSetting(
            "tokens.id_token_lifetime_seconds", default: 3_600, range: 60...86_400, doc: "how long an ID token is valid"
        )
        package static let refreshTokenIdleLifetimeSeconds = IntegerSetting(
            "tokens.refresh_token_idle_lifetime_seconds", default: 1_209_600, range: 60...31_536_000,
            doc: "14 days without use ends the family; at most `tokens.refresh_token_absolute_lifetime_seconds`")
        package static let refreshTokenAbsoluteLifetimeSeconds = IntegerSetting(
            "tokens.refresh_token_absolute_lifetime_seconds", default: 2_592_000, range: 60...31_536_000,
            doc: "30 days after login at most")
        package static let refreshTokenReuseGraceSeconds = IntegerSetting(
            "tokens.refresh_token_reuse_grace_seconds", default: 10, range: 0...60,
            doc: """
                a rotated refresh token presented again this soon, by its client, while its successor was never \
                presented, is a retry of a rotation whose answer was lost (a dropped connection, a 500, a timeout): \
                it gets a new successor and the unreceived one is spent, instead of its family being revoked as reuse \
                (RFC 9700 §4.14.2); 0: every second presentation is reuse
                """)
        package static let userMetadataClaim = TextSetting(
            "tokens.user_metadata_claim", default: "",
            doc: """
                a namespaced claim (an `http(s)` URL, e.g. `https://example.com/user_metadata`) under which ID tokens \
                and `/userinfo` carry the `user_metadata` given at sign-up, with the `profile` scope; empty: never \
                carried
                """)
        package static let actionTokenLifetimeSeconds = IntegerSetting(
            "tokens.action_token_lifetime_seconds", default: 300, range: 10...300,
            doc: "how long an action token (one approved device-key action) is valid")

        static let all = [
            accessTokenLifetimeSeconds.descriptor, accessTokenSigningAlg.descriptor, idTokenLifetimeSeconds.descriptor,
            refreshTokenIdleLifetimeSeconds.descriptor, refreshTokenAbsoluteLifetimeSeconds.descriptor,
            refreshTokenReuseGraceSeconds.descriptor, userMetadataClaim.descriptor,
            actionTokenLifetimeSeconds.descriptor,
        ]
    }

    /// `passkeys`: the WebAuthn ceremonies.
    package enum Passkeys {
        package static let challengeTimeoutMilliseconds = IntegerSetting(
            "passkeys.challenge_timeout_ms", default: 60_000, range: 1_000...600_000,
            doc: "WebAuthn `timeout` and the auth session's lifetime")
        package static let authSessionGraceSeconds = IntegerSetting(
            "passkeys.auth_session_grace_seconds", default: 30, range: 0...300,
            doc: """
                how long the auth session outlives the ceremony's `timeout`, so a user who finishes just before it is \
                not refused for the round trip
                """)
        /// Read by `UserVerificationPolicy.read`, which reads a client's `user_verification` too.
        package static let userVerification = ChoiceSetting<UserVerificationPolicy>(
            "passkeys.user_verification", default: .required,
            doc: """
                `required`, `preferred` or `discouraged`; for clients that set no `user_verification` of their own
                """)

        /// Read into `PasskeySettings.attestationRoots` (each file's certificates).
        package static let attestationRootFiles = ListSetting(
            "passkeys.attestation_root_files",
            doc: """
                PEM files of further roots a passkey's attestation may chain to, for every client and authenticator, \
                besides the metadata statement's roots for its AAGUID (e.g. an enterprise's own CA for `enterprise` \
                attestation; docs/authenticator-policy.md)
                """)

        static let all = [
            challengeTimeoutMilliseconds.descriptor, authSessionGraceSeconds.descriptor, userVerification.descriptor,
            attestationRootFiles.descriptor,
        ]
    }

    /// `dpop`: DPoP-bound tokens (RFC 9449).
    package enum DPoP {
        package static let proofLifetimeSeconds = IntegerSetting(
            "dpop.proof_lifetime_seconds", default: 60, range: 5...600,
            doc: """
                how far a DPoP proof's `iat` may be from the server's time, either way; accepted proofs' `jti` are \
                remembered in the database that long (RFC 9449 §11.1)
                """)
        package static let requireNonce = BooleanSetting(
            "dpop.require_nonce", default: false,
            doc: """
                every DPoP proof must carry a server nonce (RFC 9449 §8: `use_dpop_nonce` with a `DPoP-Nonce` header \
                otherwise); stateless, valid on every node
                """)
        package static let nonceLifetimeSeconds = IntegerSetting(
            "dpop.nonce_lifetime_seconds", default: 300, range: 30...3_600,
            doc: "how long one nonce is current; the previous one is accepted too")

        static let all = [proofLifetimeSeconds.descriptor, requireNonce.descriptor, nonceLifetimeSeconds.descriptor]
    }
}
