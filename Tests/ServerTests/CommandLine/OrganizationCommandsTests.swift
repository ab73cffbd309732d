import Foundation
import JSON
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Service
@testable import passkeyd

@Suite("Operator commands on organizations: orgs create, list, add-member, remove-member, delete")
struct OrganizationCommandsTests {
    /// A memory store holding user u1 (ann@example.com) with a passkey.
    static func store() async throws -> MemoryStore {
        let store = MemoryStore()
        try await insertUser(store, id: "u1", number: 1, email: "ann@example.com")
        return store
    }

    /// Stores user `id` (`email`) with a passkey whose id and key are `[number]`.
    static func insertUser(_ store: MemoryStore, id: String, number: UInt8, email: String) async throws {
        try await store.write { writer in
            try writer.insertUser(
                User(
                    id: id, userHandle: [number], realm: "main", email: email, phoneNumber: nil, username: nil,
                    name: nil, createdAt: Date()),
                credential: Credential(
                    credentialID: [number], userID: id, publicKey: [number], algorithm: -7, signCount: 0,
                    uvInitialized: true, backupEligible: false, backedUp: false, transports: [],
                    aaguid: [UInt8](repeating: 0, count: 16), attestationFormat: "none", createdAt: Date()))
        }
    }

    /// Runs `request` on `store` as operator "ops", with the test configuration.
    static func run(_ request: OrganizationAdminRequest, store: MemoryStore, json: Bool) async throws
        -> AdminCommands.Outcome
    {
        try await OrganizationCommands.run(
            request, store: store, configuration: try TestConfiguration.make(PasskeyHarness.overrides), json: json,
            actor: "ops")
    }

