extension Settings {
    /// `hosted_login`: the hosted login page's sessions (issue 38; a client opts in with `authorization_code`).
    package enum HostedLogin {
        package static let sessionLifetimeSeconds = IntegerSetting(
            "hosted_login.session_lifetime_seconds", default: 604_800, range: 60...31_536_000,
            doc: """
                absolute lifetime of a hosted-login session (the cookie the hosted page sets): within it a second \
                `/authorize` answers without a ceremony (unless `prompt=login` or `max_age`); 7 days by default, no \
                use extends it
                """)

        static let all = [sessionLifetimeSeconds.descriptor]
    }
}
