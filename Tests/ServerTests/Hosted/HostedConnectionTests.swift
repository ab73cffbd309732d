import Crypto
import Foundation
import HTTP
import JSON
import Testing

@testable import Endpoints
@testable import Service

/// `/authorize`'s `connection` (Auth0's name for a realm): the hosted page signs in to that realm, by its rules and
/// with its related origins; a session of another realm is no session for it; an unknown one is refused.
@Suite("Hosted login in the realm named by connection")
struct HostedConnectionTests {
    static let staffOrigin = "https://staff.example.net"
    static let realms: [String: String] = [
        "PASSKEYD_REALMS": """
        [{"name": "main", "default": true, "identifiers": {"email": "required"}},
         {"name": "staff", "identifiers": {"username": "required"}, "related_origins": ["\(staffOrigin)"]}]
        """
    ]

    static func parameters(_ connection: String?, _ changes: [String: String?] = [:]) -> [(String, String)] {
        HostedPageHarness.parameters(changes.merging(["connection": connection]) { _, new in new })
    }

    /// Signs up on the page of `connection` with `identifier`: the code's query and the session cookie.
    static func signUp(
        _ harness: HostedPageHarness, _ passkey: inout Passkey, connection: String?, identifier: String
    ) async throws -> ([String: String], String) {
        let page = try HostedPageHarness.page(await harness.authorize(parameters(connection)))
        let response = try await harness.signUp(&passkey, page: page, identifier: identifier)
        #expect(response.status == 200, "\(response.bodyText)")
        return (
            try HostedPageHarness.query(try response.jsonValue()["redirect_to"]?.stringValue),
            try #require(HostedPageHarness.cookie(response, named: "__Host-passkeyd_session"))
        )
    }

    /// The realm of the user the code's tokens are for.
    static func realmOfTokens(_ harness: HostedPageHarness, code: String?) async throws -> String? {
        let tokens = await harness.redeem(try #require(code))
        #expect(tokens.status == 200, "\(tokens.bodyText)")
        let idToken = try #require(try tokens.jsonValue()["id_token"]?.stringValue)
        let subject = try #require(try SRPHarness.claims(idToken)["sub"]?.stringValue)
        return try await harness.context.store.read { try $0.user(id: subject) }?.realm
    }

    @Test("the page of connection=staff asks for the realm's identifier and signs the user up in that realm")
    func signUpInTheNamedRealm() async throws {
        let harness = try HostedPageHarness(Self.realms)
        let page = await harness.authorize(Self.parameters("staff"))
        #expect(page.bodyText.contains("Username"), "\(page.bodyText.prefix(400))")
        var passkey = Passkey()
        let (query, _) = try await Self.signUp(harness, &passkey, connection: "staff", identifier: "rory")
        #expect(try await Self.realmOfTokens(harness, code: query["code"]) == "staff")
        // A sign-in on a new page of the same realm finds the passkey.
        let again = try HostedPageHarness.page(await harness.authorize(Self.parameters("staff")))
        let signIn = try await harness.signIn(&passkey, page: again)
        #expect(signIn.status == 200, "\(signIn.bodyText)")
        let code = try HostedPageHarness.query(try signIn.jsonValue()["redirect_to"]?.stringValue)["code"]
        #expect(try await Self.realmOfTokens(harness, code: code) == "staff")
    }

    @Test("without connection, or with an empty one, the page signs in to the default realm")
    func defaultRealm() async throws {
        let harness = try HostedPageHarness(Self.realms)
        for connection in [nil, ""] as [String?] {
            let page = await harness.authorize(Self.parameters(connection))
            #expect(page.bodyText.contains("Email"), "\(page.bodyText.prefix(400))")
        }
        var passkey = Passkey()
        let (query, _) = try await Self.signUp(harness, &passkey, connection: "", identifier: "zoe@example.com")
        #expect(try await Self.realmOfTokens(harness, code: query["code"]) == "main")
    }

    @Test("a connection that names no realm is refused back to the client with invalid_request")
    func unknownConnection() async throws {
        let harness = try HostedPageHarness(Self.realms)
        let response = await harness.authorize(Self.parameters("Username-Password-Authentication"))
        #expect(response.status == 302)
        let query = try HostedPageHarness.query(response.headers["Location"])
        #expect(query["error"] == "invalid_request")
        #expect(query["error_description"] == "The connection is not configured.")
        #expect(query["state"] == "st-1 &x")
    }

    @Test("a passkey of one realm does not sign in on the page of another")
    func passkeyOfAnotherRealm() async throws {
        let harness = try HostedPageHarness(Self.realms)
        var passkey = Passkey()
        _ = try await Self.signUp(harness, &passkey, connection: "staff", identifier: "rory")
        let page = try HostedPageHarness.page(await harness.authorize(Self.parameters(nil)))
        let signIn = try await harness.signIn(&passkey, page: page)
        #expect(signIn.status == 403, "\(signIn.bodyText)")
        #expect(signIn.errorCode == "invalid_grant")
    }

    @Test("a live session of one realm gives no code for another: prompt=none is login_required, else the page")
    func sessionOfAnotherRealm() async throws {
        let harness = try HostedPageHarness(Self.realms)
        var passkey = Passkey()
        let (_, session) = try await Self.signUp(harness, &passkey, connection: nil, identifier: "zoe@example.com")
        let none = await harness.authorize(Self.parameters("staff", ["prompt": "none"]), cookies: [session])
        #expect(try HostedPageHarness.query(none.headers["Location"])["error"] == "login_required")
        _ = try HostedPageHarness.page(await harness.authorize(Self.parameters("staff"), cookies: [session]))
        // In its own realm (named or not) the session still gives a code at once.
        for connection in [nil, "main"] as [String?] {
            let same = await harness.authorize(Self.parameters(connection, ["prompt": "none"]), cookies: [session])
            #expect(try HostedPageHarness.query(same.headers["Location"])["code"] != nil)
        }
    }

    @Test("a page POST from a realm's related origin is accepted for that realm's transaction only")
    func relatedOriginOfTheRealm() async throws {
        let harness = try HostedPageHarness(Self.realms)
        let staff = try HostedPageHarness.page(await harness.authorize(Self.parameters("staff")))
        let accepted = await harness.post("/u/passkey/challenge", page: staff, origin: Self.staffOrigin)
        #expect(accepted.status == 200, "\(accepted.bodyText)")
        // The default realm's transaction: the origin passes the check made before the body is read (it is a page
        // origin of some realm) and fails the one against the transaction's realm.
        let main = try HostedPageHarness.page(await harness.authorize(Self.parameters(nil)))
        let refused = await harness.post("/u/passkey/challenge", page: main, origin: Self.staffOrigin)
        #expect(refused.status == 403)
        #expect(try refused.jsonValue()["error_description"]?.stringValue == "CSRF check failed")
        // An origin of no realm is refused before the body is read.
        let foreign = await harness.post("/u/passkey/challenge", page: staff, origin: "https://evil.example")
        #expect(foreign.status == 403)
    }

    @Test("the sealed transaction carries the realm; one without it opens as before, in the default realm")
    func transactionCarriesTheRealm() throws {
        var transaction = HostedPageHarness.transaction()
        #expect(HostedTransaction(plaintext: transaction.plaintext)?.realm == nil)
        transaction.realm = "staff"
        #expect(HostedTransaction(plaintext: transaction.plaintext) == transaction)
    }
}
