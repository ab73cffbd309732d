import Foundation

/// The `PASSKEYD_…` environment variables: one per setting of the configuration file, named after its path
/// (`relying_party.id` → `PASSKEYD_RELYING_PARTY_ID`). Lists and objects (`web_origins`, `clients`, `realms`)
/// take JSON text. An unknown `PASSKEYD_` variable stops the start, so a typo is never silently ignored.
public enum EnvironmentOverrides {
    package enum Kind { case string, integer, boolean, json }

    package struct Setting {
        package let path: [String]
        package let kind: Kind
        package var variable: String { "PASSKEYD_" + path.joined(separator: "_").uppercased() }
    }

    /// Every overridable setting.
    package static let settings: [Setting] = [
        Setting(path: ["listen", "host"], kind: .string),
        Setting(path: ["listen", "port"], kind: .integer),
        Setting(path: ["admin", "listen"], kind: .string),
        Setting(path: ["issuer"], kind: .string),
        Setting(path: ["relying_party", "id"], kind: .string),
        Setting(path: ["relying_party", "name"], kind: .string),
        Setting(path: ["web_origins"], kind: .json),
        Setting(path: ["data_directory"], kind: .string),
        Setting(path: ["database", "url"], kind: .string),
        Setting(path: ["database", "synchronous"], kind: .string),
        Setting(path: ["database", "pool_size"], kind: .integer),
        Setting(path: ["http", "max_body_bytes"], kind: .integer),
        Setting(path: ["http", "connection_timeout_seconds"], kind: .integer),
        Setting(path: ["http", "request_read_timeout_seconds"], kind: .integer),
        Setting(path: ["http", "connection_limit"], kind: .integer),
        Setting(path: ["http", "per_address_connection_limit"], kind: .integer),
        Setting(path: ["http", "per_network_connection_limit"], kind: .integer),
        Setting(path: ["http", "response_write_timeout_seconds"], kind: .integer),
        Setting(path: ["http", "request_deadline_seconds"], kind: .integer),
        Setting(path: ["http", "threads"], kind: .integer),
        Setting(path: ["http", "shutdown_grace_seconds"], kind: .integer),
        Setting(path: ["http", "tls_certificate_file"], kind: .string),
        Setting(path: ["http", "tls_key_file"], kind: .string),
        Setting(path: ["tokens", "access_token_lifetime_seconds"], kind: .integer),
        Setting(path: ["tokens", "id_token_lifetime_seconds"], kind: .integer),
        Setting(path: ["tokens", "user_metadata_claim"], kind: .string),
        Setting(path: ["tokens", "refresh_token_idle_lifetime_seconds"], kind: .integer),
        Setting(path: ["tokens", "refresh_token_absolute_lifetime_seconds"], kind: .integer),
        Setting(path: ["tokens", "action_token_lifetime_seconds"], kind: .integer),
        Setting(path: ["passkeys", "challenge_timeout_ms"], kind: .integer),
        Setting(path: ["passkeys", "user_verification"], kind: .string),
        Setting(path: ["passkeys", "auth_session_grace_seconds"], kind: .integer),
        Setting(path: ["device_keys", "challenge_lifetime_seconds"], kind: .integer),
        Setting(path: ["device_keys", "max_failed_attempts"], kind: .integer),
        Setting(path: ["device_keys", "max_keys_per_user"], kind: .integer),
        Setting(path: ["device_keys", "events_per_user_per_minute"], kind: .integer),
        Setting(path: ["dpop", "proof_lifetime_seconds"], kind: .integer),
        Setting(path: ["dpop", "require_nonce"], kind: .boolean),
        Setting(path: ["dpop", "nonce_lifetime_seconds"], kind: .integer),
        Setting(path: ["srp", "max_failures"], kind: .integer),
        Setting(path: ["srp", "delay_after_failures"], kind: .integer),
        Setting(path: ["srp", "lock_seconds"], kind: .integer),
        Setting(path: ["srp", "address_delay_after_failures"], kind: .integer),
        Setting(path: ["srp", "session_lifetime_seconds"], kind: .integer),
        Setting(path: ["srp", "address_window_seconds"], kind: .integer),
        Setting(path: ["srp", "fresh_login_max_age_seconds"], kind: .integer),
        Setting(path: ["device_keys", "audience"], kind: .string),
        Setting(path: ["device_keys", "enrolment_max_age_seconds"], kind: .integer),
        Setting(path: ["device_keys", "android_attestation_roots"], kind: .string),
        Setting(path: ["device_keys", "app_attest_roots"], kind: .string),
        Setting(path: ["openapi", "listener"], kind: .string),
        Setting(path: ["web", "demo"], kind: .boolean),
        Setting(path: ["web", "demo_client_id"], kind: .string),
        Setting(path: ["rate_limit", "requests_per_minute"], kind: .integer),
        Setting(path: ["rate_limit", "requests_per_user_per_minute"], kind: .integer),
        Setting(path: ["audit", "signer"], kind: .string),
        Setting(path: ["audit", "origin"], kind: .string),
        Setting(path: ["audit", "key_file"], kind: .string),
        Setting(path: ["audit", "event_retention_days"], kind: .integer),
        Setting(path: ["audit", "client_address"], kind: .string),
        Setting(path: ["audit", "checkpoint_interval_ms"], kind: .integer),
        Setting(path: ["audit", "sequence_interval_ms"], kind: .integer),
        Setting(path: ["audit", "node_id"], kind: .string),
        Setting(path: ["audit", "pkcs11", "module"], kind: .string),
        Setting(path: ["audit", "pkcs11", "token_label"], kind: .string),
        Setting(path: ["audit", "pkcs11", "key_label"], kind: .string),
        Setting(path: ["audit", "pkcs11", "pin_file"], kind: .string),
        Setting(path: ["audit", "pkcs11", "pin_env"], kind: .string),
        Setting(path: ["recording", "directory"], kind: .string),
        Setting(path: ["recording", "max_bytes"], kind: .integer),
        Setting(path: ["recording", "max_file_bytes"], kind: .integer),
        Setting(path: ["encryption_at_rest", "key_file"], kind: .string),
        Setting(path: ["encryption_at_rest", "decryption_key_files"], kind: .json),
        Setting(path: ["encryption_at_rest", "pkcs11", "module"], kind: .string),
        Setting(path: ["encryption_at_rest", "pkcs11", "token_label"], kind: .string),
        Setting(path: ["encryption_at_rest", "pkcs11", "key_label"], kind: .string),
        Setting(path: ["encryption_at_rest", "pkcs11", "pin_file"], kind: .string),
        Setting(path: ["encryption_at_rest", "pkcs11", "pin_env"], kind: .string),
        Setting(path: ["clients"], kind: .json),
        Setting(path: ["apis"], kind: .json),
        Setting(path: ["client_grants"], kind: .json),
        Setting(path: ["default_audience"], kind: .string),
        Setting(path: ["realms"], kind: .json),
    ]

