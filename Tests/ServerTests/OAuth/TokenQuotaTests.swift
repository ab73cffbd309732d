import Commands
import Configuration
import Foundation
import HTTP
import JSON
import Testing

@testable import Endpoints
@testable import Service

/// `token_quota.client_credentials` (Auth0's client setting): a machine client's tokens counted per UTC hour and day;
/// over an enforced quota 429 `too_many_requests` with `Retry-After` until the full window ends, over one that is not
/// enforced only a metric.
@Suite("Token quotas of machine clients")
struct TokenQuotaTests {
    static let api = "https://jobs.example.com/"
    static let secret = "machine-Secret_0123456789abcdefghijklmnopqrst"

    static func harness() throws -> PasskeyHarness {
        let hash = ClientsNewSecretCommand.hash(of: secret)
        return try PasskeyHarness([
            "PASSKEYD_CLIENTS": """
            [{"client_id": "hourly", "grant_types": ["client_credentials"], "client_secret_sha256": ["\(hash)"],
              "token_quota": {"client_credentials": {"per_hour": 2, "per_day": 3}}},
             {"client_id": "watched", "grant_types": ["client_credentials"], "client_secret_sha256": ["\(hash)"],
              "token_quota": {"client_credentials": {"per_hour": 1, "enforce": false}}},
             {"client_id": "free", "grant_types": ["client_credentials"], "client_secret_sha256": ["\(hash)"]}]
            """,
            "PASSKEYD_APIS": #"[{"identifier": "\#(api)", "scopes": [{"value": "jobs:run"}]}]"#,
            "PASSKEYD_CLIENT_GRANTS": """
            [{"client_id": "hourly", "audience": "\(api)", "scopes": ["jobs:run"]},
             {"client_id": "watched", "audience": "\(api)", "scopes": ["jobs:run"]},
             {"client_id": "free", "audience": "\(api)", "scopes": ["jobs:run"]}]
            """,
        ])
    }

    static func token(_ harness: PasskeyHarness, _ clientID: String) async -> Response {
        await harness.client.post(
            "/oauth/token",
            form: [
                ("grant_type", "client_credentials"), ("client_id", clientID), ("client_secret", secret),
                ("audience", api),
            ])
    }

    @Test("per_hour, then per_day: 429 with Retry-After until the full window ends, then tokens again")
    func enforced() async throws {
        let harness = try Self.harness()
        // The test clock starts on an hour boundary (1_800_000_000 s), 57,600 s before the UTC day ends.
        for _ in 0..<2 { #expect(await Self.token(harness, "hourly").status == 200) }
        let overHour = await Self.token(harness, "hourly")
        #expect(overHour.status == 429, "\(overHour.bodyText)")
        #expect(try overHour.jsonValue()["error"] == "too_many_requests")
        #expect(overHour.headers["Retry-After"] == "3600")
        harness.clock.advance(600)
        #expect(await Self.token(harness, "hourly").headers["Retry-After"] == "3000")
        // Another client is not touched by this one's quota.
        #expect(await Self.token(harness, "free").status == 200)
        // The next hour: one more token, then the day's quota (3) is used up until the day ends.
        harness.clock.advance(3_000)
        #expect(await Self.token(harness, "hourly").status == 200)
        let overDay = await Self.token(harness, "hourly")
        #expect(overDay.status == 429)
        #expect(overDay.headers["Retry-After"] == String(57_600 - 3_600))
        harness.clock.advance(57_600 - 3_600)
        #expect(await Self.token(harness, "hourly").status == 200)
        #expect(harness.context.metrics.render().contains(#"{event="token_quota_exceeded"} 3"#))
    }

    @Test("a quota that is not enforced is counted, never refused")
    func unenforced() async throws {
        let harness = try Self.harness()
        for _ in 0..<3 { #expect(await Self.token(harness, "watched").status == 200) }
        #expect(harness.context.metrics.render().contains(#"{event="token_quota_exceeded_unenforced"} 2"#))
    }

    @Test(
        "a quota is checked at start: only for client_credentials, a window needed, each 1 to a billion",
        arguments: [
            #"{"client_credentials": {}}"#, #"{"client_credentials": {"per_hour": 0}}"#,
            #"{"client_credentials": {"per_day": 1.5}}"#, #"{"client_credentials": {"per_day": 1000000001}}"#,
            #"{"client_credentials": {"per_minute": 5}}"#, #"{"client_credentials": {"per_hour": 1, "enforce": "no"}}"#,
            #"{"authorization_code": {"per_hour": 5}}"#, "{}",
        ])
    func configuration(quota: String) throws {
        let hash = ClientsNewSecretCommand.hash(of: Self.secret)
        let machine = #"{"client_id": "m", "grant_types": ["client_credentials"], "client_secret_sha256": ["\#(hash)"]"#
        // The same client loads with a valid quota, so each refusal below is the quota's.
        _ = try PasskeyHarness([
            "PASSKEYD_CLIENTS": "[\(machine), \"token_quota\": {\"client_credentials\": {\"per_day\": 10}}}]"
        ])
        #expect(throws: ConfigurationError.self, "\(quota)") {
            try PasskeyHarness(["PASSKEYD_CLIENTS": "[\(machine), \"token_quota\": \(quota)}]"])
        }
    }

    @Test("a client without the client credentials grant cannot have a token quota")
    func onlyMachineClients() {
        #expect(throws: ConfigurationError.self) {
            try PasskeyHarness([
                "PASSKEYD_CLIENTS": #"[{"client_id": "app", "token_quota": {"client_credentials": {"per_hour": 5}}}]"#
            ])
        }
    }
}
