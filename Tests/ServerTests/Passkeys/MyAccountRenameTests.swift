import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// `PATCH /me/v1/authentication-methods/{id}`, Auth0's "Update an authentication method": the body myaccount-js's
/// `updateAuthenticationMethod(id, {name})` and auth0-spa-js's `MyAccountApiClient` send, under
/// `update:me:authentication_methods`; the same rename as `PATCH /me/passkeys/{id}`.
@Suite("My Account API: renaming a passkey")
struct MyAccountRenameTests {
    /// How many `passkey_renamed` events the audit log holds.
    static func renames(_ harness: PasskeyHarness) async throws -> Int {
        try await harness.context.store.read { try $0.securityEvents(after: 0, limit: 10_000) }
            .filter { $0.kind == SecurityEvent.Kind.passkeyRenamed.rawValue }.count
    }

    @Test("{name} renames the passkey (200 with the method), null restores the provider's name, /me/passkeys agrees")
    func rename() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let login = try await harness.signUpForMyAccount(&passkey)
        #expect(login.scope.contains("update:me:authentication_methods"))
        let auth = PasskeyHarness.bearer(login.token)
        let id = "passkey|" + Base64URL.encode(passkey.credentialID)
        let renamed = await harness.client.patch(
            PasskeyHarness.methodPath(id), json: ["name": "Work laptop"], headers: auth)
        #expect(renamed.status == 200, "\(renamed.bodyText)")
        let method = try renamed.jsonValue()
        #expect(method["id"]?.stringValue == id)
        #expect(method["type"]?.stringValue == "passkey")
        #expect(method["name"]?.stringValue == "Work laptop")
        #expect(try await Self.renames(harness) == 1)
        let read = try await harness.client.get(PasskeyHarness.methodPath(id), headers: auth).jsonValue()
        #expect(read["name"]?.stringValue == "Work laptop")
        let passkeys = try await harness.client.get("/me/passkeys", headers: auth).jsonValue()["passkeys"]
        #expect(passkeys?.arrayValue?.first?["name"]?.stringValue == "Work laptop")

        let restored = await harness.client.patch(
            PasskeyHarness.methodPath(id), json: ["name": JSONValue.null], headers: auth)
        #expect(restored.status == 200, "\(restored.bodyText)")
        #expect(try restored.jsonValue()["name"]?.stringValue != "Work laptop")
    }

    @Test("refusals: without update:me:authentication_methods 403, a phone member 400, a bad name 400, unknown id 404")
    func refusals() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let login = try await harness.signUpForMyAccount(&passkey)
        let id = "passkey|" + Base64URL.encode(passkey.credentialID)
        let readOnly = PasskeyHarness.bearer(
            try await harness.myAccountToken(userID: login.userID, scope: ["read:me:authentication_methods"]))
        let unscoped = await harness.client.patch(
            PasskeyHarness.methodPath(id), json: ["name": "Nope"], headers: readOnly)
        _ = try MyAccountRefusalTests.problem(unscoped, status: 403, type: "insufficient_scope")
        #expect(unscoped.headers["WWW-Authenticate"]?.contains(#"scope="update:me:authentication_methods""#) == true)

        let auth = PasskeyHarness.bearer(login.token)
        let phone = await harness.client.patch(
            PasskeyHarness.methodPath(id), json: ["preferred_authentication_method": "sms"], headers: auth)
        #expect(phone.status == 400, "\(phone.bodyText)")
        let control = await harness.client.patch(
            PasskeyHarness.methodPath(id), json: ["name": "two\nlines"], headers: auth)
        #expect(control.status == 400, "\(control.bodyText)")
        let unknown = await harness.client.patch(
            PasskeyHarness.methodPath("passkey|" + Base64URL.encode([1, 2, 3])), json: ["name": "x"], headers: auth)
        _ = try MyAccountRefusalTests.problem(unknown, status: 404, type: "not_found")
        // Nothing was renamed by the refusals.
        let read = try await harness.client.get(PasskeyHarness.methodPath(id), headers: auth).jsonValue()
        #expect(read["name"]?.stringValue != "Nope")
        #expect(try await Self.renames(harness) == 0)
    }
}
