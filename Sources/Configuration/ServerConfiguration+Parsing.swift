import Crypto
import Foundation
import Storage

extension ServerConfiguration {
    /// Reads and validates a configuration document (the JSON object of `Config/passkeyd.json`, after
    /// environment overrides). Every problem is reported with the dotted path of its field. `checkDatabaseURL` is the
    /// database driver's check of `database.url` (the reason it is refused, or nil), which the composition root
    /// supplies: this module knows no driver. `readLog`, for tests, collects the path of every setting read.
    package init(
        document: [String: Any], checkDatabaseURL: DatabaseURLCheck? = nil, readLog: ConfigObject.ReadLog? = nil
    ) throws(ConfigurationError) {
        let root = ConfigObject(document, path: "", log: readLog)

        logLevel = try root.value(Settings.logLevel)
        let listenObject = try root.section("listen")
        listen = Listen(
            host: try listenObject.value(Settings.Listen.host), port: try listenObject.value(Settings.Listen.port))
        try listenObject.rejectUnknownKeys()

        let adminObject = try root.section("admin")
        adminListen = try Self.readAdminListen(adminObject)
        try adminObject.rejectUnknownKeys()

        let configuredIssuer = try root.value(Settings.issuer)
        try Self.validateIssuer(configuredIssuer, root: root)
        // Tokens and discovery always say the issuer with a trailing slash, Auth0's form
        // (`https://<domain>/`), which Android's passkey helper compares with `iss` exactly.
        issuer = configuredIssuer.hasSuffix("/") ? configuredIssuer : configuredIssuer + "/"

        guard let rpObject = try root.object("relying_party") else {
            throw ConfigurationError(field: "relying_party", reason: "is required")
        }
        relyingParty = RelyingParty(
            id: try rpObject.value(Settings.RelyingParty.id), name: try rpObject.value(Settings.RelyingParty.name))
        try rpObject.rejectUnknownKeys()
        guard OriginRules.isValidRPID(relyingParty.id) else {
            throw rpObject.error(
                "id", "must be a lower-case domain name without scheme or port, got \"\(relyingParty.id)\"")
        }

        webOrigins = try root.value(Settings.webOrigins)
        try OriginRules.validate(webOrigins, rpID: relyingParty.id, field: "web_origins")

        dataDirectory = try root.value(Settings.dataDirectory)

        let databaseObject = try root.section("database")
        database = Database(
            url: try databaseObject.value(Settings.Database.url),
            synchronous: try databaseObject.value(Settings.Database.synchronous),
            poolSize: try databaseObject.value(Settings.Database.poolSize))
        try databaseObject.rejectUnknownKeys()
        guard DatabaseLocation(url: database.url) != nil else {
            throw databaseObject.error(
                "url", "must be sqlite:FILE, a postgres:// URL or libpq key=value pairs, got \"\(database.url)\"")
        }
        // The driver's own check (the composition root passes the PostgreSQL driver's), so that a typo stops the
        // start with the field's name.
        if let reason = checkDatabaseURL?(database.url) { throw databaseObject.error("url", reason) }

        http = try Self.readHTTP(try root.section("http"))
        tokens = try Self.readTokens(try root.section("tokens"))

        let passkeyObject = try root.section("passkeys")
        passkeys = PasskeySettings(
            challengeTimeoutMilliseconds: try passkeyObject.value(Settings.Passkeys.challengeTimeoutMilliseconds),
            userVerification: try UserVerificationPolicy.read(passkeyObject)
                ?? Settings.Passkeys.userVerification.defaultValue,
            authSessionGraceSeconds: try passkeyObject.value(Settings.Passkeys.authSessionGraceSeconds),
            attestationRoots: try Self.readRootFiles(passkeyObject, Settings.Passkeys.attestationRootFiles)
        )
        try passkeyObject.rejectUnknownKeys()

        let deviceObject = try root.section("device_keys")
        deviceKeys = DeviceKeySettings(
            challengeLifetimeSeconds: try deviceObject.value(Settings.DeviceKeys.challengeLifetimeSeconds),
            maxFailedAttempts: try deviceObject.value(Settings.DeviceKeys.maxFailedAttempts),
            maxKeysPerUser: try deviceObject.value(Settings.DeviceKeys.maxKeysPerUser),
            eventsPerUserPerMinute: try deviceObject.value(Settings.DeviceKeys.eventsPerUserPerMinute),
            audience: try deviceObject.value(Settings.DeviceKeys.audience) ?? issuer + "device-keys",
            enrolmentMaxAgeSeconds: try deviceObject.value(Settings.DeviceKeys.enrolmentMaxAgeSeconds),
            androidAttestationRoots: try Self.readRoots(
                deviceObject, Settings.DeviceKeys.androidAttestationRoots, builtin: BuiltinAttestationRoots.android),
            appAttestRoots: try Self.readRoots(
                deviceObject, Settings.DeviceKeys.appAttestRoots, builtin: BuiltinAttestationRoots.appAttest)
        )
        guard !deviceKeys.audience.isEmpty,
            ![issuer, Self.accountAudience(issuer: issuer), Self.recoveryAudience(issuer: issuer)].contains(
                deviceKeys.audience)
        else {
            throw deviceObject.error(
                "audience", "must be a non-empty audience other than the issuer and its me/ and recovery audiences")
        }
        try deviceObject.rejectUnknownKeys()

        let dpopObject = try root.section("dpop")
        dpop = DPoPSettings(
            proofLifetimeSeconds: try dpopObject.value(Settings.DPoP.proofLifetimeSeconds),
            requireNonce: try dpopObject.value(Settings.DPoP.requireNonce),
            nonceLifetimeSeconds: try dpopObject.value(Settings.DPoP.nonceLifetimeSeconds))
        try dpopObject.rejectUnknownKeys()
        srp = try Self.readSRP(try root.section("srp"))
        let hostedObject = try root.section("hosted_login")
        hostedLoginSessionLifetime = try hostedObject.value(Settings.HostedLogin.sessionLifetimeSeconds)
        try hostedObject.rejectUnknownKeys()
        metadata = try MetadataSettings.read(try root.section("metadata"))

        let rateObject = try root.section("rate_limit")
        rateLimitPerMinute = try rateObject.value(Settings.RateLimit.requestsPerMinute)
        rateLimitPerUserPerMinute = try rateObject.value(Settings.RateLimit.requestsPerUserPerMinute)
        try rateObject.rejectUnknownKeys()

        audit = try AuditConfiguration.read(
            try root.section("audit"), rpID: relyingParty.id, dataDirectory: dataDirectory)

        recording = try RecordingSettings.read(try root.section("recording"))
        encryptionAtRest = try Self.readEncryptionAtRest(try root.section("encryption_at_rest"))

        let rpID = relyingParty.id
        var clients: [ClientConfiguration] = []
        for object in try root.value(Settings.clients) { clients.append(try Self.readClient(object, rpID: rpID)) }
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
                Self.recoveryAudience(issuer: issuer),
            ],
            defaultLifetime: tokens.accessTokenLifetime, defaultAlgorithm: tokens.accessTokenSigningAlgorithm,
            clients: clients)
        self.apis = apis
        clientGrants = try Self.readClientGrants(
            root, clients: clients, apis: apis, accountAudience: Self.accountAudience(issuer: issuer))
        accountAPIAccessPolicy = try root.value(Settings.accountAPIAccessPolicy)
        configuredDefaultAudience = try Self.readDefaultAudience(
            root, known: [issuer, deviceKeys.audience] + apis.map(\.identifier))
        allowOrganizationNameInAuthenticationAPI = try root.value(Settings.allowOrganizationNameInAuthenticationAPI)
        self.clients = try Self.resolvingPasswordLoginAudiences(
            clients, issuer: issuer, apis: apis, forbidden: [deviceKeys.audience, Self.accountAudience(issuer: issuer)])

        var realms: [RealmConfiguration] = []
        for object in try root.value(Settings.realms) { realms.append(try Self.readRealm(object)) }
        self.realms = realms
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
        // A request that names no realm gets the default one: among several, which one must be said, never guessed
        // from the order (one realm alone is the default whether marked or not; check-config says so).
        guard realms.count == 1 || realms.contains(where: \.isDefault) else {
            throw root.error(
                "realms",
                "with more than one realm, one must be marked \"default\": true (the realm of requests that "
                    + "name none)")
        }
        try root.rejectUnknownKeys()
        try checkRefreshTokenPolicies()
    }

    /// The certificates of the PEM file named by `key` (none when the key is absent or empty).
    /// `"builtin"` (the default): the roots passkeyd ships; `""`: none (no attestation of that platform verifies);
    /// anything else: a PEM file.
    private static func readRoots(_ object: ConfigObject, _ setting: TextSetting, builtin: String)
        throws(ConfigurationError) -> [Certificate]
    {
        let key = setting.descriptor.name
        let path = try object.value(setting)
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

    /// The certificates of the PEM files `setting` lists (each must hold at least one).
    private static func readRootFiles(_ object: ConfigObject, _ setting: ListSetting) throws(ConfigurationError)
        -> [Certificate]
    {
        let key = setting.descriptor.name
        var roots: [Certificate] = []
        for (index, path) in try object.value(setting).enumerated() {
            guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw object.error("\(key)[\(index)]", "cannot read \(path)")
            }
            let certificates: [Certificate]
            do {
                certificates = try Certificate.certificates(fromPEM: contents)
            } catch {
                throw object.error("\(key)[\(index)]", "\(path): \(error.reason)")
            }
            guard !certificates.isEmpty else {
                throw object.error("\(key)[\(index)]", "\(path) holds no PEM certificate")
            }
            roots += certificates
        }
        return roots
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
        let text = try object.value(Settings.Admin.listen)
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
        let settings = HTTPSettings(
            maxBodyBytes: try object.value(Settings.HTTP.maxBodyBytes),
            connectionTimeoutSeconds: try object.value(Settings.HTTP.connectionTimeoutSeconds),
            requestReadTimeoutSeconds: try object.value(Settings.HTTP.requestReadTimeoutSeconds),
            connectionLimit: try object.value(Settings.HTTP.connectionLimit),
            perAddressConnectionLimit: try object.value(Settings.HTTP.perAddressConnectionLimit),
            perNetworkConnectionLimit: try object.value(Settings.HTTP.perNetworkConnectionLimit),
            responseWriteTimeoutSeconds: try object.value(Settings.HTTP.responseWriteTimeoutSeconds),
            requestDeadlineSeconds: try object.value(Settings.HTTP.requestDeadlineSeconds),
            threads: try object.value(Settings.HTTP.threads),
            shutdownGraceSeconds: try object.value(Settings.HTTP.shutdownGraceSeconds),
            tlsCertificateFile: try object.value(Settings.HTTP.tlsCertificateFile),
            tlsKeyFile: try object.value(Settings.HTTP.tlsKeyFile)
        )
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
        let text = try object.value(Settings.Tokens.userMetadataClaim)
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
            keyFile: try object.value(Settings.EncryptionAtRest.keyFile),
            decryptionKeyFiles: try object.value(Settings.EncryptionAtRest.decryptionKeyFiles),
            pkcs11: try object.object("pkcs11").map { (pkcs11) throws(ConfigurationError) in
                try PKCS11Settings.read(pkcs11, Settings.EncryptionAtRest.pkcs11)
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

    private static func readSRP(_ object: ConfigObject) throws(ConfigurationError) -> SRPSettings {
        let settings = SRPSettings(
            maxFailures: try object.value(Settings.SRP.maxFailures),
            delayAfterFailures: try object.value(Settings.SRP.delayAfterFailures),
            lockSeconds: try object.value(Settings.SRP.lockSeconds),
            addressDelayAfterFailures: try object.value(Settings.SRP.addressDelayAfterFailures),
            sessionLifetimeSeconds: try object.value(Settings.SRP.sessionLifetimeSeconds),
            addressWindowSeconds: try object.value(Settings.SRP.addressWindowSeconds),
            freshLoginMaxAgeSeconds: try object.value(Settings.SRP.freshLoginMaxAgeSeconds)
        )
        try object.rejectUnknownKeys()
        return settings
    }

    private static func readTokens(_ object: ConfigObject) throws(ConfigurationError) -> TokenSettings {
        let settings = TokenSettings(
            accessTokenLifetime: try object.value(Settings.Tokens.accessTokenLifetimeSeconds),
            idTokenLifetime: try object.value(Settings.Tokens.idTokenLifetimeSeconds),
            refreshTokenIdleLifetime: try object.value(Settings.Tokens.refreshTokenIdleLifetimeSeconds),
            refreshTokenAbsoluteLifetime: try object.value(Settings.Tokens.refreshTokenAbsoluteLifetimeSeconds),
            // The action token buys one sensitive action, right after its approval: at most five minutes.
            actionTokenLifetime: try object.value(Settings.Tokens.actionTokenLifetimeSeconds),
            refreshTokenReuseGrace: try object.value(Settings.Tokens.refreshTokenReuseGraceSeconds),
            userMetadataClaim: try readUserMetadataClaim(object),
            accessTokenSigningAlgorithm: try object.value(Settings.Tokens.accessTokenSigningAlg)
        )
        guard settings.refreshTokenIdleLifetime <= settings.refreshTokenAbsoluteLifetime else {
            throw object.error(
                "refresh_token_idle_lifetime_seconds", "must not exceed refresh_token_absolute_lifetime_seconds")
        }
        try object.rejectUnknownKeys()
        return settings
    }
}
