import Configuration
import Foundation
import JSON
import Service
import Storage

/// The operator commands on organizations (`OrganizationAdminRequest`), run against the configured store beside a
/// running server: each change is one store write; a membership's change is an audit event naming the operator
/// (`operator:<name>` in the event's detail, with the organization's id). Exit status 0 done, 1 when the
/// organization or the user is unknown, the name taken, or the membership absent.
public enum OrganizationCommands {
    /// Runs `request` on `store`; `configuration` names the default realm, where USER is looked up as an
    /// identifier when it is no user's id.
    public static func run(
        _ request: OrganizationAdminRequest, store: any Store, configuration: ServerConfiguration, json: Bool,
        actor: String, now: Date = Date()
    ) async throws -> AdminCommands.Outcome {
        let actorName = "operator:\(actor)"
        switch request {
        case .create(let name, let displayName):
            let organization = Organization(
                id: try OrganizationNaming.newID(), name: name, displayName: displayName, createdAt: now)
            do {
                try await store.write { try $0.insertOrganization(organization) }
            } catch let error as StorageError where error.constraint == .organizationName {
                return failed("name_taken", "organization name \(name) is taken", json: json)
            }
            return AdminCommands.done(
                json: json, organizationJSON(organization, members: 0),
                text: ["created organization \(organization.id) \(name)"])
        case .list:
            let listed = try await store.read { reader in
                try reader.organizations().map { ($0, try reader.organizationMembers(organizationID: $0.id).count) }
            }
            return AdminCommands.done(
                json: json, .array(listed.map { organizationJSON($0.0, members: $0.1) }),
                text: listed.map { "\($0.0.id)\t\($0.0.name)\t\($0.0.displayName ?? "")\t\($0.1)" })
        case .delete(let organizationText):
            let deleted = try await store.write { writer -> (id: String, members: Int, revoked: Int)? in
                guard let organization = try Self.organization(organizationText, writer) else { return nil }
                let members = try writer.organizationMembers(organizationID: organization.id)
                // No session outlives its organization: each member's refresh-token families in it are revoked in
                // the same write, as `remove-member` does for one (a login in an organization needs its membership,
                // and a member removed earlier had theirs revoked then).
                var revoked = 0
                for member in members {
                    revoked += try writer.revokeRefreshTokens(
                        .organizationMember(organizationID: organization.id, userID: member.userID), now: now)
                }
                guard try writer.deleteOrganization(id: organization.id) else { return nil }
                _ = try writer.appendSecurityEvent(
                    PasskeyLifecycleAuditEvent.make(
                        .organizationDeleted, now: now, userID: nil, reasonCode: "operator", attempts: members.count,
                        detail: JSONValue.object([
                            JSONMember(key: "actor", value: .string(actorName)),
                            JSONMember(key: "organization_id", value: .string(organization.id)),
                            JSONMember(key: "revoked_families", value: JSONValue(revoked)),
                        ]).serialized()))
                return (organization.id, members.count, revoked)
            }
            guard let deleted else {
                return failed(
                    "not_found", "no organization \(organizationText)", json: json,
                    extra: ["what": .string("organization")])
            }
            return AdminCommands.done(
                json: json,
                [
                    "deleted": .string(deleted.id), "members": JSONValue(deleted.members),
                    "revoked_families": JSONValue(deleted.revoked),
                ],
                text: [
                    "deleted organization \(deleted.id) and its \(deleted.members) membership(s); "
                        + "\(deleted.revoked) session(s) in it revoked"
                ])
        case .addMember(let organizationText, let userText), .removeMember(let organizationText, let userText):
            let adding = request == .addMember(organization: organizationText, user: userText)
            let realm = configuration.defaultRealm?.name
            let outcome = try await store.write { writer -> Outcome in
                guard let organization = try Self.organization(organizationText, writer) else {
                    return .missing("organization", organizationText)
                }
                guard let user = try Self.user(userText, realm: realm, writer) else {
                    return .missing("user", userText)
                }
                let member = OrganizationMember(organizationID: organization.id, userID: user.id, addedAt: now)
                let changed =
                    adding
                    ? try writer.addOrganizationMember(member)
                    : try writer.removeOrganizationMember(organizationID: organization.id, userID: user.id)
                guard changed || adding else { return .missing("membership", "\(user.id) in \(organization.id)") }
                // A member removed keeps no session in the organization: the refresh-token families of their logins
                // in it are revoked in the same write (and with them, at passkeyd's own endpoints, their access
                // tokens), rather than left to be refused at their next refresh.
                let revoked =
                    changed && !adding
                    ? try writer.revokeRefreshTokens(
                        .organizationMember(organizationID: organization.id, userID: user.id), now: now) : 0
                if changed {
                    var detail = [
                        JSONMember(key: "actor", value: .string(actorName)),
                        JSONMember(key: "organization_id", value: .string(organization.id)),
                    ]
                    if !adding { detail.append(JSONMember(key: "revoked_families", value: JSONValue(revoked))) }
                    _ = try writer.appendSecurityEvent(
                        PasskeyLifecycleAuditEvent.make(
                            adding ? .organizationMemberAdded : .organizationMemberRemoved, now: now, userID: user.id,
                            reasonCode: "operator", detail: JSONValue.object(detail).serialized()))
                }
                return .changed(organization: organization.id, user: user.id, changed: changed, revoked: revoked)
            }
            switch outcome {
            case .missing(let what, let text):
                return failed("not_found", "no \(what) \(text)", json: json, extra: ["what": .string(what)])
            case .changed(let organizationID, let userID, let changed, let revoked):
                let verb = adding ? (changed ? "added" : "already a member:") : "removed"
                var members = [
                    JSONMember(key: "organization_id", value: .string(organizationID)),
                    JSONMember(key: "user_id", value: .string(userID)),
                    JSONMember(key: adding ? "added" : "removed", value: .bool(changed)),
                ]
                if !adding { members.append(JSONMember(key: "revoked_families", value: JSONValue(revoked))) }
                return AdminCommands.done(
                    json: json, .object(members),
                    text: [
                        "\(verb) \(userID) \(adding ? "to" : "from") \(organizationID)"
                            + (adding ? "" : "; \(revoked) session(s) in it revoked")
                    ])
            }
        }
    }

