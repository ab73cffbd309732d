import Foundation
import Storage

/// The passkey-lifecycle operations (renames, recovery codes, operators, account deletion).
extension SQLiteTransaction {
    func users(afterID: String?, limit: Int) throws(StorageError) -> [User] {
        try database.query(
            "SELECT \(Self.userColumns) FROM users WHERE id > ? ORDER BY id LIMIT ?",
            [.text(afterID ?? ""), .integer(Int64(max(0, limit)))], Self.user)
    }

    func recoveryCodes(userID: String) throws(StorageError) -> [RecoveryCode] {
        try database.query(
            "SELECT \(Self.recoveryCodeColumns) FROM recovery_codes WHERE user_id = ? ORDER BY code_hash",
            [.text(userID)], Self.recoveryCode)
    }

    func rowsMentioningUser(id userID: String, userHandle: [UInt8]) throws(StorageError) -> [String: Int] {
        // The audit log (security_events and the audit_* tables) keeps the user id on purpose (pseudonymous).
        let tables = try database.query(
            """
            SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
            AND name NOT LIKE 'audit_%' AND name <> 'security_events' ORDER BY name
            """, []
        ) { (row) throws(StorageError) in try row.text(0) }
        var counts: [String: Int] = [:]
        for table in tables {
            let columns = try database.query("SELECT name FROM pragma_table_info(?)", [.text(table)]) {
                (row) throws(StorageError) in try row.text(0)
            }
            guard !columns.isEmpty else { continue }
            // Names come from the catalogue, quoted as identifiers; the values are bound.
            let condition = columns.map { column in
                let quoted = "\"\(column.replacingOccurrences(of: "\"", with: "\"\""))\""
                return "\(quoted) = ?1 OR \(quoted) = ?2 OR instr(CAST(\(quoted) AS TEXT), ?1) > 0"
            }.joined(separator: " OR ")
            let quotedTable = "\"\(table.replacingOccurrences(of: "\"", with: "\"\""))\""
            let count =
                try one("SELECT count(*) FROM \(quotedTable) WHERE \(condition)", [.text(userID), .blob(userHandle)]) {
                    (row) throws(StorageError) in try row.integer(0)
                } ?? 0
            if count > 0 { counts[table] = Int(count) }
        }
        return counts
    }

    func renameCredential(id credentialID: [UInt8], userID: String, name: String?) throws(StorageError) -> Bool {
        try database.execute(
            "UPDATE credentials SET name = ? WHERE credential_id = ? AND user_id = ?",
            [.optionalText(name), .blob(credentialID), .text(userID)]) == 1
    }

    func replaceRecoveryCodes(userID: String, with codes: [RecoveryCode]) throws(StorageError) -> Int {
        guard try user(id: userID) != nil else { throw StorageError(.notFound, "no user \(userID)") }
        guard codes.allSatisfy({ $0.userID == userID }) else {
            throw StorageError(.conflict, "recovery code of another user", constraint: .foreignKey)
        }
        let revoked = try database.execute("DELETE FROM recovery_codes WHERE user_id = ?", [.text(userID)])
        for code in codes {
            try database.execute(
                "INSERT INTO recovery_codes (\(Self.recoveryCodeColumns)) VALUES (?, ?, ?, ?)",
                [.text(code.userID), .blob(code.codeHash), .blob(code.salt), .date(code.createdAt)])
        }
        return revoked
    }

    func isTokenSpent(jwtID: String) throws(StorageError) -> Bool {
        try one("SELECT 1 FROM spent_tokens WHERE jti = ?", [.text(jwtID)]) { (_) throws(StorageError) in true }
            ?? false
    }

    func isAuthSessionSpent(id: String) throws(StorageError) -> Bool {
        try one("SELECT 1 FROM spent_auth_sessions WHERE id = ?", [.text(id)]) { (_) throws(StorageError) in true }
            ?? false
    }

    func deleteUser(id: String) throws(StorageError) -> Bool {
        guard let user = try user(id: id) else { return false }
        for table in [
            "credentials", "refresh_tokens", "device_challenges", "device_keys", "device_enrolment_nonces",
            "password_verifiers", "srp_sessions", "recovery_codes", "organization_members", "login_sessions",
            "authorization_codes",
        ] {
            try database.execute("DELETE FROM \(table) WHERE user_id = ?", [.text(id)])
        }
        try database.execute("DELETE FROM auth_sessions WHERE user_handle = ?", [.blob(user.userHandle)])
        return try database.execute("DELETE FROM users WHERE id = ?", [.text(id)]) == 1
    }
}
