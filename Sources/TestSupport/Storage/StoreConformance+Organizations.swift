import Foundation
import Storage

extension StoreConformance {
    /// Schema v17: organizations, their members, and the organization of a refresh-token family.
    static let organizationChecks: [Check] = [
        Check("an organization is found by id and by name, listed by name; a taken name is a conflict") { store in
            let acme = Organization(id: "org_acme000000000001", name: "acme", displayName: "Acme", createdAt: S.at(1))
            let beta = Organization(id: "org_beta000000000001", name: "beta-2", createdAt: S.at(2))
            try await store.write { writer in
                try writer.insertOrganization(beta)
                try writer.insertOrganization(acme)
            }
            try expectEqual(try await store.read { try $0.organization(id: acme.id) }, Optional(acme), "by id")
            try expectEqual(try await store.read { try $0.organization(name: "beta-2") }, Optional(beta), "by name")
            try expectEqual(try await store.read { try $0.organization(name: "ACME") }, nil, "names compare exactly")
            try expectEqual(try await store.read { try $0.organization(id: "org_none") }, nil, "unknown id")
            try expectEqual(try await store.read { try $0.organizations() }, [acme, beta], "listed by name")
            try await expectStorageError(.conflict, constraint: .organizationName, "a taken name") {
                try await store.write {
                    try $0.insertOrganization(
                        Organization(id: "org_other00000000001", name: "acme", createdAt: S.at(3)))
                }
            }
            try await expectStorageError(.conflict, constraint: .organizationID, "a taken id") {
                try await store.write {
                    try $0.insertOrganization(Organization(id: acme.id, name: "gamma", createdAt: S.at(3)))
                }
            }
            try expectEqual(try await store.read { try $0.organizations().count }, 2, "nothing written by a conflict")
        },
        Check("a member is added once, found, listed and removed; unknown organization or user is not found") {
            store in
            let acme = Organization(id: "org_acme000000000001", name: "acme", createdAt: S.at(1))
            let beta = Organization(id: "org_beta000000000001", name: "beta", createdAt: S.at(1))
            try await store.write { writer in
                try writer.insertUser(S.user(1), credential: S.credential(1, userID: "user-1"))
                try writer.insertUser(S.user(2), credential: S.credential(2, userID: "user-2"))
                try writer.insertOrganization(acme)
                try writer.insertOrganization(beta)
            }
            let member = OrganizationMember(organizationID: acme.id, userID: "user-1", addedAt: S.at(5))
            try expect(try await store.write { try $0.addOrganizationMember(member) }, "added")
            try expect(!(try await store.write { try $0.addOrganizationMember(member) }), "added twice")
            try expect(
                try await store.read { try $0.isOrganizationMember(organizationID: acme.id, userID: "user-1") },
                "a member")
            try expect(
                !(try await store.read { try $0.isOrganizationMember(organizationID: beta.id, userID: "user-1") }),
                "not a member of another organization")
            try expect(
                !(try await store.read { try $0.isOrganizationMember(organizationID: acme.id, userID: "user-2") }),
                "another user is not a member")
            _ = try await store.write {
                try $0.addOrganizationMember(
                    OrganizationMember(organizationID: acme.id, userID: "user-2", addedAt: S.at(6)))
            }
            try expectEqual(
                try await store.read { try $0.organizationMembers(organizationID: acme.id).map(\.userID) },
                ["user-1", "user-2"], "members by user id")
            try expectEqual(
                try await store.read { try $0.organizationMembers(organizationID: acme.id).first }, Optional(member),
                "every field stored")
            try await expectStorageError(.notFound, "an unknown organization") {
                try await store.write {
                    try $0.addOrganizationMember(
                        OrganizationMember(organizationID: "org_none", userID: "user-1", addedAt: S.at(5)))
                }
            }
            try await expectStorageError(.notFound, "an unknown user") {
                try await store.write {
                    try $0.addOrganizationMember(
                        OrganizationMember(organizationID: acme.id, userID: "user-9", addedAt: S.at(5)))
                }
            }
            try expect(
                try await store.write { try $0.removeOrganizationMember(organizationID: acme.id, userID: "user-1") },
                "removed")
            try expect(
                !(try await store.write { try $0.removeOrganizationMember(organizationID: acme.id, userID: "user-1") }),
                "removed twice")
            try expectEqual(
                try await store.read { try $0.organizationMembers(organizationID: acme.id).map(\.userID) }, ["user-2"],
                "the other member stays")
        },
        Check("deleting a user ends their memberships; a membership written with its user rolls back with it") {
            store in
            let acme = Organization(id: "org_acme000000000001", name: "acme", createdAt: S.at(1))
            try await store.write { writer in
                try writer.insertOrganization(acme)
                try writer.insertUser(S.user(1), credential: S.credential(1, userID: "user-1"))
                try writer.insertUser(S.user(2), credential: S.credential(2, userID: "user-2"))
                for userID in ["user-1", "user-2"] {
                    _ = try writer.addOrganizationMember(
                        OrganizationMember(organizationID: acme.id, userID: userID, addedAt: S.at(2)))
                }
            }
            try expect(try await store.write { try $0.deleteUser(id: "user-1") }, "deleted")
            try expectEqual(
                try await store.read { try $0.organizationMembers(organizationID: acme.id).map(\.userID) }, ["user-2"],
                "the deleted user's membership went with them")
            try expectEqual(
                try await store.read { try $0.rowsMentioningUser(id: "user-1", userHandle: S.user(1).userHandle) },
                [:], "nothing mentions the deleted user")
            // A sign-up into an organization: the user and the membership in one write, neither without the other.
            try await expectStorageError(.conflict, constraint: .userEmail, "a taken email") {
                try await store.write { writer in
                    let user = S.user(3, email: "u2@example.com")
                    try writer.insertOrganization(
                        Organization(id: "org_late000000000001", name: "late", createdAt: S.at(3)))
                    try writer.insertUser(user, credential: S.credential(3, userID: user.id))
                    _ = try writer.addOrganizationMember(
                        OrganizationMember(organizationID: acme.id, userID: user.id, addedAt: S.at(3)))
                }
            }
            try expectEqual(
                try await store.read { try $0.organizationMembers(organizationID: acme.id).map(\.userID) }, ["user-2"],
                "a failed write adds no member")
            try expectEqual(try await store.read { try $0.organization(name: "late") }, nil, "nor an organization")
        },
        Check("deleting an organization deletes its memberships, and no other organization's") { store in
            let acme = Organization(id: "org_acme000000000001", name: "acme", createdAt: S.at(1))
            let beta = Organization(id: "org_beta000000000001", name: "beta", createdAt: S.at(1))
            try await store.write { writer in
                try writer.insertUser(S.user(1), credential: S.credential(1, userID: "user-1"))
                try writer.insertOrganization(acme)
                try writer.insertOrganization(beta)
                for organization in [acme, beta] {
                    _ = try writer.addOrganizationMember(
                        OrganizationMember(organizationID: organization.id, userID: "user-1", addedAt: S.at(2)))
                }
            }
            try expect(try await store.write { try $0.deleteOrganization(id: acme.id) }, "deleted")
            try expect(!(try await store.write { try $0.deleteOrganization(id: acme.id) }), "deleted twice")
            try expectEqual(try await store.read { try $0.organizations() }, [beta], "the other stays")
            try expectEqual(
                try await store.read { try $0.organizationMembers(organizationID: acme.id) }, [], "its members went")
            try expect(
                try await store.read { try $0.isOrganizationMember(organizationID: beta.id, userID: "user-1") },
                "the other's member stays")
            // Its name is free again.
            try await store.write {
                try $0.insertOrganization(Organization(id: "org_acme000000000002", name: "acme", createdAt: S.at(3)))
            }
        },
        Check("a refresh token keeps its family's organization, through a rotation too") { store in
            let (first, second) = {
                var first = S.refreshToken(1)
                first.organizationID = "org_acme000000000001"
                var second = S.refreshToken(2)
                second.organizationID = first.organizationID
                return (first, second)
            }()
            try await store.write { try $0.insertRefreshToken(first) }
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: first.tokenHash) }, Optional(first),
                "stored whole")
            try expect(
                try await store.write {
                    try $0.markRefreshTokenRotated(presentedHash: first.tokenHash, now: S.at(10), replacement: second)
                }, "rotated")
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: second.tokenHash)?.organizationID },
                "org_acme000000000001", "the successor's organization")
            try await store.write { try $0.insertRefreshToken(S.refreshToken(3, family: "family-2")) }
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: S.refreshToken(3).tokenHash)?.organizationID }, nil,
                "a family of no organization")
        },
        Check("revoking a member's sessions in an organization revokes their families in it, and no other") { store in
            let acme = "org_acme000000000001"
            let tokens: [RefreshToken] = {
                func token(_ n: UInt8, family: String, user: String = "user-1", organization: String?) -> RefreshToken {
                    var token = S.refreshToken(n, family: family)
                    token.userID = user
                    token.organizationID = organization
                    return token
                }
                return [
                    token(1, family: "acme-1", organization: acme), token(2, family: "acme-1", organization: acme),
                    token(3, family: "acme-2", organization: acme),
                    token(4, family: "globex", organization: "org_globex0000000001"),
                    token(5, family: "none", organization: nil),
                    token(6, family: "other-user", user: "user-2", organization: acme),
                ]
            }()
            try await store.write { writer in
                for token in tokens { try writer.insertRefreshToken(token) }
            }
            let families = try await store.write {
                try $0.revokeRefreshTokens(.organizationMember(organizationID: acme, userID: "user-1"), now: S.at(20))
            }
            try expectEqual(families, 2, "families revoked")
            for token in tokens {
                let revokedAt = try await store.read { try $0.refreshToken(hash: token.tokenHash)?.revokedAt }
                let expected: Date? = token.userID == "user-1" && token.organizationID == acme ? S.at(20) : nil
                try expectEqual(revokedAt, expected, "token \(token.familyID)")
            }
        },
    ]
}
