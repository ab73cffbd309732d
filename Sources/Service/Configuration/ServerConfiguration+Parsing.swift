import Crypto
import Foundation
import Storage

extension ServerConfiguration {
    /// Reads and validates a configuration document (the JSON object of `Config/passkeyd.json`, after
    /// environment overrides). Every problem is reported with the dotted path of its field. `checkDatabaseURL` is the
    /// database driver's check of `database.url` (the reason it is refused, or nil), which the composition root
    /// supplies: this module knows no driver.
    package init(document: [String: Any], checkDatabaseURL: DatabaseURLCheck? = nil) throws(ConfigurationError) {
        let root = ConfigObject(document, path: "")

        let listenObject = try root.object("listen") ?? ConfigObject([:], path: "listen")
        listen = Listen(
            host: try listenObject.string("host", default: "127.0.0.1"),
            port: try listenObject.int("port", default: 8080, range: 0...65535)
        )
        try listenObject.rejectUnknownKeys()
        guard !listen.host.isEmpty else { throw listenObject.error("host", "must not be empty") }

        let adminObject = try root.object("admin") ?? ConfigObject([:], path: "admin")
        adminListen = try Self.readAdminListen(adminObject)
        try adminObject.rejectUnknownKeys()

        let configuredIssuer = try root.string("issuer")
        try Self.validateIssuer(configuredIssuer, root: root)
        // Tokens and discovery always say the issuer with a trailing slash, Auth0's form
        // (`https://<domain>/`), which Android's passkey helper compares with `iss` exactly.
        issuer = configuredIssuer.hasSuffix("/") ? configuredIssuer : configuredIssuer + "/"

        guard let rpObject = try root.object("relying_party") else {
            throw ConfigurationError(field: "relying_party", reason: "is required")
        }
        relyingParty = RelyingParty(id: try rpObject.string("id"), name: try rpObject.string("name"))
        try rpObject.rejectUnknownKeys()
        guard OriginRules.isValidRPID(relyingParty.id) else {
            throw rpObject.error(
                "id", "must be a lower-case domain name without scheme or port, got \"\(relyingParty.id)\"")
        }

        webOrigins = try root.stringArray("web_origins")
        try OriginRules.validate(webOrigins, rpID: relyingParty.id, field: "web_origins")

        dataDirectory = try root.string("data_directory", default: "./data")
        guard !dataDirectory.isEmpty else { throw root.error("data_directory", "must not be empty") }

        let databaseObject = try root.object("database") ?? ConfigObject([:], path: "database")
        let synchronousText = try databaseObject.string("synchronous", default: "full")
        guard let synchronous = Synchronous(rawValue: synchronousText) else {
            throw databaseObject.error("synchronous", "must be \"full\" or \"normal\", got \"\(synchronousText)\"")
        }
        database = Database(
            url: try databaseObject.string("url", default: "sqlite:passkeyd.sqlite"), synchronous: synchronous,
            poolSize: try databaseObject.int("pool_size", default: 0, range: 0...256))
        try databaseObject.rejectUnknownKeys()
        guard DatabaseLocation(url: database.url) != nil else {
            throw databaseObject.error(
                "url", "must be sqlite:FILE, a postgres:// URL or libpq key=value pairs, got \"\(database.url)\"")
        }
        // The driver's own check (the composition root passes the PostgreSQL driver's), so that a typo stops the
        // start with the field's name.
        if let reason = checkDatabaseURL?(database.url) { throw databaseObject.error("url", reason) }

        http = try Self.readHTTP(try root.object("http") ?? ConfigObject([:], path: "http"))
        tokens = try Self.readTokens(try root.object("tokens") ?? ConfigObject([:], path: "tokens"))

        let passkeyObject = try root.object("passkeys") ?? ConfigObject([:], path: "passkeys")
        passkeys = PasskeySettings(
            challengeTimeoutMilliseconds: try passkeyObject.int(
                "challenge_timeout_ms", default: 60_000, range: 1_000...600_000),
            userVerification: try UserVerificationPolicy.read(passkeyObject) ?? .required,
            authSessionGraceSeconds: try passkeyObject.int("auth_session_grace_seconds", default: 30, range: 0...300)
        )
        try passkeyObject.rejectUnknownKeys()

        let deviceObject = try root.object("device_keys") ?? ConfigObject([:], path: "device_keys")
        deviceKeys = DeviceKeySettings(
            challengeLifetimeSeconds: try deviceObject.int("challenge_lifetime_seconds", default: 120, range: 10...600),
            maxFailedAttempts: try deviceObject.int("max_failed_attempts", default: 3, range: 1...20),
            maxKeysPerUser: try deviceObject.int("max_keys_per_user", default: 10, range: 1...1_000),
            eventsPerUserPerMinute: try deviceObject.int("events_per_user_per_minute", default: 30, range: 1...10_000),
            audience: try deviceObject.string("audience", default: issuer + "device-keys"),
            enrolmentMaxAgeSeconds: try deviceObject.int("enrolment_max_age_seconds", default: 300, range: 30...86_400),
            androidAttestationRoots: try Self.readRoots(
                deviceObject, "android_attestation_roots", builtin: BuiltinAttestationRoots.android),
            appAttestRoots: try Self.readRoots(
                deviceObject, "app_attest_roots", builtin: BuiltinAttestationRoots.appAttest)
        )
        guard !deviceKeys.audience.isEmpty,
            ![issuer, Self.accountAudience(issuer: issuer), RecoveryToken.audience(issuer: issuer)].contains(
                deviceKeys.audience)
        else {
            throw deviceObject.error(
                "audience", "must be a non-empty audience other than the issuer and its me/ and recovery audiences")
        }
        try deviceObject.rejectUnknownKeys()

        let dpopObject = try root.object("dpop") ?? ConfigObject([:], path: "dpop")
        dpop = DPoPSettings(
            proofLifetimeSeconds: try dpopObject.int("proof_lifetime_seconds", default: 60, range: 5...600),
            requireNonce: try dpopObject.bool("require_nonce", default: false),
            nonceLifetimeSeconds: try dpopObject.int("nonce_lifetime_seconds", default: 300, range: 30...3_600))
        try dpopObject.rejectUnknownKeys()
        let srpObject = try root.object("srp") ?? ConfigObject([:], path: "srp")
        srp = SRPSettings(
            maxFailures: try srpObject.int("max_failures", default: 10, range: 1...1_000),
            delayAfterFailures: try srpObject.int("delay_after_failures", default: 5, range: 1...1_000),
            // At least the longest delay (SRPThrottle.maximumDelay), at most the day an identity's count is kept.
            lockSeconds: try srpObject.int("lock_seconds", default: 3_600, range: 900...86_400),
            addressDelayAfterFailures: try srpObject.int(
                "address_delay_after_failures", default: 20, range: 1...100_000),
            sessionLifetimeSeconds: try srpObject.int("session_lifetime_seconds", default: 120, range: 10...600),
            addressWindowSeconds: try srpObject.int("address_window_seconds", default: 3_600, range: 60...86_400),
            freshLoginMaxAgeSeconds: try srpObject.int("fresh_login_max_age_seconds", default: 300, range: 30...3_600)
        )
        try srpObject.rejectUnknownKeys()

        let rateObject = try root.object("rate_limit") ?? ConfigObject([:], path: "rate_limit")
        rateLimitPerMinute = try rateObject.int("requests_per_minute", default: 600, range: 0...1_000_000)
        rateLimitPerUserPerMinute = try rateObject.int(
            "requests_per_user_per_minute", default: 120, range: 0...1_000_000)
        try rateObject.rejectUnknownKeys()

        audit = try AuditConfiguration.read(
            try root.object("audit") ?? ConfigObject([:], path: "audit"), rpID: relyingParty.id,
            dataDirectory: dataDirectory)

        recording = try RecordingSettings.read(try root.object("recording") ?? ConfigObject([:], path: "recording"))
        let atRestObject = try root.object("encryption_at_rest") ?? ConfigObject([:], path: "encryption_at_rest")
        encryptionAtRest = try Self.readEncryptionAtRest(atRestObject)

        let rpID = relyingParty.id
        var clients: [ClientConfiguration] = []
        for object in try root.objectArray("clients") { clients.append(try Self.readClient(object, rpID: rpID)) }
        self.clients = clients
        var clientIDs = Set<String>()
        for (index, client) in clients.enumerated() where !clientIDs.insert(client.clientID).inserted {
            throw ConfigurationError(
                field: "clients[\(index)].client_id", reason: "\"\(client.clientID)\" is defined twice")
        }

        // The built-in audiences are reserved: no configured API may claim them (docs/api.md, "APIs").
        let apis = try Self.readAPIs(
            root,
            reserved: [
                issuer, deviceKeys.audience, Self.accountAudience(issuer: issuer),
                RecoveryToken.audience(issuer: issuer),
            ],
            defaultLifetime: tokens.accessTokenLifetime)
        self.apis = apis
        clientGrants = try Self.readClientGrants(root, clients: clients, apis: apis)
        configuredDefaultAudience = try Self.readDefaultAudience(
            root, known: [issuer, deviceKeys.audience] + apis.map(\.identifier))
        self.clients = try Self.resolvingPasswordLoginAudiences(
            clients, issuer: issuer, apis: apis, forbidden: [deviceKeys.audience, Self.accountAudience(issuer: issuer)])

        var realms: [RealmConfiguration] = []
        for object in try root.objectArray("realms") { realms.append(try Self.readRealm(object)) }
        self.realms = realms
        guard !realms.isEmpty else { throw root.error("realms", "at least one realm is required") }
        var realmNames = Set<String>()
        for (index, realm) in realms.enumerated() where !realmNames.insert(realm.name).inserted {
            throw ConfigurationError(field: "realms[\(index)].name", reason: "\"\(realm.name)\" is defined twice")
        }
        web = try WebConfiguration.read(root, issuer: issuer, rpID: rpID, clients: clients)
        // The demo page calls the API from the server's own origin: a web origin while the demo is on.
        if let demo = web.demo, !webOrigins.contains(demo.origin) { webOrigins.append(demo.origin) }
        guard realms.filter(\.isDefault).count <= 1 else {
            throw root.error("realms", "at most one realm may be the default")
        }
        try root.rejectUnknownKeys()
    }