    @Test("orgs commands parse with the account commands' flags; a name breaking Auth0's rules is a usage error")
    func parsing() throws {
        func parse(_ arguments: [String]) throws -> (AccountOptions, OrganizationAdminRequest)? {
            (try CommandRegistry.passkeyd.parse(arguments) as? any OrganizationCommand).map { ($0.options, $0.request) }
        }
        #expect(
            try parse(["orgs", "create", "acme-corp_2", "--display-name", "Acme Corp", "--json"])
                .map { $0.1 == .create(name: "acme-corp_2", displayName: "Acme Corp") && $0.0.json } == true)
        #expect(try parse(["orgs", "list", "--config", "c.json"])?.1 == .list)
        #expect(
            try parse(["orgs", "add-member", "acme", "ann@example.com", "--actor", "ops"])
                .map { $0.1 == .addMember(organization: "acme", user: "ann@example.com") && $0.0.actor == "ops" }
                == true)
        #expect(
            try parse(["orgs", "remove-member", "org_1", "u1"])?.1 == .removeMember(organization: "org_1", user: "u1"))
        #expect(try parse(["orgs", "delete", "acme"])?.1 == .delete(organization: "acme"))
        for name in ["Acme", "acme corp", "", String(repeating: "a", count: 51), "acmé"] {
            #expect(throws: UsageError.self, "\(name)") { try parse(["orgs", "create", name]) }
        }
        #expect(throws: UsageError.self) { try parse(["orgs", "add-member", "acme"]) }
        #expect(throws: UsageError.self) { try parse(["orgs", "create", "acme", "--display-name", ""]) }
        #expect(CommandRegistry.passkeyd.help.contains("passkeyd orgs add-member ORG USER"))
    }

    @Test("create, list, add and remove members by id, name, user id or email; audited; exit 1 when unknown")
    func run() async throws {
        let store = try await Self.store()
        func run(_ request: OrganizationAdminRequest, json: Bool = true) async throws -> AdminCommands.Outcome {
            try await Self.run(request, store: store, json: json)
        }
        let created = try await run(.create(name: "acme", displayName: "Acme"))
        #expect(created.status == 0)
        let id = try #require(try JSONValue(parsing: Array(created.output.utf8))["id"]?.stringValue)
        #expect(OrganizationNaming.isID(id) && id.count == 20)
        let taken = try await run(.create(name: "acme", displayName: nil))
        #expect(taken.status == 1)
        #expect(try JSONValue(parsing: Array(taken.output.utf8))["error"]?.stringValue == "name_taken")

        // By name and email, then by id and user id.
        let added = try await run(.addMember(organization: "acme", user: "Ann@Example.com"))
        #expect(added.status == 0, "\(added.output)")
        #expect(try await store.read { try $0.isOrganizationMember(organizationID: id, userID: "u1") })
        #expect(try await run(.addMember(organization: id, user: "u1")).status == 0, "already a member")
        let listed = try await run(.list, json: false)
        #expect(listed.output == "\(id)\tacme\tAcme\t1")
        for (organization, user, what) in [("globex", "u1", "organization"), ("acme", "nobody", "user")] {
            let missing = try await run(.addMember(organization: organization, user: user))
            #expect(missing.status == 1)
            #expect(try JSONValue(parsing: Array(missing.output.utf8))["what"]?.stringValue == what)
        }
        #expect(try await run(.removeMember(organization: id, user: "u1")).status == 0)
        #expect(try await run(.removeMember(organization: id, user: "u1")).status == 1, "no membership left")
        #expect(!(try await store.read { try $0.isOrganizationMember(organizationID: id, userID: "u1") }))
        #expect(try await run(.addMember(organization: id, user: "u1")).status == 0)
        let deleted = try await run(.delete(organization: "acme"), json: false)
        #expect(deleted.output == "deleted organization \(id) and its 1 membership(s); 0 session(s) in it revoked")
        #expect(try await store.read { try $0.organizations() } == [])
        #expect(try await run(.delete(organization: id)).status == 1, "deleted twice")
        let all = try await store.read { try $0.securityEvents(after: 0, limit: 10) }
        #expect(all.last?.kind == "organization_deleted" && all.last?.attempts == 1)
        let events = try await store.read { try $0.securityEvents(userID: "u1", limit: 10) }
        #expect(
            events.map(\.kind) == [
                "organization_member_added", "organization_member_removed", "organization_member_added",
            ])
        let detail = try JSONValue(parsing: try #require(events.last?.detail))
        #expect(detail["actor"]?.stringValue == "operator:ops" && detail["organization_id"]?.stringValue == id)
    }

    /// A live refresh token of `user` in `organization` (nil: none), its hash `n` repeated.
    static func token(_ n: UInt8, family: String, user: String = "u1", organization: String?) -> RefreshToken {
        RefreshToken(
            tokenHash: [UInt8](repeating: n, count: 32), familyID: family, clientID: "app", userID: user,
            scope: "openid offline_access", authTime: Date(), createdAt: Date(),
            absoluteExpiresAt: Date().addingTimeInterval(86_400), idleExpiresAt: Date().addingTimeInterval(3_600),
            organizationID: organization)
    }

    @Test("remove-member revokes the member's sessions in the organization in the same write, and no other session")
    func removalRevokes() async throws {
        let store = try await Self.store()
        func run(_ request: OrganizationAdminRequest, json: Bool = true) async throws -> AdminCommands.Outcome {
            try await Self.run(request, store: store, json: json)
        }
        let created = try await run(.create(name: "acme", displayName: nil))
        let id = try #require(try JSONValue(parsing: Array(created.output.utf8))["id"]?.stringValue)
        #expect(try await run(.addMember(organization: id, user: "u1")).status == 0)
        let inAcme = Self.token(1, family: "in-acme", organization: id)
        let elsewhere = Self.token(2, family: "no-organization", organization: nil)
        try await store.write { writer in
            try writer.insertRefreshToken(inAcme)
            try writer.insertRefreshToken(elsewhere)
        }
        let removed = try await run(.removeMember(organization: id, user: "u1"))
        #expect(removed.status == 0)
        #expect(try JSONValue(parsing: Array(removed.output.utf8))["revoked_families"] == 1)
        #expect(try await store.read { try $0.refreshToken(hash: inAcme.tokenHash)?.revokedAt } != nil)
        #expect(try await store.read { try $0.refreshToken(hash: elsewhere.tokenHash)?.revokedAt } == nil)
        let status = try await store.read { try $0.sessionStatus(userID: "u1", familyID: "in-acme") }
        #expect(status.familyRevoked && status.sessionsRevokedAt == nil, "\(status)")
        let event = try await store.read { try $0.securityEvents(userID: "u1", limit: 1) }.first
        #expect(event?.kind == "organization_member_removed")
        #expect(try JSONValue(parsing: try #require(event?.detail))["revoked_families"] == 1)
        // Nothing to revoke the second time in: 0, and the text says so.
        #expect(try await run(.addMember(organization: id, user: "u1")).status == 0)
        let again = try await run(.removeMember(organization: id, user: "u1"), json: false)
        #expect(again.output == "removed u1 from \(id); 0 session(s) in it revoked")
    }

    @Test("delete revokes every member's sessions in the organization in the same write, and no other session")
    func deletionRevokes() async throws {
        let store = try await Self.store()
        try await Self.insertUser(store, id: "u2", number: 2, email: "bob@example.com")
        func run(_ request: OrganizationAdminRequest, json: Bool = true) async throws -> AdminCommands.Outcome {
            try await Self.run(request, store: store, json: json)
        }
        func id(_ outcome: AdminCommands.Outcome) throws -> String {
            try #require(try JSONValue(parsing: Array(outcome.output.utf8))["id"]?.stringValue)
        }
        let acme = try id(try await run(.create(name: "acme", displayName: nil)))
        let globex = try id(try await run(.create(name: "globex", displayName: nil)))
        for (organization, user) in [(acme, "u1"), (acme, "u2"), (globex, "u1")] {
            #expect(try await run(.addMember(organization: organization, user: user)).status == 0)
        }
        let tokens = [
            Self.token(1, family: "u1-acme", organization: acme), Self.token(2, family: "u1-acme", organization: acme),
            Self.token(3, family: "u2-acme", user: "u2", organization: acme),
            Self.token(4, family: "u1-globex", organization: globex),
            Self.token(5, family: "u2-none", user: "u2", organization: nil),
        ]
        try await store.write { writer in
            for token in tokens { try writer.insertRefreshToken(token) }
        }
        let deleted = try await run(.delete(organization: "acme"))
        #expect(deleted.status == 0)
        let output = try JSONValue(parsing: Array(deleted.output.utf8))
        #expect(output["members"] == 2 && output["revoked_families"] == 2, "\(deleted.output)")
        for token in tokens {
            let revokedAt = try await store.read { try $0.refreshToken(hash: token.tokenHash)?.revokedAt }
            #expect((revokedAt != nil) == (token.organizationID == acme), "\(token.familyID)")
        }
        for user in ["u1", "u2"] {
            let status = try await store.read { try $0.sessionStatus(userID: user, familyID: "\(user)-acme") }
            #expect(status.familyRevoked && status.sessionsRevokedAt == nil, "\(user): \(status)")
        }
        let event = try await store.read { try $0.securityEvents(after: 0, limit: 20) }.last
        #expect(event?.kind == "organization_deleted" && event?.attempts == 2)
        #expect(try JSONValue(parsing: try #require(event?.detail))["revoked_families"] == 2)
    }
}
