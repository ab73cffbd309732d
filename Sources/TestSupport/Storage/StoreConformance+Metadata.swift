import Foundation
import Storage

extension StoreConformance {
    /// A metadata-BLOB record with `serial`, its content told apart by `content`.
    static func metadataBLOB(_ serial: Int64, content: UInt8 = 1, source: String = "cli") -> MetadataBLOBRecord {
        MetadataBLOBRecord(
            serial: serial, jws: "header.payload-\(serial)-\(content).signature", sha256: S.bytes(content),
            nextUpdate: S.at(86_400 * Double(serial)), loadedAt: S.at(Double(serial)), source: source)
    }

    /// A credential of `userID` numbered `n` whose AAGUID is 16 bytes of `model`.
    static func credential(_ n: Int, userID: String, model: UInt8) -> Credential {
        var credential = S.credential(n, userID: userID)
        credential.aaguid = S.bytes(model, count: 16)
        return credential
    }

    /// Schema v19: the metadata BLOB (only the newest kept, the serial never going backwards) and the credentials of
    /// one authenticator model.
    static let metadataChecks: [Check] = [
        Check("a metadata BLOB is stored once, never replaced by an older, equal or conflicting one") { store in
            try expectEqual(try await store.read { try $0.latestMetadataBLOB() }, nil, "none at first")
            try expectEqual(try await store.read { try $0.latestMetadataSerial() }, nil, "no serial at first")
            let five = metadataBLOB(5)
            try expectEqual(try await store.write { try $0.storeMetadataBLOB(five) }, .stored, "the first")
            try expectEqual(try await store.read { try $0.latestMetadataBLOB() }, Optional(five), "read back")
            try expectEqual(try await store.read { try $0.latestMetadataSerial() }, Optional(5), "its serial")
            let again = MetadataBLOBRecord(
                serial: 5, jws: five.jws, sha256: five.sha256, nextUpdate: five.nextUpdate, loadedAt: S.at(99),
                source: "file:/elsewhere")
            try expectEqual(
                try await store.write { try $0.storeMetadataBLOB(again) }, .unchanged, "same serial, same hash")
            try expectEqual(
                try await store.write { try $0.storeMetadataBLOB(metadataBLOB(5, content: 2)) }, .conflict,
                "same serial, other content")
            try expectEqual(
                try await store.write { try $0.storeMetadataBLOB(metadataBLOB(4)) }, .older(current: 5), "older")
            try expectEqual(try await store.read { try $0.latestMetadataBLOB() }, Optional(five), "still the first")
            let seven = metadataBLOB(7, content: 3, source: "file:/etc/passkeyd/mds.jwt")
            try expectEqual(try await store.write { try $0.storeMetadataBLOB(seven) }, .stored, "a newer one")
            try expectEqual(try await store.read { try $0.latestMetadataBLOB() }, Optional(seven), "the newer one")
            try expectEqual(
                try await store.write { try $0.storeMetadataBLOB(five) }, .older(current: 7), "the first is older now")
        },
        Check("a refused store of a metadata BLOB writes nothing, and a throwing write keeps the old one") { store in
            _ = try await store.write { try $0.storeMetadataBLOB(metadataBLOB(3)) }
            struct Abort: Error {}
            do {
                _ = try await store.write { writer -> MetadataBLOBStoreOutcome in
                    _ = try writer.storeMetadataBLOB(metadataBLOB(9))
                    throw Abort()
                }
            } catch is Abort {}
            try expectEqual(try await store.read { try $0.latestMetadataSerial() }, Optional(3), "rolled back")
        },
        Check("nodes storing BLOBs at once never take the serial backwards: the newest wins") { store in
            let outcomes = try await withThrowingTaskGroup(of: (Int64, MetadataBLOBStoreOutcome).self) { group in
                for serial in Int64(1)...16 {
                    group.addTask { (serial, try await store.write { try $0.storeMetadataBLOB(metadataBLOB(serial)) }) }
                }
                return try await group.reduce(into: [Int64: MetadataBLOBStoreOutcome]()) { $0[$1.0] = $1.1 }
            }
            try expectEqual(outcomes[16], .stored, "the newest is always stored")
            for (serial, outcome) in outcomes {
                switch outcome {
                case .stored: break
                case .older(let current): try expect(current > serial, "\(serial) refused for \(current)")
                case .unchanged, .conflict: try expect(false, "\(serial): \(outcome)")
                }
            }
            try expectEqual(try await store.read { try $0.latestMetadataBLOB() }, Optional(metadataBLOB(16)), "16")
        },
        Check("credentials by AAGUID: every user's, in credential-id order, paged after a credential id") { store in
            try await store.write { writer in
                try writer.insertUser(S.user(1), credential: credential(3, userID: "user-1", model: 0xB1))
                try writer.insertUser(S.user(2), credential: credential(1, userID: "user-2", model: 0xB1))
                try writer.insertCredential(credential(2, userID: "user-1", model: 0xB2))
                try writer.insertCredential(credential(4, userID: "user-2", model: 0xB1))
            }
            let model = S.bytes(0xB1, count: 16)
            let all = try await store.read { try $0.credentials(aaguid: model, afterCredentialID: nil, limit: 10) }
            try expectEqual(
                all.map(\.credentialID),
                [
                    credential(1, userID: "", model: 0).credentialID, credential(3, userID: "", model: 0).credentialID,
                    credential(4, userID: "", model: 0).credentialID,
                ], "by credential id")
            try expectEqual(all.map(\.userID), ["user-2", "user-1", "user-2"], "every user's")
            let first = try await store.read { try $0.credentials(aaguid: model, afterCredentialID: nil, limit: 2) }
            try expectEqual(first, Array(all.prefix(2)), "a page of 2")
            let rest = try await store.read {
                try $0.credentials(aaguid: model, afterCredentialID: first.last?.credentialID, limit: 2)
            }
            try expectEqual(rest, Array(all.suffix(1)), "the page after")
            try expectEqual(
                try await store.read {
                    try $0.credentials(aaguid: S.bytes(0xB3, count: 16), afterCredentialID: nil, limit: 10)
                }, [], "an AAGUID no credential has")
        },
    ]
}
