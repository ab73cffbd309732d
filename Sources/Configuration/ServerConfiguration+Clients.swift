import Crypto
import Foundation
import JSON
import Tokens
import WebAuthn

extension ServerConfiguration {
    package static func readClient(_ object: ConfigObject, rpID: String) throws(ConfigurationError)
        -> ClientConfiguration
    {
        let clientID = try object.string("client_id")
        guard !clientID.isEmpty, clientID.count <= 128,
            clientID.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        else { throw object.error("client_id", "must be 1 to 128 printable ASCII characters") }
        let grantTypes = try object.stringArray("grant_types", default: [ClientConfiguration.webAuthnGrant])
        for (index, grant) in grantTypes.enumerated() where GrantType(rawValue: grant) == nil {
            throw object.error("grant_types[\(index)]", "unknown grant type \"\(grant)\"")
        }
        let webOrigins = try object.stringArray("web_origins")
        try OriginRules.validate(webOrigins, rpID: rpID, field: "\(object.path).web_origins")
        let refreshText = try object.string("refresh_tokens", default: "offline_access")
        guard let refreshTokens = ClientConfiguration.RefreshTokenIssuance(rawValue: refreshText) else {
            throw object.error("refresh_tokens", "must be offline_access, always or never")
        }
        let userVerification = try UserVerificationPolicy.read(object)
        var ios: ClientConfiguration.IOSApp?
        var android: ClientConfiguration.AndroidApp?
        if let mobile = try object.object("mobile") {
            if let iosObject = try mobile.object("ios") {
                let teamID = try iosObject.string("team_id")
                // Apple team identifiers are ten upper-case alphanumerics.
                guard teamID.count == 10,
                    teamID.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
                else { throw iosObject.error("team_id", "must be 10 upper-case letters or digits") }
                let bundle = try iosObject.string("app_bundle_identifier")
                guard !bundle.isEmpty, !bundle.contains(" ") else {
                    throw iosObject.error(
                        "app_bundle_identifier", "must be a bundle identifier such as com.example.app")
                }
                try iosObject.rejectUnknownKeys()
                ios = .init(teamID: teamID, bundleIdentifier: bundle)
            }
            if let androidObject = try mobile.object("android") {
                let package = try androidObject.string("app_package_name")
                guard !package.isEmpty, !package.contains(" ") else {
                    throw androidObject.error("app_package_name", "must be a package name such as com.example.app")
                }
                let fingerprints = try androidObject.stringArray("sha256_cert_fingerprints")
                guard !fingerprints.isEmpty else {
                    throw androidObject.error("sha256_cert_fingerprints", "at least one fingerprint is required")
                }
                for (index, fingerprint) in fingerprints.enumerated()
                where ClientConfiguration.fingerprintBytes(fingerprint) == nil {
                    throw androidObject.error(
                        "sha256_cert_fingerprints[\(index)]", "must be 32 colon-separated hex bytes (AA:BB:…)")
                }
                try androidObject.rejectUnknownKeys()
                android = .init(packageName: package, sha256CertFingerprints: fingerprints.map { $0.uppercased() })
            }
            try mobile.rejectUnknownKeys()
        }
        var attestation = ClientConfiguration.DeviceKeyAttestationPolicy.none
        var appAttestEnvironment = ClientConfiguration.AppAttestEnvironment.production
        if let deviceKeys = try object.object("device_keys") {
            let text = try deviceKeys.string("attestation", default: "none")
            guard let policy = ClientConfiguration.DeviceKeyAttestationPolicy(rawValue: text) else {
                throw deviceKeys.error("attestation", "must be none, preferred or required")
            }
            attestation = policy
            let environment = try deviceKeys.string("app_attest_environment", default: "production")
            guard let accepted = ClientConfiguration.AppAttestEnvironment(rawValue: environment) else {
                throw deviceKeys.error("app_attest_environment", "must be production or development")
            }
            appAttestEnvironment = accepted
            try deviceKeys.rejectUnknownKeys()
        }
        let hints = try object.stringArray("hints")
        for (index, hint) in hints.enumerated() where !["security-key", "client-device", "hybrid"].contains(hint) {
            throw object.error("hints[\(index)]", "must be security-key, client-device or hybrid (WebAuthn L3 §5.8.7)")
        }
        let idTokenAlgorithmText = try object.string(
            "id_token_signed_response_alg", default: TokenSigningAlgorithm.rs256.rawValue)
        guard let idTokenAlgorithm = TokenSigningAlgorithm(rawValue: idTokenAlgorithmText) else {
            throw object.error("id_token_signed_response_alg", "must be RS256 or ES256")
        }
        var client = ClientConfiguration(
            clientID: clientID, name: try object.string("name", default: clientID), grantTypes: grantTypes,
            webOrigins: webOrigins, refreshTokens: refreshTokens, ios: ios, android: android,
            userVerification: userVerification, requireDPoP: try object.bool("require_dpop", default: false),
            deviceKeyAttestation: attestation, appAttestEnvironment: appAttestEnvironment,
            idTokenSigningAlgorithm: idTokenAlgorithm)
        client.passkeyHints = hints
        let introspectionAlgorithm = try object.string(
            "introspection_signed_response_alg", default: TokenSigningAlgorithm.rs256.rawValue)
        guard let introspectionSigning = TokenSigningAlgorithm(rawValue: introspectionAlgorithm) else {
            throw object.error("introspection_signed_response_alg", "must be RS256 or ES256")
        }
        client.introspectionSigningAlgorithm = introspectionSigning
        let conveyance = try object.string("attestation", default: AttestationConveyance.none.rawValue)
        guard let attestationConveyance = AttestationConveyance(rawValue: conveyance) else {
            throw object.error("attestation", "must be none, indirect, direct or enterprise (WebAuthn L3 §5.4.7)")
        }
        client.attestation = attestationConveyance
        client.attestationFormats = try Self.attestationFormats(object, attestation: attestationConveyance)
        client.authenticators = try AuthenticatorPolicy.read(object, attestation: attestationConveyance)
        let organizationUsage = try object.string("organization_usage", default: "deny")
        guard let usage = ClientConfiguration.OrganizationUsage(rawValue: organizationUsage) else {
            throw object.error("organization_usage", "must be deny, allow or require")
        }
        client.organizationUsage = usage
        // Resolved and checked against the APIs once they are read (`resolvingPasswordLoginAudiences`).
        client.passwordLoginAudiences = try object.stringArray("password_login_audiences")
        // Checked against the APIs and client grants once they are read (`checkRefreshTokenPolicies`).
        client.refreshTokenPolicies = try readRefreshTokenPolicies(object)
        client.redirectURIs = try RedirectURIRules.read(object, "redirect_uris")
        client.postLogoutRedirectURIs = try RedirectURIRules.read(object, "post_logout_redirect_uris")
        client.requirePushedAuthorizationRequests = try object.bool(
            "require_pushed_authorization_requests", default: false)
        if client.requirePushedAuthorizationRequests, !client.allows(.authorizationCode) {
            throw object.error("require_pushed_authorization_requests", "applies to a client with authorization_code")
        }
        if client.allows(.authorizationCode), client.redirectURIs.isEmpty {
            throw object.error("redirect_uris", "a client with authorization_code needs at least one redirect URI")
        }
        client.secretHashes = try readSecretHashes(object)
        client.assertionKeys = try readAssertionKeys(object)
        // RFC 6749 §4.4: "The client credentials grant type MUST only be used by confidential clients."
        if client.allows(.clientCredentials), !client.isConfidential {
            throw object.error(
                "grant_types", "client_credentials is for a confidential client: list its client_secret_sha256 or jwks")
        }
        client.tokenQuota = try readTokenQuota(object, client: client)
        try object.rejectUnknownKeys()
        return client
    }