    /// What a membership's write found.
    private enum Outcome: Sendable {
        case missing(String, String)
        case changed(organization: String, user: String, changed: Bool, revoked: Int)
    }

    /// The organization `text` names: its id, else its name.
    private static func organization(_ text: String, _ reader: any StoreReader) throws -> Organization? {
        if let found = try reader.organization(id: text) { return found }
        return try reader.organization(name: text.lowercased())
    }

    /// The user `text` names: their id, else an email, phone number or username of `realm`, read as account
    /// recovery reads an identifier (`AccountRecovery`: normalised as `/passkey/register` stores it).
    private static func user(_ text: String, realm: String?, _ reader: any StoreReader) throws -> User? {
        if let found = try reader.user(id: text) { return found }
        guard let realm, let identifier = AccountRecovery.normalized(text) else { return nil }
        return try AccountRecovery.lookup(reader, realm: realm, identifier: identifier)
    }

    static func organizationJSON(_ organization: Organization, members: Int) -> JSONValue {
        .object(
            [
                JSONMember(key: "id", value: .string(organization.id)),
                JSONMember(key: "name", value: .string(organization.name)),
            ]
                + (organization.displayName.map { [JSONMember(key: "display_name", value: .string($0))] } ?? [])
                + [
                    JSONMember(key: "members", value: JSONValue(members)),
                    JSONMember(key: "created_at", value: RFC3339.timestamp(organization.createdAt)),
                ])
    }

    private static func failed(
        _ code: String, _ message: String, json: Bool, extra: [String: JSONValue] = [:]
    ) -> AdminCommands.Outcome {
        var members = [JSONMember(key: "error", value: .string(code))]
        members += extra.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value) }
        members.append(JSONMember(key: "message", value: .string(message)))
        return AdminCommands.Outcome(
            status: 1, output: json ? String(decoding: JSONValue.object(members).serialized(), as: UTF8.self) : message)
    }
}
