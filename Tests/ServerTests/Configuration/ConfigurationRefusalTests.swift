import Foundation
import Testing

@testable import Configuration
@testable import Service

/// What `check-config` (and `serve`) say about a configuration they refuse: the nearest known key for an unknown one,
/// the line and column of a JSON syntax error.
@Suite("Configuration refusals that say what was meant")
struct ConfigurationRefusalTests {
    /// A minimal valid document as JSON text, with `members` (JSON text) added at the top level.
    static func document(_ members: String = "") -> String {
        """
        {
          "issuer": "https://auth.example.com/",
          "relying_party": { "id": "example.com", "name": "Example" },
          "realms": [{ "name": "main", "default": true, "identifiers": { "email": "required" } }]
        """ + (members.isEmpty ? "" : ",\n  " + members) + "\n}\n"
    }

    /// The error of loading `text` with `environment`, nil when it loads.
    static func failure(_ text: String, environment: [String: String] = [:]) -> ConfigurationError? {
        do {
            _ = try ConfigurationLoader.load(data: Data(text.utf8), source: "test.json", environment: environment)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "an unknown key names the nearest known one: in its object, or at the top level a section's setting",
        arguments: [
            (#""http": {"max_body_byte": 1}"#, "http.max_body_byte", "http.max_body_bytes"),
            (#""max_body_bytes": 65536"#, "max_body_bytes", "http.max_body_bytes"),
            (#""lisen": {"port": 1}"#, "lisen", "listen"),
            (#""dpop": {"require_nonces": true}"#, "dpop.require_nonces", "dpop.require_nonce"),
            (
                #""clients": [{"client_id": "a", "require_dpo": true}]"#, "clients[0].require_dpo",
                "clients[0].require_dpop"
            ),
        ])
    func didYouMean(members: String, field: String, nearest: String) {
        let error = Self.failure(Self.document(members))
        #expect(error?.field == field)
        #expect(error?.reason == "is not a known setting; did you mean \(nearest)?", "\(String(describing: error))")
    }

    @Test("a key near no known one is refused without a guess")
    func noGuess() {
        let error = Self.failure(Self.document(#""http": {"compression": true}"#))
        #expect(error == ConfigurationError(field: "http.compression", reason: "is not a known setting"))
    }

    @Test("an unknown PASSKEYD_ variable names the nearest known variable")
    func variableDidYouMean() {
        let error = Self.failure(Self.document(), environment: ["PASSKEYD_LISTEN_PROT": "1"])
        #expect(error?.field == "PASSKEYD_LISTEN_PROT")
        #expect(error?.reason == "is not a known setting; did you mean PASSKEYD_LISTEN_PORT?")
        #expect(
            Self.failure(Self.document(), environment: ["PASSKEYD_NOTHING_LIKE_IT": "1"])?.reason
                == "is not a known setting")
    }

    @Test(
        "a JSON syntax error or a repeated key says the line and column where the parser stopped",
        arguments: [
            // The trailing comma: the parser expected a member name at the `}`.
            ("{\n  \"listen\": {\"port\": 8080,}\n}", "is not valid JSON at line 2, column 27 ("),
            // Columns count characters, not bytes.
            ("{\"issuer\": \"é\" \"x\"}", "is not valid JSON at line 1, column 16 ("),
            ("{}\n\n  x", "is not valid JSON at line 3, column 3 ("),
            ("{\n  \"a\": 1,\n  \"a\": 2\n}", "repeats a key at line 3, column 6 ("),
            ("", "is not valid JSON at line 1, column 1 ("),
        ])
    func jsonErrorPosition(text: String, reason: String) {
        let error = Self.failure(text)
        #expect(error?.field == "test.json")
        #expect(error?.reason.hasPrefix(reason) == true, "\(String(describing: error))")
    }

    @Test("a JSON environment value's syntax error says where in the value")
    func jsonVariablePosition() {
        let error = Self.failure(Self.document(), environment: ["PASSKEYD_CLIENTS": "[{\"client_id\": }]"])
        #expect(error?.field == "PASSKEYD_CLIENTS")
        #expect(
            error?.reason.hasPrefix("is not valid JSON at line 1, column 16 (") == true, "\(String(describing: error))")
    }

    @Test("several realms none of which is marked default are refused; one marked, or a single realm, loads")
    func defaultRealm() throws {
        let two = """
            "realms": [{"name": "a", "identifiers": {"email": "required"}},
                       {"name": "b", "identifiers": {"username": "required"}}]
            """
        var text = Self.document().replacingOccurrences(
            of: #""realms": [{ "name": "main", "default": true, "identifiers": { "email": "required" } }]"#, with: two)
        let error = Self.failure(text)
        #expect(error?.field == "realms")
        #expect(error?.reason.contains(#"one must be marked "default": true"#) == true, "\(String(describing: error))")
        text = text.replacingOccurrences(of: #"{"name": "b","#, with: #"{"name": "b", "default": true,"#)
        let marked = try ConfigurationLoader.load(data: Data(text.utf8), source: "test.json", environment: [:])
        #expect(marked.defaultRealm?.name == "b")
        let single = try ConfigurationLoader.load(
            data: Data(Self.document().replacingOccurrences(of: #""default": true, "#, with: "").utf8),
            source: "test.json", environment: [:])
        #expect(single.defaultRealm?.name == "main")
    }

    @Test("the edit distance counts insertions, deletions, substitutions and a swap of neighbours as one each")
    func editDistance() {
        #expect(NearestName.editDistance("thread", "threads") == 1)
        #expect(NearestName.editDistance("prot", "port") == 1)
        #expect(NearestName.editDistance("lisen", "listen") == 1)
        #expect(NearestName.editDistance("", "abc") == 3)
        #expect(NearestName.editDistance("kitten", "sitting") == 3)
        #expect(NearestName.nearest(to: "thread", among: ["threads", "shutdown_grace_seconds"]) == "threads")
        #expect(NearestName.nearest(to: "compression", among: ["connection_limit", "threads"]) == nil)
    }
}
