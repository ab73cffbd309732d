import JSON
import Storage

/// The caller's device keys and their enrolment history (`GET /device-keys`).
package struct DeviceKeyListing: Sendable {
    package let context: ServerContext

    /// How many of the newest enrolment events the listing holds.
    package static let historyLength = 50

    /// `{keys: [...], history: [...]}`: the caller's keys only, oldest first, every status; and the newest
    /// enrolments, replacements, revocations and refused enrolments, newest first, so that the app can tell the user
    /// "a new device was added".
    package func list(for caller: DeviceKeyCaller) async throws -> JSONValue {
        let subject = caller.subject
        let (keys, events) = try await context.store.read { reader in
            (
                try reader.deviceKeys(userID: subject.sub),
                try reader.securityEvents(userID: subject.sub, limit: Self.historyLength * 4)
            )
        }
        let kinds: Set<SecurityEvent.Kind> = [.deviceKeyRegistered, .deviceKeyRevoked]
        let history = events.filter { $0.knownKind.map(kinds.contains) == true }.prefix(Self.historyLength)
        return [
            "keys": .array(keys.map(DeviceKeyRepresentation.json)),
            "history": .array(history.map(DeviceKeyRepresentation.json)),
        ]
    }

    /// Creates the value from its stored properties.
    package init(context: ServerContext) {
        self.context = context
    }
}
