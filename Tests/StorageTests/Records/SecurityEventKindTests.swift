import Foundation
import Storage
import Testing

/// `SecurityEvent.Kind`, the names of the security events: they are stored in databases and signed into the audit
/// log, so they never change, and docs/audit.md describes each one.
@Suite("SecurityEvent.Kind: the stored event names and their documentation")
struct SecurityEventKindTests {
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The names in the first column of the table under "## What is recorded" in docs/audit.md, and the rows whose
    /// first cell is not exactly one backticked name.
    private static func documentedKinds() throws -> (names: [String], malformed: [String]) {
        let text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("docs/audit.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex(of: "## What is recorded"), "docs/audit.md lost its section")
        let table = lines[(heading + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        var names: [String] = []
        var malformed: [String] = []
        // The header row and the delimiter row come first.
        for row in table.dropFirst(2) {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            let cell = cells.count > 1 ? cells[1].trimmingCharacters(in: .whitespaces) : ""
            let inner = cell.dropFirst().dropLast()
            if cell.count > 2, cell.hasPrefix("`"), cell.hasSuffix("`"), !inner.contains("`") {
                names.append(String(inner))
            } else {
                malformed.append(row)
            }
        }
        return (names, malformed)
    }

    @Test("docs/audit.md has one row for every kind, and no row for a name that is no kind")
    func documented() throws {
        let (names, malformed) = try Self.documentedKinds()
        #expect(malformed == [], "rows whose first cell is not one backticked event name")
        let kinds = Set(SecurityEvent.Kind.allCases.map(\.rawValue))
        #expect(kinds.subtracting(names).sorted() == [], "kinds missing from docs/audit.md")
        #expect(Set(names).subtracting(kinds).sorted() == [], "docs/audit.md lists names that are no kind")
        #expect(names.count == Set(names).count, "a kind has two rows")
    }

    @Test("the raw values are the names existing databases and signed audit logs hold, unchanged")
    func storedNames() {
        #expect(
            SecurityEvent.Kind.allCases.map(\.rawValue).sorted() == [
                "PASSWORD_AUTH_FALLBACK", "account_deleted", "authenticator_refused", "authenticator_reported",
                "biometric_failure", "biometric_success", "client_credentials",
                "code_redeemed", "code_refused", "code_reuse", "device_approval", "device_challenge",
                "device_key_locked",
                "device_key_password_required",
                "device_key_registered", "device_key_request", "device_key_revoked", "device_key_unlocked",
                "key_invalidated", "login", "login_locks_lifted", "logout", "metadata_loaded", "organization_deleted",
                "organization_member_added",
                "organization_member_removed", "passkey_added", "passkey_removed", "passkey_renamed",
                "password_fallback", "password_verifier_sealed", "password_verifier_stored", "recovery_attempt",
                "recovery_challenge", "recovery_codes_generated", "recovery_locked", "refresh", "refresh_retry",
                "refresh_reuse", "revocation", "server_secret_rotated", "server_secret_sealed", "sessions_revoked",
                "signing_key_rotated",
                "signing_key_sealed",
                "signup", "srp_locked", "srp_login_attempt",
            ])
    }

    @Test("an event keeps the name it was stored under: a kind's raw value, or a name no kind spells any more")
    func storedKind() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let written = SecurityEvent(occurredAt: now, kind: .deviceKeyRevoked, outcome: "success")
        #expect(written.kind == "device_key_revoked")
        #expect(written.knownKind == .deviceKeyRevoked)
        let old = SecurityEvent(occurredAt: now, storedKind: "approval", outcome: "success")
        #expect(old.kind == "approval")
        #expect(old.knownKind == nil)
    }
}
