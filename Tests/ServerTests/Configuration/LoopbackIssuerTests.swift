import Foundation
import Testing

@testable import Configuration

/// A document of the shipped `Config/passkeyd.json`'s shape: a loopback issuer on the file's own listen port, that
/// origin among the shared web origins and a client's, `extra` merged at the top level.
private func localDocument(issuer: String = "http://localhost:8080/", port: Int? = 8080, extra: [String: Any] = [:])
    -> [String: Any]
{
    var document: [String: Any] = [
        "issuer": issuer,
        "relying_party": ["id": "localhost", "name": "Local"],
        "web_origins": ["http://localhost:8080", "http://localhost:3000"],
        "clients": [
            [
                "client_id": "app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn"],
                "web_origins": ["http://localhost:8080"],
            ]
        ],
        "realms": [["name": "main", "default": true, "identifiers": ["email": "required"]]],
    ]
    if let port { document["listen"] = ["port": port] }
    for (key, value) in extra { document[key] = value }
    return document
}

private func load(
    _ document: [String: Any], environment: [String: String] = [:], flags: ConfigurationLoader.Flags = .init()
) throws -> ServerConfiguration {
    let data = try JSONSerialization.data(withJSONObject: document)
    return try ConfigurationLoader.load(data: data, source: "test.json", environment: environment, flags: flags)
}

@Suite("A loopback issuer on the file's listen port follows --port and PASSKEYD_LISTEN_PORT")
struct LoopbackIssuerTests {
    @Test("--port moves the issuer, the web origins equal to its origin, the demo's origin and the derived audiences")
    func flagMoves() throws {
        let configuration = try load(
            localDocument(extra: ["web": ["demo": true]]), flags: ConfigurationLoader.Flags(port: 9100))
        #expect(configuration.listen.port == 9100)
        #expect(configuration.issuer == "http://localhost:9100/")
        #expect(configuration.webOrigins == ["http://localhost:9100", "http://localhost:3000"])
        #expect(configuration.client(id: "app")?.webOrigins == ["http://localhost:9100"])
        #expect(configuration.web.demo?.origin == "http://localhost:9100")
        #expect(configuration.accountAudience == "http://localhost:9100/me/")
        #expect(configuration.deviceKeys.audience == "http://localhost:9100/device-keys")
        #expect(configuration.warnings.isEmpty)
    }

    @Test("PASSKEYD_LISTEN_PORT moves it too, also from a file that leaves listen.port at its default 8080")
    func environmentMoves() throws {
        let moved = try load(localDocument(), environment: ["PASSKEYD_LISTEN_PORT": "9200"])
        #expect(moved.issuer == "http://localhost:9200/")
        #expect(moved.webOrigins == ["http://localhost:9200", "http://localhost:3000"])
        let defaulted = try load(localDocument(port: nil), environment: ["PASSKEYD_LISTEN_PORT": "9201"])
        #expect(defaulted.issuer == "http://localhost:9201/")
        let loopbackAddress = try load(
            localDocument(issuer: "http://127.0.0.1:8080"), flags: ConfigurationLoader.Flags(port: 9202))
        #expect(loopbackAddress.issuer == "http://127.0.0.1:9202/")
    }

    @Test("an explicit PASSKEYD_ISSUER wins: nothing moves, and the port it names draws a warning")
    func explicitIssuerWins() throws {
        let configuration = try load(
            localDocument(), environment: ["PASSKEYD_ISSUER": "http://localhost:8080/"],
            flags: ConfigurationLoader.Flags(port: 9300))
        #expect(configuration.issuer == "http://localhost:8080/")
        #expect(configuration.webOrigins == ["http://localhost:8080", "http://localhost:3000"])
        #expect(configuration.warnings.map(\.field) == ["issuer"])
        #expect(
            configuration.warnings.first?.reason.hasPrefix(
                "http://localhost:8080/ is on port 8080 while the server listens on 9300") == true)
        let followed = try load(
            localDocument(), environment: ["PASSKEYD_ISSUER": "http://localhost:9301/"],
            flags: ConfigurationLoader.Flags(port: 9301))
        #expect(followed.issuer == "http://localhost:9301/")
        #expect(followed.warnings.isEmpty)
    }

    @Test("no move: another host, another port than the file's listen.port, port 0, or the same port")
    func noMove() throws {
        let proxied = try load(
            localDocument(
                issuer: "https://auth.example.com/", extra: ["relying_party": ["id": "example.com", "name": "Example"]]
            )
            .merging(["web_origins": [], "clients": []]) { $1 }, flags: ConfigurationLoader.Flags(port: 9400))
        #expect(proxied.issuer == "https://auth.example.com/")
        // Behind a reverse proxy on the scheme's default port: the listener is not the issuer's port, no warning.
        #expect(proxied.warnings.isEmpty)

        let otherPort = try load(
            localDocument(issuer: "http://localhost:8081/"), flags: ConfigurationLoader.Flags(port: 9401))
        #expect(otherPort.issuer == "http://localhost:8081/")
        #expect(otherPort.warnings.map(\.field) == ["issuer"])

        let picked = try load(localDocument(), flags: ConfigurationLoader.Flags(port: 0))
        #expect(picked.issuer == "http://localhost:8080/")
        #expect(picked.webOrigins == ["http://localhost:8080", "http://localhost:3000"])
        #expect(picked.warnings.isEmpty)

        let same = try load(localDocument(), flags: ConfigurationLoader.Flags(port: 8080))
        #expect(same.issuer == "http://localhost:8080/")
        #expect(same.warnings.isEmpty)
    }

    @Test("an issuer that names a port other than the file's listen port draws a warning at load")
    func explicitPortWarning() throws {
        let configuration = try load(
            localDocument(
                issuer: "https://auth.example.com:8443/",
                extra: ["relying_party": ["id": "example.com", "name": "Example"]]
            )
            .merging(["web_origins": [], "clients": []]) { $1 })
        #expect(configuration.warnings.map(\.field) == ["issuer"])
        #expect(
            configuration.warnings.first?.reason.hasPrefix(
                "https://auth.example.com:8443/ is on port 8443 while the server listens on 8080") == true)
    }
}
