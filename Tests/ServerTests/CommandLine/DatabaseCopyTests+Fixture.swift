import Foundation
import Storage
import TestSupport
import Testing

@testable import Service

extension DatabaseCopyTests {
    /// Rows for the tables the passkey flows below leave empty, through the store API, for the first user; returns it.
    static func fillTheRest(_ store: any Store) async throws -> User {
        let user = try #require(try await store.read { try $0.users(afterID: nil, limit: 10) }.first)
        let userID = user.id
        let now = Date()
        try await store.write { writer in
            _ = try writer.insertDeviceKey(
                DeviceKey(
                    keyID: "key-1", userID: userID, deviceID: "device-1", platform: "ios",
                    publicKey: [UInt8](repeating: 0x30, count: 91), createdAt: now))
            try writer.insertDeviceChallenge(
                DeviceChallenge(
                    challengeID: "challenge-1", keyID: "key-1", userID: userID, document: Array("{}".utf8),
                    actionHash: [UInt8](repeating: 0x44, count: 32), action: Array("{\"type\":\"x\"}".utf8),
                    createdAt: now, expiresAt: now.addingTimeInterval(120)))
            _ = try writer.recordDPoPProof(
                DPoPProofUse(thumbprint: "thumb", jwtID: "jti-1", expiresAt: now.addingTimeInterval(300)))
            try writer.storePasswordVerifier(
                PasswordVerifier(
                    userID: userID, realm: "main", identity: "moved@example.com", salt: [1, 2, 3], verifier: [4, 5, 6],
                    updatedAt: now))
            try writer.insertSRPSession(
                SRPSession(
                    id: "srp-1", clientID: "app", realm: "main", identity: "moved@example.com", userID: userID,
                    salt: [1], verifier: [2], clientPublic: [3], serverSecret: [4], serverPublic: [5],
                    address: "192.0.2.1", createdAt: now, expiresAt: now.addingTimeInterval(60)))
            _ = try writer.incrementFallbackCounter(
                key: "identity:main:moved@example.com", now: now, restartingBefore: nil)
            _ = try writer.insertServerSecret(name: "copy-test", value: [9, 9, 9])
            try writer.insertDeviceEnrolmentNonce(
                DeviceEnrolmentNonce(
                    nonce: "nonce-1", userID: userID, clientID: "app", createdAt: now,
                    expiresAt: now.addingTimeInterval(60)))
            _ = try writer.replaceRecoveryCodes(
                userID: userID,
                with: [RecoveryCode(userID: userID, codeHash: [7, 7], salt: [8], createdAt: now)])
            _ = try writer.spendToken(jwtID: "spent-1", expiresAt: now.addingTimeInterval(600))
            // A U2F passkey, whose attestation key identifier is kept (schema v21).
            try writer.insertCredential(
                Credential(
                    credentialID: [0xF2, 0x01], userID: userID, publicKey: [0xA5, 0x01], algorithm: -7, signCount: 3,
                    uvInitialized: false, backupEligible: false, backedUp: false, transports: ["usb"],
                    aaguid: [UInt8](repeating: 0, count: 16), attestationFormat: "fido-u2f", createdAt: now,
                    attestationKeyIdentifier: "8e66c7e2ca5a1c7e4d54ab0b7b8d8c2a2f0e9c44"))
            // An organization and its member (schema v17).
            try writer.insertOrganization(
                Organization(id: "org_copy000000000001", name: "copied", displayName: "Copied", createdAt: now))
            _ = try writer.addOrganizationMember(
                OrganizationMember(organizationID: "org_copy000000000001", userID: userID, addedAt: now))
            // A hosted login's session and code (schema v18; the code bound to a DPoP key, v20).
            try writer.insertHostedLogin(
                session: LoginSession(
                    idHash: [UInt8](repeating: 0x51, count: 32), userID: userID, realm: "main", authTime: now,
                    authenticationMethods: ["hwk"], createdAt: now, expiresAt: now.addingTimeInterval(600)),
                code: AuthorizationCode(
                    codeHash: [UInt8](repeating: 0x61, count: 32), clientID: "app", redirectURI: "https://a.example/cb",
                    codeChallenge: "challenge", userID: userID, sessionHash: [UInt8](repeating: 0x51, count: 32),
                    realm: "main", scope: "openid", nonce: "n", authTime: now, authenticationMethods: ["hwk"],
                    createdAt: now, expiresAt: now.addingTimeInterval(60),
                    dpopThumbprint: "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"))
            // A verified metadata BLOB, as `passkeyd metadata load` stores one (schema v19).
            _ = try writer.storeMetadataBLOB(
                MetadataBLOBRecord(
                    serial: 42, jws: "header.payload.signature", sha256: [UInt8](repeating: 0x71, count: 32),
                    nextUpdate: now.addingTimeInterval(86_400), loadedAt: now, source: "cli"))
            // A stored auth session, as adding a passkey or a recovery stores one (a login's is sealed).
            try writer.insertAuthSession(
                AuthSession(
                    id: "stored-1", clientID: "app", realm: "main", kind: .signup, challenge: [1], userHandle: [2],
                    createdAt: now, expiresAt: now.addingTimeInterval(60)))
        }
        // Part of the log sequenced (leaves, node hashes, a checkpoint), the newest events left queued.
        for _ in 0..<3 {
            try await store.write {
                _ = try $0.appendSecurityEvent(
                    SecurityEvent(occurredAt: Date(), storedKind: "copy_test", outcome: "success"))
            }
        }
        _ = try await AuditSequencer.drain(store: store)
        let size = try await store.read { try $0.auditTree().size }
        _ = try await store.write {
            try $0.insertAuditCheckpoint(AuditCheckpointRecord(treeSize: size, note: "note \(size)\n", signedAt: now))
        }
        try await store.write {
            _ = try $0.appendSecurityEvent(
                SecurityEvent(occurredAt: Date(), storedKind: "copy_test", outcome: "success"))
        }
        return user
    }
}