    /// The certificates of the PEM file named by `key` (none when the key is absent or empty).
    /// `"builtin"` (the default): the roots passkeyd ships; `""`: none (no attestation of that platform verifies);
    /// anything else: a PEM file.
    private static func readRoots(_ object: ConfigObject, _ key: String, builtin: String) throws(ConfigurationError)
        -> [Certificate]
    {
        let path = try object.string(key, default: "builtin")
        guard !path.isEmpty else { return [] }
        let text: String
        if path == "builtin" {
            text = builtin
        } else {
            guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw object.error(key, "cannot read \(path)")
            }
            text = contents
        }
        do {
            return try Certificate.certificates(fromPEM: text)
        } catch {
            throw object.error(key, "\(path): \(error.reason)")
        }
    }

    private static func validateIssuer(_ issuer: String, root: ConfigObject) throws(ConfigurationError) {
        // OIDC Discovery §3 / RFC 8414 §2: an https URL with no query or fragment. Plain http is
        // accepted for loopback hosts only, for local development.
        guard let url = URLComponents(string: issuer), let scheme = url.scheme, let host = url.host, !host.isEmpty,
            url.query == nil, url.fragment == nil
        else { throw root.error("issuer", "must be an absolute URL with no query or fragment") }
        let loopback = ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw root.error("issuer", "must use https (http is accepted for localhost only)")
        }
    }

    /// `admin.listen`: `HOST:PORT` (an IPv6 literal in brackets, `[::1]:9090`), or empty for no admin listener.
    private static func readAdminListen(_ object: ConfigObject) throws(ConfigurationError) -> Listen? {
        let text = try object.string("listen", default: "127.0.0.1:9090")
        guard !text.isEmpty else { return nil }
        let invalid = object.error(
            "listen", "must be HOST:PORT (e.g. 127.0.0.1:9090, [::1]:9090) or empty, got \"\(text)\"")
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65_535).contains(port)
        else { throw invalid }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("["), !host.contains("]") else { throw invalid }
        return Listen(host: host, port: port)
    }

    private static func readHTTP(_ object: ConfigObject) throws(ConfigurationError) -> HTTPSettings {
        var settings = HTTPSettings(
            maxBodyBytes: try object.int("max_body_bytes", default: 65_536, range: 1_024...16_777_216),
            connectionTimeoutSeconds: try object.int("connection_timeout_seconds", default: 30, range: 1...3_600),
            requestReadTimeoutSeconds: try object.int("request_read_timeout_seconds", default: 10, range: 1...600),
            connectionLimit: try object.int("connection_limit", default: 4_096, range: 1...65_536),
            perAddressConnectionLimit: try object.int("per_address_connection_limit", default: 64, range: 0...65_536),
            requestDeadlineSeconds: try object.int("request_deadline_seconds", default: 30, range: 1...600),
            threads: try object.int("threads", default: 2, range: 1...256),
            shutdownGraceSeconds: try object.int("shutdown_grace_seconds", default: 10, range: 0...600),
            tlsCertificateFile: try object.optionalString("tls_certificate_file"),
            tlsKeyFile: try object.optionalString("tls_key_file")
        )
        settings.perNetworkConnectionLimit = try object.int(
            "per_network_connection_limit", default: 256, range: 0...65_536)
        settings.responseWriteTimeoutSeconds = try object.int(
            "response_write_timeout_seconds", default: 30, range: 1...600)
        guard (settings.tlsCertificateFile == nil) == (settings.tlsKeyFile == nil) else {
            throw object.error("tls_certificate_file", "tls_certificate_file and tls_key_file go together")
        }
        try object.rejectUnknownKeys()
        try validateConnectionLimits(settings, object)
        return settings
    }

    /// The fewest client networks that, each at its cap, may fill `http.connection_limit`.
    package static let networksToFillConnections = 8

    /// The connection limits must nest: one address no more than its network, and it takes
    /// `networksToFillConnections` networks at their cap (the per-address cap when the per-network one is off) to fill
    /// the server, so that a few networks cannot keep every other client out.
    private static func validateConnectionLimits(
        _ settings: HTTPSettings, _ object: ConfigObject
    ) throws(ConfigurationError) {
        let perAddress = settings.perAddressConnectionLimit
        let perNetwork = settings.perNetworkConnectionLimit
        if perAddress > 0, perNetwork > 0, perAddress > perNetwork {
            throw object.error(
                "per_address_connection_limit",
                "must not exceed http.per_network_connection_limit (\(perNetwork)): an address is part of its network")
        }
        let cap = perNetwork > 0 ? perNetwork : perAddress
        let capName = perNetwork > 0 ? "per_network_connection_limit" : "per_address_connection_limit"
        guard cap == 0 || settings.connectionLimit >= networksToFillConnections * cap else {
            throw object.error(
                "connection_limit",
                "must be at least \(networksToFillConnections) × http.\(capName) (\(cap)), "
                    + "\(networksToFillConnections * cap), so that a few networks at their cap cannot fill it; lower "
                    + "http.\(capName) or raise http.connection_limit (0 turns a per-client limit off, as behind a proxy)"
            )
        }
    }

    /// `tokens.user_metadata_claim`: empty (the default) for none, else an http(s) URL, the namespaced form Auth0
    /// requires of custom claims so that they never collide with a registered one (OIDC Core §5.1.2).
    private static func readUserMetadataClaim(_ object: ConfigObject) throws(ConfigurationError) -> String? {
        let text = try object.string("user_metadata_claim", default: "")
        guard !text.isEmpty else { return nil }
        guard text.utf8.count <= 256, let url = URLComponents(string: text),
            url.scheme == "https" || url.scheme == "http",
            url.host?.isEmpty == false
        else {
            throw object.error("user_metadata_claim", "must be empty or a namespaced claim: an http(s) URL")
        }
        return text
    }

    private static func readEncryptionAtRest(_ object: ConfigObject) throws(ConfigurationError) -> EncryptionAtRest {
        let settings = EncryptionAtRest(
            keyFile: try object.optionalString("key_file"),
            decryptionKeyFiles: try object.stringArray("decryption_key_files"),
            pkcs11: try object.object("pkcs11").map { (pkcs11) throws(ConfigurationError) in
                try PKCS11Settings.read(pkcs11)
            })
        if settings.keyFile?.isEmpty == true { throw object.error("key_file", "must name a file") }
        if settings.decryptionKeyFiles.contains(where: \.isEmpty) {
            throw object.error("decryption_key_files", "must name files")
        }
        // Keys that only open, without one that seals, would store what they open unencrypted again.
        if !settings.decryptionKeyFiles.isEmpty, settings.keyFile == nil {
            throw object.error("decryption_key_files", "needs key_file (the key that seals)")
        }
        if settings.pkcs11 != nil, settings.keyFile == nil {
            throw object.error("pkcs11", "needs key_file (the wrapped key it unwraps)")
        }
        try object.rejectUnknownKeys()
        return settings
    }

    private static func readTokens(_ object: ConfigObject) throws(ConfigurationError) -> TokenSettings {
        let settings = TokenSettings(
            accessTokenLifetime: try object.int("access_token_lifetime_seconds", default: 3_600, range: 60...86_400),
            idTokenLifetime: try object.int("id_token_lifetime_seconds", default: 3_600, range: 60...86_400),
            refreshTokenIdleLifetime: try object.int(
                "refresh_token_idle_lifetime_seconds", default: 1_209_600, range: 60...31_536_000),
            refreshTokenAbsoluteLifetime: try object.int(
                "refresh_token_absolute_lifetime_seconds", default: 2_592_000, range: 60...31_536_000),
            // The action token buys one sensitive action, right after its approval: at most five minutes.
            actionTokenLifetime: try object.int("action_token_lifetime_seconds", default: 300, range: 10...300),
            userMetadataClaim: try readUserMetadataClaim(object)
        )
        guard settings.refreshTokenIdleLifetime <= settings.refreshTokenAbsoluteLifetime else {
            throw object.error(
                "refresh_token_idle_lifetime_seconds", "must not exceed refresh_token_absolute_lifetime_seconds")
        }
        try object.rejectUnknownKeys()
        return settings
    }
}
