import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// Why a `passkeyd database …` command refused: its one-line message, or "" and a recorded issue when it did not
/// refuse. Shared by the copy, backup and restore tests.
func databaseCommandRefusal(_ command: () async throws(DatabaseCommandFailure) -> [String]) async -> String {
    do {
        _ = try await command()
        Issue.record("the command was not refused")
        return ""
    } catch {
        return error.description
    }
}
