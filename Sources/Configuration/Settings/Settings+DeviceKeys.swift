extension Settings {
    /// `device_keys`: app-bound device keys.
    package enum DeviceKeys {
        package static let challengeLifetimeSeconds = IntegerSetting(
            "device_keys.challenge_lifetime_seconds", default: 120, range: 10...600,
            doc: "how long a device-key challenge can be approved")
        package static let maxFailedAttempts = IntegerSetting(
            "device_keys.max_failed_attempts", default: 3, range: 1...20,
            doc: "consecutive failures that lock a device key")
        package static let maxKeysPerUser = IntegerSetting(
            "device_keys.max_keys_per_user", default: 10, range: 1...1_000,
            doc: """
                usable (active or locked) device keys a user may have; one more device is refused with 409 \
                `device_key_limit_reached` (re-enrolling a device replaces its key and does not count twice)
                """)
        package static let eventsPerUserPerMinute = IntegerSetting(
            "device_keys.events_per_user_per_minute", default: 30, range: 1...10_000,
            doc: "`POST /device-events` per user per minute (per node); beyond it 429 and nothing is recorded")
        /// Absent: `<issuer>device-keys` (`ServerConfiguration.init(document:)`).
        package static let audience = OptionalTextSetting(
            "device_keys.audience", absent: "`<issuer>device-keys`",
            doc: """
                the `aud` the device-key endpoints require; any client asks for it with `audience` at login \
                (docs/device-keys.md §0)
                """)
        package static let enrolmentMaxAgeSeconds = IntegerSetting(
            "device_keys.enrolment_max_age_seconds", default: 300, range: 30...86_400,
            doc: """
                enrolling or replacing a device key needs a user-verified passkey login at most this old, that minted \
                the token (never a refresh-grant token); so does a device proof by fresh login (revoking a key, \
                reporting its invalidation or a biometric lockout, docs/device-keys.md)
                """)
        package static let androidAttestationRoots = TextSetting(
            "device_keys.android_attestation_roots", default: "builtin",
            doc: """
                the roots Android Key Attestation chains must lead to: `builtin` (Google's four hardware attestation \
                roots, embedded in the binary, the same as \
                `Fixtures/trust/google_hardware_attestation_root_{1..4}.pem`), a PEM file's path, or empty (no \
                Android attestation verifies)
                """)
        package static let appAttestRoots = TextSetting(
            "device_keys.app_attest_roots", default: "builtin",
            doc: """
                the roots App Attest attestations must lead to: `builtin` (Apple App Attestation Root CA, embedded, \
                the same as `Fixtures/trust/apple_app_attestation_root_ca.pem`), a PEM file's path, or empty (no App \
                Attest attestation verifies)
                """)

        static let all = [
            challengeLifetimeSeconds.descriptor, maxFailedAttempts.descriptor, maxKeysPerUser.descriptor,
            eventsPerUserPerMinute.descriptor, audience.descriptor, enrolmentMaxAgeSeconds.descriptor,
            androidAttestationRoots.descriptor, appAttestRoots.descriptor,
        ]
    }

    /// `srp`: the SRP-6a password fallback's throttles and lifetimes.
    package enum SRP {
        package static let maxFailures = IntegerSetting(
            "srp.max_failures", default: 10, range: 1...1_000,
            doc: """
                failed SRP (password) logins of one identity that lock it (`403 password_locked`) for \
                `srp.lock_seconds`, or until a passkey login or `passkeyd users unlock` (recovery codes: at most 5)
                """)
        package static let delayAfterFailures = IntegerSetting(
            "srp.delay_after_failures", default: 5, range: 1...1_000,
            doc: """
                failed SRP logins of one identity after which each further attempt waits 1 s, 2 s, 4 s, … (at most \
                15 min; `429` with `Retry-After`)
                """)
        /// At least the longest delay (`SRPThrottle.maximumDelay`), at most the day an identity's count is kept.
        package static let lockSeconds = IntegerSetting(
            "srp.lock_seconds", default: 3_600, range: 900...86_400,
            doc: """
                how long a password or recovery lock lasts after the identity's last failure; then one attempt is \
                judged again
                """)
        package static let addressDelayAfterFailures = IntegerSetting(
            "srp.address_delay_after_failures", default: 20, range: 1...100_000,
            doc: """
                failed SRP logins (or recovery codes) from one client network (IPv4 /24, IPv6 /64) after which its \
                attempts wait 1 s, 2 s, 4 s, …
                """)
        package static let sessionLifetimeSeconds = IntegerSetting(
            "srp.session_lifetime_seconds", default: 120, range: 10...600,
            doc: "how long an `/srp/challenge` can be answered")
        package static let addressWindowSeconds = IntegerSetting(
            "srp.address_window_seconds", default: 3_600, range: 60...86_400,
            doc: "how long one client network's failed SRP logins count")
        package static let freshLoginMaxAgeSeconds = IntegerSetting(
            "srp.fresh_login_max_age_seconds", default: 300, range: 30...3_600,
            doc: """
                enrolling or replacing the password verifier (`POST /me/password-verifier`) needs a user-verified \
                passkey login at most this old, that minted the token (never a refresh-grant token)
                """)

        static let all = [
            maxFailures.descriptor, delayAfterFailures.descriptor, lockSeconds.descriptor,
            addressDelayAfterFailures.descriptor, sessionLifetimeSeconds.descriptor, addressWindowSeconds.descriptor,
            freshLoginMaxAgeSeconds.descriptor,
        ]
    }
}
