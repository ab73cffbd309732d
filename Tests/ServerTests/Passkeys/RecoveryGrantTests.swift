import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Recovery grant: sessions, throttle and locks (router level)")
struct RecoveryGrantTests {
    static let identifier = "alice@example.com"

    @Test("a session opened by one client and redeemed by another is invalid_grant; the code stays usable")
    func sameClient() async throws {
        let harness = try RecoveryHarness()
        var passkey = Passkey()
        let codes = try await harness.signUpWithCodes(&passkey)
        let session = try await harness.session(identifier: Self.identifier, clientID: "app")
        let foreign = await harness.redeem(session: session, code: codes[0], clientID: "other")
        #expect(foreign.status == 403)
        #expect(foreign.errorCode == "invalid_grant")
        #expect(try foreign.jsonValue()["error_description"] == "Invalid or expired auth_session.")
        // Nothing was counted against the identifier, and the code was not spent: the right client recovers with it.
        let counter = try await harness.store.read {
            try $0.fallbackCounter(
                key: FallbackCounterKey.recoveryIdentifier(realm: "main", identifier: Self.identifier))
        }
        #expect(counter == nil)
        let recovered = try await harness.recover(identifier: Self.identifier, code: codes[0], clientID: "app")
        #expect(recovered.status == 200, "\(recovered.bodyText)")
    }
}
