import Foundation
import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Configuration: apis, client_grants, default_audience and the issue #20 settings")
struct APIConfigurationTests {
    static let api = #"[{"identifier": "https://api.example.com/", "scopes": [{"value": "read:x"}]}]"#

    /// The field a configuration with `overrides` is refused for, or nil when it loads.
    static func refusedField(_ overrides: [String: String]) -> String? {
        do {
            _ = try TestConfiguration.make(overrides)
            return nil
        } catch let error as ConfigurationError {
            return error.field
        } catch {
            return "\(error)"
        }
    }

    @Test(
        "defaults: no APIs or grants, the issuer as default audience, RS256 ID tokens, a 30 s grace, no metadata claim")
    func defaults() throws {
        let configuration = try TestConfiguration.make()
        #expect(configuration.apis.isEmpty && configuration.clientGrants.isEmpty)
        #expect(configuration.defaultAudience == configuration.issuer)
        #expect(configuration.api(identifier: configuration.issuer)?.scopes == [])
        #expect(configuration.api(identifier: configuration.deviceKeys.audience) != nil)
        #expect(configuration.clients.first?.idTokenSigningAlgorithm == .rs256)
        #expect(configuration.passkeys.authSessionGraceSeconds == 30)
        #expect(configuration.tokens.userMetadataClaim == nil)
    }

    @Test("an API, a grant for it and a default audience load")
    func loads() throws {
        let configuration = try TestConfiguration.make([
            "PASSKEYD_APIS": Self.api,
            "PASSKEYD_CLIENT_GRANTS":
                #"[{"client_id": "app", "audience": "https://api.example.com/", "scopes": ["read:x"]}]"#,
            "PASSKEYD_DEFAULT_AUDIENCE": "https://api.example.com/",
        ])
        #expect(configuration.defaultAudience == "https://api.example.com/")
        #expect(configuration.clientGrant(clientID: "app", audience: "https://api.example.com/")?.scopes == ["read:x"])
        // No `signing_alg`: `tokens.access_token_signing_alg`, RS256 by default.
        #expect(configuration.api(identifier: "https://api.example.com/")?.signingAlgorithm == .rs256)
    }

    @Test(
        "access tokens are RS256 by default, built-in audiences included; tokens.access_token_signing_alg sets the default, an API's signing_alg overrides it"
    )
    func accessTokenAlgorithm() throws {
        let byDefault = try TestConfiguration.make(["PASSKEYD_APIS": Self.api])
        #expect(byDefault.tokens.accessTokenSigningAlgorithm == .rs256)
        for audience in [byDefault.issuer, byDefault.deviceKeys.audience, byDefault.accountAudience] {
            #expect(byDefault.api(identifier: audience)?.signingAlgorithm == .rs256, "\(audience)")
        }
        let es256 = try TestConfiguration.make([
            "PASSKEYD_TOKENS_ACCESS_TOKEN_SIGNING_ALG": "ES256",
            "PASSKEYD_APIS": #"""
            [{"identifier": "https://api.example.com/"},
             {"identifier": "https://rs.example.com/", "signing_alg": "RS256"}]
            """#,
        ])
        for audience in [es256.issuer, es256.deviceKeys.audience, es256.accountAudience, "https://api.example.com/"] {
            #expect(es256.api(identifier: audience)?.signingAlgorithm == .es256, "\(audience)")
        }
        #expect(es256.api(identifier: "https://rs.example.com/")?.signingAlgorithm == .rs256)
        let override = try TestConfiguration.make([
            "PASSKEYD_APIS": #"[{"identifier": "https://api.example.com/", "signing_alg": "ES256"}]"#
        ])
        #expect(override.api(identifier: "https://api.example.com/")?.signingAlgorithm == .es256)
        #expect(override.api(identifier: override.issuer)?.signingAlgorithm == .rs256)
        #expect(Self.refusedField(["PASSKEYD_TOKENS_ACCESS_TOKEN_SIGNING_ALG": "HS256"]) != nil)
        let recovery = RecoveryToken.access(
            issuer: byDefault.issuer, algorithm: byDefault.tokens.accessTokenSigningAlgorithm)
        #expect(recovery.api.signingAlgorithm == .rs256)
    }

    @Test("each bad API, grant or setting is refused with its field")
    func refusals() {
        let grant = { (body: String) in ["PASSKEYD_APIS": Self.api, "PASSKEYD_CLIENT_GRANTS": "[\(body)]"] }
        #expect(
            Self.refusedField(["PASSKEYD_APIS": #"[{"identifier": "https://auth.example.com/"}]"#])
                == "apis[0].identifier")
        #expect(Self.refusedField(["PASSKEYD_APIS": #"[{"identifier": "has space"}]"#]) == "apis[0].identifier")
        #expect(
            Self.refusedField(["PASSKEYD_APIS": #"[{"identifier": "a"}, {"identifier": "a"}]"#]) == "apis[1].identifier"
        )
        #expect(
            Self.refusedField(["PASSKEYD_APIS": #"[{"identifier": "a", "scopes": [{"value": "openid"}]}]"#])
                == "apis[0].scopes[0].value")
        #expect(
            Self.refusedField(["PASSKEYD_APIS": #"[{"identifier": "a", "signing_alg": "HS256"}]"#])
                == "apis[0].signing_alg")
        #expect(
            Self.refusedField(grant(#"{"client_id": "nobody", "audience": "https://api.example.com/"}"#))
                == "client_grants[0].client_id")
        #expect(
            Self.refusedField(grant(#"{"client_id": "app", "audience": "https://other.example/"}"#))
                == "client_grants[0].audience")
        #expect(
            Self.refusedField(
                grant(#"{"client_id": "app", "audience": "https://api.example.com/", "scopes": ["write:x"]}"#))
                == "client_grants[0].scopes[0]")
        #expect(Self.refusedField(["PASSKEYD_DEFAULT_AUDIENCE": "https://nowhere.example/"]) == "default_audience")
        #expect(
            Self.refusedField(["PASSKEYD_TOKENS_USER_METADATA_CLAIM": "user_metadata"]) == "tokens.user_metadata_claim")
        #expect(
            Self.refusedField(["PASSKEYD_PASSKEYS_AUTH_SESSION_GRACE_SECONDS": "301"])
                == "passkeys.auth_session_grace_seconds")
        #expect(
            Self.refusedField([
                "PASSKEYD_CLIENTS": #"[{"client_id": "app", "id_token_signed_response_alg": "none"}]"#
            ]) == "clients[0].id_token_signed_response_alg")
    }
}
