import Crypto
import Foundation
import HTTP
import Storage
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Device keys: register, list, revoke (router level)")
struct DeviceKeyEndpointsRegistrationTests {
    /// A P-384 SPKI (Wycheproof ecdsa_secp384r1_sha384_test.json, first group), as in DeviceKeysTests.
    static let p384SPKI =
        "3076301006072a8648ce3d020106052b810400220362000429bdb76d5fa741bfd70233cb3a66cc7d44"
        + "beb3b0663d92a8136650478bcefb61ef182e155a54345a5e8e5e88f064e5bc9a525ab7f764dad3dae1468c2b4"
        + "19f3b62b9ba917d5e8c4fb1ec47404a3fc76474b2713081be9db4c00e043ada9fc4a3"

    @Test("an iOS X9.62 key and an Android SPKI key register: 201 with the documented members")
    func registersBothFormats() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        for device in [
            try TestDevice(deviceID: "iphone", platform: "ios"),
            try TestDevice(deviceID: "pixel", platform: "android"),
        ] {
            let response = await harness.client.post(
                "/device-keys", json: device.registration, headers: auth)
            #expect(response.status == 201)
            let body = try response.jsonValue()
            #expect(
                body.objectMembers?.map(\.key).sorted() == [
                    "attestation", "created_at", "device_id", "key_id", "platform", "status",
                ])
            #expect(body["device_id"]?.stringValue == device.deviceID)
            #expect(body["platform"]?.stringValue == device.platform)
            #expect(body["status"]?.stringValue == "active")
            #expect(body["created_at"]?.stringValue == "2027-01-15T08:00:00Z")
            let keyID = try #require(body["key_id"]?.stringValue)
            // Stored canonically as SPKI, whichever form came in.
            let stored = try #require(try await harness.storedKey(keyID))
            #expect(stored.publicKey == device.key.publicKey.derRepresentation)
        }
        let kinds = try await harness.events().map(\.kind)
        #expect(kinds == ["device_key_registered", "device_key_registered"])
    }

    static func point(_ mutate: (inout [UInt8]) -> Void) throws -> String {
        var bytes = try P256SigningKey().publicKey.x963Representation
        mutate(&bytes)
        return Base64URL.encode(bytes)
    }

    static func refusedKeys() throws -> [(String, String)] {
        [
            ("compressed", try point { bytes in bytes = [0x02] + bytes[1..<33] }),
            ("off-curve", try point { bytes in bytes[64] ^= 0x01 }),
            ("wrong length", try point { bytes in bytes.removeLast() }),
            ("P-384", Base64URL.encode(Hex.decode(p384SPKI))),
            ("RSA", Base64URL.encode(try RSASigningKey(bits: 2048).publicKey.derRepresentation)),
            ("garbage", Base64URL.encode(Array("not a key at all".utf8))),
            ("empty", ""),
            ("not base64url", "a+b/c=="),
        ]
    }

    @Test(
        "other curves, off-curve and compressed points, RSA and garbage: 400 invalid_request naming the reason"
    )
    func refusesBadKeys() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        var descriptions: Set<String> = []
        for (name, publicKey) in try Self.refusedKeys() {
            let response = await harness.client.post(
                "/device-keys",
                json: ["device_id": "d", "platform": "ios", "public_key": .string(publicKey)],
                headers: auth)
            #expect(response.status == 400, "\(name)")
            #expect(response.errorCode == "invalid_request", "\(name)")
            let description = try response.jsonValue()["error_description"]?.stringValue ?? ""
            #expect(description.contains("public_key"), "\(name): \(description)")
            descriptions.insert(description)
        }
        // Each reason has its own description (compressed, off-curve, length, curve, key type, format, encoding…).
        #expect(descriptions.count >= 7)
        #expect(try await harness.store.read { try $0.deviceKeys(userID: "user-a") }.isEmpty)
    }

    @Test(
        "a missing or malformed member is 400 invalid_request",
        arguments: [
            #"{"platform":"ios","public_key":"x"}"#,
            #"{"device_id":"d","platform":"windows","public_key":"x"}"#,
            #"{"device_id":"","platform":"ios","public_key":"x"}"#,
            #"{"device_id":7,"platform":"ios","public_key":"x"}"#,
            #"["device_id"]"#, #"{"device_id":"d","#,
        ])
    func refusesBadBodies(body: String) async throws {
        let harness = try DeviceKeyHarness()
        let response = await harness.client.post(
            "/device-keys", body: Array(body.utf8), contentType: "application/json",
            headers: try await harness.token())
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_request")
    }

    @Test("without a valid access token: 401 invalid_token with WWW-Authenticate, on every endpoint")
    func requiresBearerToken() async throws {
        let harness = try DeviceKeyHarness()
        let foreignKey = try P256SigningKey()
        let foreign = try JWTSignerFixture.token(
            signedBy: foreignKey, issuer: harness.context.configuration.issuer)
        let calls: [(HTTPMethod, String)] = [
            (.post, "/device-keys"), (.get, "/device-keys"), (.delete, "/device-keys/abc"),
            (.post, "/device-keys/abc/challenges"), (.post, "/device-keys/abc/approvals"),
            (.post, "/device-keys/abc/unlock"), (.post, "/device-events"),
        ]
        for (method, path) in calls {
            for headers: HTTPHeaders in [
                [:], ["Authorization": "Bearer \(foreign)"], ["Authorization": "Basic abc"],
            ] {
                var all = headers
                all.replace(name: "Content-Type", value: "application/json")
                let response = await harness.client.execute(
                    method, path, headers: all, body: Array("{}".utf8))
                #expect(response.status == 401, "\(method) \(path)")
                #expect(response.errorCode == "invalid_token")
                #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            }
        }
    }

    @Test(
        "a new key for the same device_id revokes the old one (re-enrolment), other devices keep theirs"
    )
    func reEnrolment() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let first = try await harness.register(try TestDevice(deviceID: "phone"), auth)
        let other = try await harness.register(try TestDevice(deviceID: "tablet"), auth)
        harness.clock.advance(60)
        let second = try await harness.register(
            try TestDevice(deviceID: "phone", platform: "android"), auth)
        #expect(try await harness.storedKey(first)?.status == .revoked)
        #expect(try await harness.storedKey(other)?.status == .active)
        #expect(try await harness.storedKey(second)?.status == .active)
        let revocation = try #require(
            try await harness.events().first { $0.kind == "device_key_revoked" })
        #expect(revocation.keyID == first)
        #expect(revocation.reasonCode == "replaced")
        #expect(revocation.userID == "user-a")
        // A challenge for the replaced key is refused.
        let response = await harness.client.post(
            "/device-keys/\(first)/challenges", json: ["action": DeviceKeyHarness.transfer], headers: auth
        )
        #expect(response.status == 403)
        #expect(response.errorCode == "key_revoked")
    }

    @Test("GET lists the caller's keys only, with status, created and last-used times")
    func listsOwnKeys() async throws {
        let harness = try DeviceKeyHarness()
        let alice = try await harness.token("user-a")
        let bob = try await harness.token("user-b")
        let aliceKey = try await harness.register(try TestDevice(), alice)
        _ = try await harness.register(try TestDevice(), bob)
        let response = await harness.client.get("/device-keys", headers: alice)
        #expect(response.status == 200)
        let keys = try #require(try response.jsonValue()["keys"]?.arrayValue)
        #expect(keys.count == 1)
        #expect(keys.first?["key_id"]?.stringValue == aliceKey)
        #expect(keys.first?["status"]?.stringValue == "active")
        #expect(keys.first?["created_at"]?.stringValue == "2027-01-15T08:00:00Z")
        #expect(keys.first?["last_used_at"] == .null)
        #expect(keys.first?["public_key"] == nil)
    }

    @Test("DELETE revokes (204, idempotent); another user's key or an unknown id is 404, never 403")
    func deletes() async throws {
        let harness = try DeviceKeyHarness()
        let alice = try await harness.token("user-a")
        let bob = try await harness.token("user-b")
        let keyID = try await harness.register(try TestDevice(), alice)
        for path in [
            "/device-keys/\(keyID)", "/device-keys/unknown-id", "/device-keys/%2E%2E",
            "/device-keys/" + String(repeating: "a", count: 65),
        ] {
            let response = await harness.client.delete(path, headers: bob)
            #expect(response.status == 404, "\(path)")
            #expect(response.errorCode == "not_found")
        }
        #expect(try await harness.storedKey(keyID)?.status == .active)
        #expect(await harness.client.delete("/device-keys/\(keyID)", headers: alice).status == 204)
        #expect(try await harness.storedKey(keyID)?.status == .revoked)
        #expect(await harness.client.delete("/device-keys/\(keyID)", headers: alice).status == 204)
        let events = try await harness.events()
        #expect(events.filter { $0.kind == "device_key_revoked" && $0.outcome == "success" }.count == 1)
        #expect(events.filter { $0.reasonCode == "device_key_not_found" }.count == 4)
    }
}

/// Tokens that are not ours, for the 401 tests.
enum JWTSignerFixture {
    /// A well-formed access token signed by a key the server does not publish.
    static func token(signedBy key: P256SigningKey, issuer: String) throws -> String {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let claims = Tokens.AccessTokenClaims(
            issuer: issuer, subject: "user-a", audience: [issuer], clientID: "app", scope: [],
            issuedAt: now,
            expiresAt: now.addingTimeInterval(3600), jwtID: "j")
        return try Tokens.JWTSigner(key: key, keyID: "foreign").sign(claims)
    }
}
