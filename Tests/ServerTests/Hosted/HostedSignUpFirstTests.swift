import Foundation
import HTTP
import Testing

@testable import Endpoints
@testable import Service

/// `prompt=create` (OpenID Connect Initiating User Registration 1.0 §4) and Auth0's `screen_hint=signup`: the page opens
/// on its sign-up field; `create` also shows the page within a live session, as `login` does.
@Suite("Hosted login: prompt=create and screen_hint=signup")
struct HostedSignUpFirstTests {
    /// Whether the page focuses the sign-up field.
    static func opensOnSignUp(_ page: Response) -> Bool {
        page.bodyText.contains(#"spellcheck="false" autofocus>"#)
    }

    @Test("prompt=create and screen_hint=signup open the page on the sign-up field; a plain request does not")
    func signUpField() async throws {
        let harness = try HostedPageHarness()
        let plain = await harness.authorize()
        _ = try HostedPageHarness.page(plain)
        #expect(!Self.opensOnSignUp(plain))
        for changes in [["prompt": "create"], ["screen_hint": "signup"], ["prompt": "login create"]]
            as [[String: String?]]
        {
            let page = await harness.authorize(HostedPageHarness.parameters(changes))
            _ = try HostedPageHarness.page(page)
            #expect(Self.opensOnSignUp(page), "\(changes)")
        }
        let otherHint = await harness.authorize(HostedPageHarness.parameters(["screen_hint": "login"]))
        #expect(!Self.opensOnSignUp(otherHint))
    }

    @Test("within a live session prompt=create shows the page; screen_hint alone still answers at once")
    func liveSession() async throws {
        let harness = try HostedPageHarness()
        var passkey = Passkey()
        let (_, session) = try await HostedLoginFlowTests.signUp(harness, &passkey)
        let create = await harness.authorize(HostedPageHarness.parameters(["prompt": "create"]), cookies: [session])
        _ = try HostedPageHarness.page(create)
        let hinted = await harness.authorize(
            HostedPageHarness.parameters(["screen_hint": "signup"]), cookies: [session])
        #expect(hinted.status == 302)
        #expect(try HostedPageHarness.query(hinted.headers["Location"])["code"] != nil)
    }

    @Test("prompt=create with none is invalid_request; an unknown prompt value names the supported ones")
    func refusals() async throws {
        let harness = try HostedPageHarness()
        let both = await harness.authorize(HostedPageHarness.parameters(["prompt": "create none"]))
        #expect(try HostedPageHarness.query(both.headers["Location"])["error"] == "invalid_request")
        let consent = await harness.authorize(HostedPageHarness.parameters(["prompt": "consent"]))
        let query = try HostedPageHarness.query(consent.headers["Location"])
        #expect(query["error"] == "invalid_request")
        #expect(query["error_description"] == "prompt may be none, login or create.")
    }

    @Test("the sealed transaction carries the sign-up hint; prompt=create travels as the prompt")
    func sealed() throws {
        var transaction = HostedPageHarness.transaction()
        #expect(HostedTransaction(plaintext: transaction.plaintext)?.signUpFirst == false)
        transaction.signUpHinted = true
        let opened = HostedTransaction(plaintext: transaction.plaintext)
        #expect(opened == transaction && opened?.signUpFirst == true)
        // prompt=create needs no hint of its own: it travels as the prompt.
        transaction.signUpHinted = false
        transaction.prompt = "create"
        #expect(HostedTransaction(plaintext: transaction.plaintext)?.signUpFirst == true)
    }
}
