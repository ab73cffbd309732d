import Crypto
import Foundation

/// `passkeyd passkeys list USER [--aaguid UUID]` and `passkeyd passkeys list --aaguid UUID [--after CREDENTIAL_ID]
/// [--limit N]`.
package struct PasskeysListCommand: AccountCommand, Equatable {
    /// The user's id: optional with `--aaguid`.
    static let user = Operand("USER", optional: true)
    /// `--aaguid UUID`: only the passkeys of this authenticator model.
    static let aaguid = Option<[UInt8]>("--aaguid", "UUID", requirement: "must be a UUID (8-4-4-4-12 hex)") {
        UUID(uuidString: $0).map { withUnsafeBytes(of: $0.uuid) { Array($0) } }
    }
    /// `--after CREDENTIAL_ID`: the page starts after this credential id (base64url).
    static let after = Option<[UInt8]>("--after", "CREDENTIAL_ID", requirement: "must be a base64url credential id") {
        $0.isEmpty ? nil : Base64URL.decode($0)
    }
    /// `--limit N`: at most N passkeys (default 100).
    static let limit = Option<Int>("--limit", "N", range: 1...10_000)

    package static let words = ["passkeys", "list"]
    package static let operands = [user]
    package static let flags: [any Flag] = [aaguid, after, limit] + AccountOptions.flags
    package static let summary = """
        List the user's passkeys: credential id (base64url) and name; with --aaguid only those of that
        authenticator. Without USER, --aaguid lists every user's passkeys of that authenticator (credential id,
        user id, name) in credential-id order: at most N (default 100), from the one after CREDENTIAL_ID.
        """

    package var options: AccountOptions
    package var request: AdminRequest

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        options = AccountOptions(arguments)
        let userID = arguments.words(Self.user).first
        let aaguid = arguments[Self.aaguid]
        switch (userID, aaguid) {
        case (let userID?, _):
            guard arguments[Self.after] == nil, arguments[Self.limit] == nil else {
                throw UsageError(
                    "--after and --limit page passkeys list --aaguid without USER", usage: [Self.synopsis])
            }
            request = .listPasskeys(userID: userID, aaguid: aaguid)
        case (nil, let aaguid?):
            request = .listPasskeysOfAuthenticator(
                aaguid: aaguid, after: arguments[Self.after], limit: arguments[Self.limit] ?? 100)
        case (nil, nil):
            throw UsageError("passkeys list needs USER or --aaguid", usage: [Self.synopsis])
        }
    }
}