    /// `token_quota.client_credentials` (Auth0's client setting): `per_hour` and/or `per_day`, each 1 to a billion,
    /// and `enforce` (default `true`); only for a client with the client credentials grant.
    private static func readTokenQuota(_ object: ConfigObject, client: ClientConfiguration) throws(ConfigurationError)
        -> TokenQuota?
    {
        guard let quota = try object.object("token_quota") else { return nil }
        let machine = try quota.object("client_credentials")
        try quota.rejectUnknownKeys()
        guard let machine else { throw quota.error("client_credentials", "is required") }
        guard client.allows(.clientCredentials) else {
            throw object.error("token_quota", "applies to a client with client_credentials")
        }
        // A window left out is not limited.
        let limits = TokenQuota(
            perHour: try machine.optionalInt("per_hour", range: 1...TokenQuota.maximum),
            perDay: try machine.optionalInt("per_day", range: 1...TokenQuota.maximum),
            enforce: try machine.bool("enforce", default: true))
        try machine.rejectUnknownKeys()
        guard limits.perHour != nil || limits.perDay != nil else {
            throw quota.error("client_credentials", "needs per_hour or per_day")
        }
        return limits
    }

    /// `client_secret_sha256`: the base64url SHA-256 of each secret the client may authenticate with (RFC 6749
    /// §2.3.1), several while a secret is being replaced; none for a public client. The file holds no secret.
    /// `attestation_formats` (WebAuthn L3 §5.4 `attestationFormats`): formats this server verifies
    /// (`AttestationFormatRegistry.standard`), each once. Refused with `attestation: none`, which makes browsers
    /// replace any attestation with `none` (§5.4.7), so a preference would name formats that never arrive.
    private static func attestationFormats(_ object: ConfigObject, attestation: AttestationConveyance)
        throws(ConfigurationError) -> [String]
    {
        let formats = try object.stringArray("attestation_formats")
        let supported = AttestationFormatRegistry.standard
        for (index, format) in formats.enumerated() {
            guard supported.supports(format) else {
                throw object.error(
                    "attestation_formats[\(index)]",
                    "must be a format this server verifies: \(supported.identifiers.joined(separator: ", "))")
            }
            guard !formats[..<index].contains(format) else {
                throw object.error("attestation_formats[\(index)]", "repeats \(format)")
            }
        }
        guard formats.isEmpty || attestation != .none else {
            throw object.error(
                "attestation_formats", "needs attestation indirect, direct or enterprise: with none, browsers strip it")
        }
        return formats
    }

