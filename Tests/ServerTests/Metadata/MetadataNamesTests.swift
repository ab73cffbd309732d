import Crypto
import Foundation
import HTTP
import JSON
import Metadata
import TestSupport
import Testing

@testable import Service

/// `GET /me/passkeys` names each passkey's authenticator from the BLOB in use (`AuthenticatorNames`).
@Suite("Authenticator names and icons from FIDO metadata")
struct MetadataNamesTests {
    /// The first passkey of `GET /me/passkeys`.
    static func firstPasskey(_ harness: PasskeyHarness, _ auth: HTTPHeaders) async throws -> JSONValue {
        let response = await harness.client.get("/me/passkeys", headers: auth)
        try #require(response.status == 200, "\(response.bodyText)")
        return try #require(try response.jsonValue()["passkeys"]?.arrayValue?.first)
    }

    @Test("the statement's description, icon and latest status; the built-in name before a BLOB; the user's name first")
    func mePasskeys() async throws {
        let fixture = try MetadataFixture()
        defer { fixture.remove() }
        let harness = try PasskeyHarness(fixture.environment(withFile: true))
        var passkey = Passkey()
        passkey.authenticator.aaguid = MetadataFixture.aaguid
        let auth = PasskeyHarness.bearer(try await harness.signUpForMyAccount(&passkey).token)

        let before = try await Self.firstPasskey(harness, auth)
        #expect(before["aaguid"]?.stringValue == UUIDText.format(MetadataFixture.aaguid))
        #expect(before["name"]?.stringValue == "Passkey")
        #expect(before["authenticator"] == ["name": "Passkey", "icon": .null, "status": .null])

        let now = harness.clock.now()
        let entry = MetadataFixture.entry(reports: [(.fidoCertifiedL1, "2020-01-01"), (.revoked, "2021-06-01")])
        try fixture.write(try fixture.blob(serial: 1, now: now, entries: [entry]))
        await harness.context.metadata.refresh()
        let named = try await Self.firstPasskey(harness, auth)
        #expect(named["name"]?.stringValue == "Acme Test Key")
        #expect(
            named["authenticator"]
                == ["name": "Acme Test Key", "icon": "data:image/png;base64,iVBORw0KGgo=", "status": "REVOKED"])
        // The My Account API names the method through the same resolver.
        let methods = await harness.client.get(PasskeyHarness.methodsPath, headers: auth)
        try #require(methods.status == 200, "\(methods.bodyText)")
        let method = try #require(try methods.jsonValue()["authentication_methods"]?.arrayValue?.first)
        #expect(method["name"]?.stringValue == "Acme Test Key")

        let id = Base64URL.encode(passkey.credentialID)
        let renamed = await harness.client.patch("/me/passkeys/\(id)", json: ["name": "Mine"], headers: auth)
        #expect(renamed.status == 200, "\(renamed.bodyText)")
        #expect(try renamed.jsonValue()["name"]?.stringValue == "Mine")
        #expect(try renamed.jsonValue()["authenticator"]?["name"]?.stringValue == "Acme Test Key")
        #expect(try await Self.firstPasskey(harness, auth)["name"]?.stringValue == "Mine")
    }

    @Test("only a data:image icon is passed on; an empty description falls back to the built-in name")
    func iconAndDescription() throws {
        let fixture = try MetadataFixture()
        defer { fixture.remove() }
        let now = Date()
        func names(_ entry: JSONValue) throws -> AuthenticatorNames {
            let blob = try MetadataBLOBVerifier(roots: [fixture.authority.root])
                .verify(
                    try fixture.authority.blob(
                        serial: 1, nextUpdate: MetadataFixture.day(9, after: now), entries: [entry]), at: now)
            return AuthenticatorNames(snapshot: MetadataSnapshot(blob: blob, loadedAt: now, source: "cli"), now: now)
        }
        let linked = try names(
            MetadataTestAuthority.entry(
                aaguid: MetadataFixture.aaguid, reports: [(.fidoCertified, "2020-01-01")], description: "Linked",
                icon: "https://icons.example/key.png"))
        #expect(
            linked.authenticator(aaguid: MetadataFixture.aaguid)
                == .init(name: "Linked", icon: nil, status: .fidoCertified))
        let uuid = try #require(UUID(uuidString: "08987058-cadc-4b81-b6e1-30de50dcbe96"))
        let windowsHello = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        let blank = try names(
            MetadataTestAuthority.entry(aaguid: windowsHello, reports: [(.fidoCertified, nil)], description: " "))
        #expect(blank.authenticator(aaguid: windowsHello).name == "Windows Hello")
        #expect(blank.authenticator(aaguid: MetadataFixture.aaguid).name == "Passkey", "no entry, not in the list")
        #expect(AuthenticatorNames(snapshot: nil, now: now).authenticator(aaguid: windowsHello).status == nil)
    }
}