    /// Variables that are not settings but are still ours.
    /// (`PASSKEYD_TEST_DATABASE_URL` is the test suite's PostgreSQL, exported by `make test` around the daemons it
    /// starts; the server ignores it.)
    package static let otherVariables: Set<String> = [
        "PASSKEYD_CONFIG", "PASSKEYD_LOG_LEVEL", "PASSKEYD_TEST_DATABASE_URL",
    ]

    /// The names of every variable, for the README and `--help`.
    public static var variableNames: [String] { settings.map(\.variable) }

    package static func apply(_ environment: [String: String], to document: inout [String: Any])
        throws(ConfigurationError)
    {
        let known = Dictionary(uniqueKeysWithValues: settings.map { ($0.variable, $0) })
        for (name, text) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix("PASSKEYD_") {
            if otherVariables.contains(name) { continue }
            guard let setting = known[name] else {
                throw ConfigurationError(field: name, reason: "is not a known setting")
            }
            set(&document, path: setting.path, value: try parse(text, kind: setting.kind, variable: name))
        }
    }

    private static func parse(_ text: String, kind: Kind, variable: String) throws(ConfigurationError) -> Any {
        switch kind {
        case .string:
            return text
        case .integer:
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw ConfigurationError(field: variable, reason: "must be an integer, got \"\(text)\"")
            }
            return value
        case .boolean:
            switch text.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: throw ConfigurationError(field: variable, reason: "must be true or false, got \"\(text)\"")
            }
        case .json:
            // The parser's error already names the variable and says what is wrong with the text.
            return try ConfigJSON.parse(Array(text.utf8), field: variable)
        }
    }

    /// Sets `value` at `path`, creating intermediate objects.
    package static func set(_ document: inout [String: Any], path: [String], value: Any) {
        guard let head = path.first else { return }
        if path.count == 1 {
            document[head] = value
            return
        }
        var child = document[head] as? [String: Any] ?? [:]
        set(&child, path: Array(path.dropFirst()), value: value)
        document[head] = child
    }
}
