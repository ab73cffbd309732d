import Foundation

/// Reading records from SQL rows, the same for every SQL driver: one column list and one decoder per record (a
/// decoder reads the columns in its list's order). A driver's transaction adopts it with its row type.
package protocol RecordDecoding {
    associatedtype Row: RecordRow
}

extension RecordDecoding {
    package static var userColumns: String {
        "id, user_handle, realm, email, phone_number, username, name, created_at, \(profileColumns)"
    }

    package static func user(_ row: Row) throws(StorageError) -> User {
        User(
            id: try row.text(0), userHandle: try row.bytes(1), realm: try row.text(2), email: try row.optionalText(3),
            phoneNumber: try row.optionalText(4), username: try row.optionalText(5), name: try row.optionalText(6),
            createdAt: try row.date(7), profile: try profile(row, from: 8))
    }

    /// The profile columns, the same in `users` and `auth_sessions` (migration v8).
    package static var profileColumns: String { "given_name, family_name, nickname, picture, user_metadata" }

    /// `ProfileAttributes` from the five profile columns starting at `first`.
    package static func profile(_ row: Row, from first: Int32) throws(StorageError) -> ProfileAttributes {
        ProfileAttributes(
            givenName: try row.optionalText(first), familyName: try row.optionalText(first + 1),
            nickname: try row.optionalText(first + 2), picture: try row.optionalText(first + 3),
            userMetadata: try row.optionalText(first + 4))
    }

    package static var credentialColumns: String {
        """
            credential_id, user_id, public_key, algorithm, sign_count, uv_initialized, backup_eligible, backed_up, \
            transports, aaguid, attestation_format, created_at, last_used_at, name, attestation_key_id
        """
    }

    package static func credential(_ row: Row) throws(StorageError) -> Credential {
        guard let signCount = UInt32(exactly: try row.integer(4)) else {
            throw StorageError(.invalidRecord, "sign_count out of range")
        }
        return Credential(
            credentialID: try row.bytes(0), userID: try row.text(1), publicKey: try row.bytes(2),
            algorithm: Int(try row.integer(3)), signCount: signCount, uvInitialized: try row.bool(5),
            backupEligible: try row.bool(6), backedUp: try row.bool(7),
            transports: try TransportsColumn.decode(row.text(8)),
            aaguid: try row.bytes(9), attestationFormat: try row.text(10), createdAt: try row.date(11),
            lastUsedAt: try row.optionalDate(12), name: try row.optionalText(13),
            attestationKeyIdentifier: try row.optionalText(14))
    }

    package static var recoveryCodeColumns: String { "user_id, code_hash, salt, created_at" }

    package static func recoveryCode(_ row: Row) throws(StorageError) -> RecoveryCode {
        RecoveryCode(
            userID: try row.text(0), codeHash: try row.bytes(1), salt: try row.bytes(2), createdAt: try row.date(3))
    }

    package static var authSessionColumns: String {
        """
            id, client_id, realm, kind, challenge, email, phone_number, username, name, user_handle, created_at, \
            expires_at, \(profileColumns)
        """
    }

    package static func authSession(_ row: Row) throws(StorageError) -> AuthSession {
        AuthSession(
            id: try row.text(0), clientID: try row.text(1), realm: try row.text(2),
            kind: try row.enumeration(3, as: AuthSession.Kind.self), challenge: try row.bytes(4),
            email: try row.optionalText(5), phoneNumber: try row.optionalText(6), username: try row.optionalText(7),
            name: try row.optionalText(8), userHandle: try row.optionalBytes(9), createdAt: try row.date(10),
            expiresAt: try row.date(11), profile: try profile(row, from: 12))
    }

    package static var refreshTokenColumns: String {
        """
            token_hash, family_id, client_id, user_id, scope, auth_time, created_at, absolute_expires_at, \
            idle_expires_at, rotated_at, revoked_at, dpop_jkt, audience, amr, successor_hash, organization_id
        """
    }

    package static func refreshToken(_ row: Row) throws(StorageError) -> RefreshToken {
        RefreshToken(
            tokenHash: try row.bytes(0), familyID: try row.text(1), clientID: try row.text(2), userID: try row.text(3),
            scope: try row.text(4), authTime: try row.date(5), createdAt: try row.date(6),
            absoluteExpiresAt: try row.date(7), idleExpiresAt: try row.date(8), rotatedAt: try row.optionalDate(9),
            revokedAt: try row.optionalDate(10), dpopThumbprint: try row.optionalText(11),
            audience: try row.optionalText(12), authenticationMethods: try AuthenticationMethodsColumn.decode(row, 13),
            successorHash: try row.optionalBytes(14), organizationID: try row.optionalText(15))
    }

    package static var organizationColumns: String { "id, name, display_name, created_at" }

    package static func organization(_ row: Row) throws(StorageError) -> Organization {
        Organization(
            id: try row.text(0), name: try row.text(1), displayName: try row.optionalText(2),
            createdAt: try row.date(3))
    }

