import Foundation
import Storage

/// The passkey-lifecycle operations (renames, recovery codes, operators, account deletion). Each consuming
/// operation is one statement.
extension PostgresTransaction {
    func users(afterID: String?, limit: Int) throws(StorageError) -> [User] {
        try connection.query(
            "SELECT \(Self.userColumns) FROM users WHERE id COLLATE \"C\" > $1 ORDER BY id COLLATE \"C\" LIMIT $2",
            [.text(afterID ?? ""), .int8(Int64(max(0, limit)))], Self.user)
    }

    func recoveryCodes(userID: String) throws(StorageError) -> [RecoveryCode] {
        try connection.query(
            "SELECT \(Self.recoveryCodeColumns) FROM recovery_codes WHERE user_id = $1 ORDER BY code_hash",
            [.text(userID)], Self.recoveryCode)
    }

    func rowsMentioningUser(id userID: String, userHandle: [UInt8]) throws(StorageError) -> [String: Int] {
        // The audit log (security_events and the audit_* tables) keeps the user id on purpose (pseudonymous).
        let columns = try connection.query(
            """
            SELECT c.table_name::text, c.column_name::text, c.data_type::text FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
            AND c.table_name::text NOT LIKE 'audit\\_%' AND c.table_name::text <> 'security_events'
            ORDER BY c.table_name, c.ordinal_position
            """
        ) { (row) throws(StorageError) in (table: try row.text(0), column: try row.text(1), type: try row.text(2)) }
        var conditions: [String: [String]] = [:]
        for column in columns {
            // Names come from the catalogue, quoted as identifiers; the values are bound.
            let quoted = "\"\(column.column.replacingOccurrences(of: "\"", with: "\"\""))\""
            let condition =
                column.type == "bytea" ? "\(quoted) = $2" : "strpos(\(quoted)::text, $1) > 0"
            conditions[column.table, default: []].append(condition)
        }
        var counts: [String: Int] = [:]
        for (table, condition) in conditions {
            let quotedTable = "\"\(table.replacingOccurrences(of: "\"", with: "\"\""))\""
            let count =
                try one(
                    "SELECT count(*) FROM \(quotedTable) WHERE \(condition.joined(separator: " OR "))",
                    [.text(userID), .bytea(userHandle)]
                ) { (row) throws(StorageError) in try row.integer(0) } ?? 0
            if count > 0 { counts[table] = Int(count) }
        }
        return counts
    }

    func renameCredential(id credentialID: [UInt8], userID: String, name: String?) throws(StorageError) -> Bool {
        try connection.execute(
            "UPDATE credentials SET name = $1 WHERE credential_id = $2 AND user_id = $3",
            [.optionalText(name), .bytea(credentialID), .text(userID)]) == 1
    }

    func replaceRecoveryCodes(userID: String, with codes: [RecoveryCode]) throws(StorageError) -> Int {
        guard try user(id: userID) != nil else { throw StorageError(.notFound, "no user \(userID)") }
        guard codes.allSatisfy({ $0.userID == userID }) else {
            throw StorageError(.conflict, "recovery code of another user", constraint: .foreignKey)
        }
        let revoked = try connection.execute("DELETE FROM recovery_codes WHERE user_id = $1", [.text(userID)])
        for code in codes {
            try connection.execute(
                "INSERT INTO recovery_codes (\(Self.recoveryCodeColumns)) VALUES ($1, $2, $3, $4)",
                [.text(code.userID), .bytea(code.codeHash), .bytea(code.salt), .date(code.createdAt)])
        }
        return revoked
    }

    func isTokenSpent(jwtID: String) throws(StorageError) -> Bool {
        try one("SELECT 1 FROM spent_tokens WHERE jti = $1", [.text(jwtID)]) { (_) throws(StorageError) in true }
            ?? false
    }

    func isAuthSessionSpent(id: String) throws(StorageError) -> Bool {
        try one("SELECT 1 FROM spent_auth_sessions WHERE id = $1", [.text(id)]) { (_) throws(StorageError) in true }
            ?? false
    }

    func deleteUser(id: String) throws(StorageError) -> Bool {
        guard let user = try user(id: id) else { return false }
        for table in [
            "credentials", "refresh_tokens", "device_challenges", "device_keys", "device_enrolment_nonces",
            "password_verifiers", "srp_sessions", "recovery_codes", "organization_members", "login_sessions",
            "authorization_codes",
        ] {
            try connection.execute("DELETE FROM \(table) WHERE user_id = $1", [.text(id)])
        }
        try connection.execute("DELETE FROM auth_sessions WHERE user_handle = $1", [.bytea(user.userHandle)])
        return try connection.execute("DELETE FROM users WHERE id = $1", [.text(id)]) == 1
    }
}