    /// `jwks` (RFC 7591 §2): `{"keys": [JWK, …]}`, the public keys of the client's `private_key_jwt` assertions (RFC
    /// 7523), RSA (at least 2048 bits, RS256) or EC P-256 (ES256), at most 10; each `kid` once, and every key named
    /// when there are several (a single key without `kid` is named by its RFC 7638 thumbprint, and an assertion
    /// without `kid` uses it).
    private static func readAssertionKeys(_ object: ConfigObject) throws(ConfigurationError)
        -> [String: JWTVerificationKey]
    {
        guard let set = try object.json("jwks") else { return [:] }
        guard let keys = set["keys"]?.arrayValue, (1...10).contains(keys.count) else {
            throw object.error("jwks", "must be {\"keys\": [...]} with 1 to 10 public keys (RFC 7517 §5)")
        }
        var byID: [String: JWTVerificationKey] = [:]
        for (index, jwk) in keys.enumerated() {
            let key: JWTVerificationKey
            do {
                key = try JWTVerificationKey(jwk: jwk)
            } catch {
                throw object.error("jwks.keys[\(index)]", error.reason)
            }
            let keyID: String
            switch (jwk["kid"], keys.count) {
            case (.some(let value), _):
                guard let text = value.stringValue, !text.isEmpty, text.utf8.count <= 256 else {
                    throw object.error("jwks.keys[\(index)].kid", "must be a string of 1 to 256 bytes")
                }
                keyID = text
            case (nil, 1):
                keyID = key.thumbprint
            case (nil, _):
                throw object.error("jwks.keys[\(index)].kid", "is required when the set has several keys")
            }
            guard byID.updateValue(key, forKey: keyID) == nil else {
                throw object.error("jwks.keys[\(index)].kid", "repeats \(keyID)")
            }
        }
        return byID
    }

    private static func readSecretHashes(_ object: ConfigObject) throws(ConfigurationError) -> [[UInt8]] {
        let texts = try object.stringArray("client_secret_sha256")
        var hashes: [[UInt8]] = []
        for (index, text) in texts.enumerated() {
            guard let hash = Base64URL.decode(text), hash.count == 32 else {
                throw object.error(
                    "client_secret_sha256[\(index)]",
                    "must be the base64url SHA-256 of a secret, 43 characters (passkeyd clients new-secret prints one)")
            }
            hashes.append(hash)
        }
        return hashes
    }

    package static func readRealm(_ object: ConfigObject) throws(ConfigurationError) -> RealmConfiguration {
        let name = try object.string("name")
        guard !name.isEmpty, name.count <= 128 else { throw object.error("name", "must be 1 to 128 characters") }
        let isDefault = try object.bool("default", default: false)
        let identifiers =
            try object.object("identifiers") ?? object.child(["email": "required"], path: "\(object.path).identifiers")
        func requirement(_ key: String) throws(ConfigurationError) -> RealmConfiguration.Requirement {
            let text = try identifiers.string(key, default: "off")
            guard let value = RealmConfiguration.Requirement(rawValue: text) else {
                throw identifiers.error(key, "must be required, optional or off")
            }
            return value
        }
        let email = try requirement("email")
        let phone = try requirement("phone_number")
        let username = try requirement("username")
        try identifiers.rejectUnknownKeys()
        guard [email, phone, username].contains(where: { $0 != .off }) else {
            throw ConfigurationError(field: identifiers.path, reason: "at least one identifier must be enabled")
        }
        let policyObject =
            try object.object("username_policy") ?? object.child([:], path: "\(object.path).username_policy")
        let policy = RealmConfiguration.UsernamePolicy(
            minLength: try policyObject.int("min_length", default: 3, range: 1...128),
            maxLength: try policyObject.int("max_length", default: 32, range: 1...128))
        guard policy.minLength <= policy.maxLength else {
            throw policyObject.error("min_length", "must not exceed max_length")
        }
        try policyObject.rejectUnknownKeys()
        let relatedOrigins = try object.stringArray("related_origins")
        try OriginRules.validateRelated(relatedOrigins, field: "\(object.path).related_origins")
        try object.rejectUnknownKeys()
        return RealmConfiguration(
            name: name, isDefault: isDefault, email: email, phoneNumber: phone, username: username,
            usernamePolicy: policy, relatedOrigins: relatedOrigins)
    }
}
