import Crypto
import Foundation
import JSON
import Storage

/// Rotating the server secret of the sealed auth sessions and hosted transactions (`AuthSessionKey`), as
/// `passkeyd keys rotate-session-key` does, in two steps that no running node notices:
///
/// 1. `publish`: a new random secret is stored as `AuthSessionKey.nextSecretName`. Every node opens with it once it
///    has read the secrets again (`AuthSessionKey.reloadInterval`), none seals with it yet.
/// 2. `promote`, `publicationDelay` later: the published secret becomes the current one, which seals, and the
///    current one becomes `previousSecretName`, which still opens what it sealed (an auth session lives minutes, a
///    hosted transaction ten) until the next rotation replaces it. A node that has not read the promotion yet
///    seals with the retired secret, which every node still opens.
///
/// `promote(dropPrevious: true)` (`--now`, a secret believed compromised) retires the old secret at once: from then
/// on it opens nothing on a node that has read the change, so ceremonies begun under it fail and start again.
/// Each step is one write that compares and sets every row it changes: two rotations at once cannot interleave.
package enum AuthSessionKeyRotation {
    /// How long a published secret waits before it seals: every node reads it within `AuthSessionKey.reloadInterval`.
    package static let publicationDelay: Duration = AuthSessionKey.reloadInterval + .seconds(10)

    /// What a step refuses: nothing published to promote, or a rotation that ran at the same time.
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
    }

    /// Stores a new random secret as the next one (replacing one published and not yet promoted).
    package static func publish(store: any Store, keys: SecretEncryptionKeys) async throws {
        let name = AuthSessionKey.nextSecretName
        let stored = try keys.storedNamedSecret(
            try SecureRandom.bytes(count: SecretEncryptionKeys.namedSecretLength), name: name)
        try await store.write { writer in try put(writer, name: name, stored) }
    }

    /// Makes the published secret the current one; the current one opens on as the previous one, or, with
    /// `dropPrevious`, no more. Recorded in the audit log (`server_secret_rotated`).
    /// - Throws: `Refusal` when nothing was published, or a concurrent rotation changed a row meanwhile.
    package static func promote(store: any Store, keys: SecretEncryptionKeys, now: Date, dropPrevious: Bool)
        async throws
    {
        let (current, next, previous) =
            (AuthSessionKey.secretName, AuthSessionKey.nextSecretName, AuthSessionKey.previousSecretName)
        try await store.write { writer in
            guard let currentStored = try writer.serverSecret(name: current),
                let nextStored = try writer.serverSecret(name: next)
            else { throw Refusal(description: "no session key was published (\(next))") }
            let retiring = try keys.namedSecret(currentStored, name: current)
            let published = try keys.namedSecret(nextStored, name: next)
            guard published != retiring else {
                throw Refusal(description: "the published session key is already the current one")
            }
            // Retired first: the row that opens what the current secret sealed is in place before it stops sealing.
            try put(
                writer, name: previous, try keys.storedNamedSecret(dropPrevious ? published : retiring, name: previous))
            guard
                try writer.replaceServerSecret(
                    name: current, expected: currentStored,
                    replacement: try keys.storedNamedSecret(published, name: current))
            else { throw Refusal(description: "another rotation changed \(current) meanwhile") }
            _ = try writer.appendSecurityEvent(
                PasswordFallbackAuditEvent.make(
                    .serverSecretRotated, outcome: "success", now: now, userID: nil, clientID: nil,
                    reasonCode: dropPrevious ? "previous_dropped" : "previous_kept",
                    detail: [JSONMember(key: "name", value: .string(current))]))
        }
    }

    /// Sets the server secret `name` to `value`: replaced if stored (compare-and-set), else inserted.
    private static func put(_ writer: any StoreWriter, name: String, _ value: [UInt8]) throws {
        if let existing = try writer.serverSecret(name: name) {
            guard try writer.replaceServerSecret(name: name, expected: existing, replacement: value) else {
                throw Refusal(description: "another rotation changed \(name) meanwhile")
            }
        } else {
            guard try writer.insertServerSecret(name: name, value: value) == value else {
                throw Refusal(description: "another rotation stored \(name) meanwhile")
            }
        }
    }
}