    package static var organizationMemberColumns: String { "organization_id, user_id, added_at" }

    package static func organizationMember(_ row: Row) throws(StorageError) -> OrganizationMember {
        OrganizationMember(organizationID: try row.text(0), userID: try row.text(1), addedAt: try row.date(2))
    }

    package static var signingKeyColumns: String { "kid, algorithm, private_key, public_key, created_at, retired_at" }

    package static func signingKey(_ row: Row) throws(StorageError) -> SigningKey {
        SigningKey(
            kid: try row.text(0), algorithm: try row.text(1), privateKey: try row.bytes(2), publicKey: try row.bytes(3),
            createdAt: try row.date(4), retiredAt: try row.optionalDate(5))
    }

    package static var deviceKeyColumns: String {
        """
            key_id, user_id, device_id, platform, public_key, status, failed_attempts, locked_at, created_at, \
            last_used_at, revoked_at, attestation_platform, attestation_level, attestation_verified_at, \
            attestation_boot_state, dpop_jkt
        """
    }

    package static func deviceKey(_ row: Row) throws(StorageError) -> DeviceKey {
        // The attestation columns are all set or all null (the writers store `DeviceKey.attestation` whole).
        var attestation: DeviceKeyAttestation?
        if let platform = try row.optionalText(11) {
            guard let level = try row.optionalText(12), let verifiedAt = try row.optionalDate(13) else {
                throw StorageError(.invalidRecord, "device key attestation without level or verification time")
            }
            attestation = DeviceKeyAttestation(
                platform: platform, level: level, verifiedAt: verifiedAt, verifiedBootState: try row.optionalText(14))
        }
        return DeviceKey(
            keyID: try row.text(0), userID: try row.text(1), deviceID: try row.text(2), platform: try row.text(3),
            publicKey: try row.bytes(4), status: try row.enumeration(5, as: DeviceKey.Status.self),
            failedAttempts: Int(try row.integer(6)), lockedAt: try row.optionalDate(7), createdAt: try row.date(8),
            lastUsedAt: try row.optionalDate(9), revokedAt: try row.optionalDate(10), attestation: attestation,
            dpopThumbprint: try row.optionalText(15))
    }

    package static var deviceEnrolmentNonceColumns: String { "nonce, user_id, client_id, created_at, expires_at" }

    package static func deviceEnrolmentNonce(_ row: Row) throws(StorageError) -> DeviceEnrolmentNonce {
        DeviceEnrolmentNonce(
            nonce: try row.text(0), userID: try row.text(1), clientID: try row.text(2), createdAt: try row.date(3),
            expiresAt: try row.date(4))
    }

    package static var deviceChallengeColumns: String {
        """
            challenge_id, key_id, user_id, document, action_hash, action, created_at, expires_at, consumed_at
        """
    }

    package static func deviceChallenge(_ row: Row) throws(StorageError) -> DeviceChallenge {
        DeviceChallenge(
            challengeID: try row.text(0), keyID: try row.text(1), userID: try row.text(2), document: try row.bytes(3),
            actionHash: try row.bytes(4), action: try row.bytes(5), createdAt: try row.date(6),
            expiresAt: try row.date(7), consumedAt: try row.optionalDate(8))
    }

    package static var securityEventColumns: String {
        """
            seq, occurred_at, device_time, kind, user_id, key_id, device_id, client_id, action_hash, outcome, \
            reason_code, attempts, detail, credential_id, family_id, request_id, client_address, node_id
        """
    }

    package static func securityEvent(_ row: Row) throws(StorageError) -> SecurityEvent {
        SecurityEvent(
            seq: try row.integer(0), occurredAt: try row.date(1), deviceTime: try row.optionalDate(2),
            storedKind: try row.text(3), userID: try row.optionalText(4), keyID: try row.optionalText(5),
            deviceID: try row.optionalText(6), clientID: try row.optionalText(7), actionHash: try row.optionalBytes(8),
            outcome: try row.text(9), reasonCode: try row.optionalText(10), attempts: try row.optionalInt(11),
            detail: try row.optionalBytes(12), credentialID: try row.optionalBytes(13),
            familyID: try row.optionalText(14), requestID: try row.optionalText(15),
            clientAddress: try row.optionalText(16), nodeID: try row.optionalText(17))
    }

    package static var auditLeafColumns: String { "leaf_index, entry, leaf_hash" }

    package static func auditLeaf(_ row: Row) throws(StorageError) -> AuditLeaf {
        AuditLeaf(index: try row.integer(0), entry: try row.bytes(1), leafHash: try row.bytes(2))
    }

    package static var auditCheckpointColumns: String { "tree_size, note, signed_at" }

    package static func auditCheckpoint(_ row: Row) throws(StorageError) -> AuditCheckpointRecord {
        AuditCheckpointRecord(treeSize: try row.integer(0), note: try row.text(1), signedAt: try row.date(2))
    }
}
