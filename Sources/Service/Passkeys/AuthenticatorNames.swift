import Crypto
import Foundation
import JSON
import Metadata
import Storage

/// How a passkey's authenticator is named, the one resolver for `GET /me/passkeys` and the admin commands: the
/// user-set name, then the FIDO MDS3 statement's `description` for its AAGUID, then the built-in provider names
/// (`AAGUIDNames`), then "Passkey". With the statement come its icon and the authenticator's latest MDS status.
package struct AuthenticatorNames: Sendable {
    /// The authenticator of one AAGUID as shown: its name, icon (a `data:image/…` URL) and latest MDS status.
    package struct Authenticator: Sendable, Equatable {
        package let name: String
        package let icon: String?
        package let status: AuthenticatorStatus?
    }

    /// The BLOB in use, nil when none is loaded.
    package let snapshot: MetadataSnapshot?
    /// The time statuses are judged at.
    package let now: Date

    package init(snapshot: MetadataSnapshot?, now: Date) {
        self.snapshot = snapshot
        self.now = now
    }

    /// The server's current BLOB at its clock's now.
    package init(context: ServerContext) {
        self.init(snapshot: context.metadata.current(), now: context.clock.now())
    }

    /// The authenticator of `aaguid` (16 bytes).
    package func authenticator(aaguid: [UInt8]) -> Authenticator {
        let entry = aaguid.count == 16 ? snapshot?.catalog.entry(aaguid: aaguid) : nil
        let description = entry?.statement?.description.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = description.flatMap { $0.isEmpty ? nil : $0 } ?? AAGUIDNames.name(for: aaguid)
        // Only an image as a data URL: the icon is BLOB content that pages put in an <img>, never a link elsewhere.
        let icon = entry?.statement?.icon.flatMap { $0.hasPrefix("data:image/") ? $0 : nil }
        return Authenticator(name: name, icon: icon, status: entry?.latestStatus(at: now))
    }

    /// The name of `credential`: the user's, else its authenticator's.
    package func name(of credential: Credential) -> String {
        credential.name ?? authenticator(aaguid: credential.aaguid).name
    }

    /// `{name, icon, status}` of `aaguid`'s authenticator (`icon` and `status` null when unknown).
    package func json(aaguid: [UInt8]) -> JSONValue {
        let authenticator = authenticator(aaguid: aaguid)
        return .object([
            JSONMember(key: "name", value: .string(authenticator.name)),
            JSONMember(key: "icon", value: authenticator.icon.map(JSONValue.string) ?? .null),
            JSONMember(key: "status", value: authenticator.status.map { .string($0.rawValue) } ?? .null),
        ])
    }
}
