import Configuration
import Crypto
import Foundation
import JSON
import Storage
import Tokens

/// One stored token-signing key as `passkeyd keys list` shows it: what it does now under the rotation rules
/// (`SigningKeyRotation`, as every node applies them) and how it is kept at rest.
public struct SigningKeyStatus: Sendable, Equatable {
    /// What the key does at the instant the list was made.
    public enum State: String, Sendable, Equatable {
        /// The newest active key of its algorithm: new tokens are signed with it.
        case signing
        /// Published, and signs from `createdAt` (a rotation's publication delay).
        case pending
        /// Retired: no longer signs, published until the tokens it signed have expired (`publishedUntil`).
        case retired
        /// Active but superseded by a newer key of its algorithm (a rotation that did not retire it): published.
        case published
        /// Retired long enough that every token it signed has expired: no longer in the JWKS.
        case expired
    }

    public let kid: String
    public let algorithm: String
    public let createdAt: Date
    public let retiredAt: Date?
    public let state: State
    /// Until when a retired key stays in the JWKS.
    public let publishedUntil: Date?
    /// The fingerprint of the key-encryption key that sealed it (`SecretEncryption`), `nil` when it is stored
    /// unencrypted.
    public let sealedBy: String?

    /// The status of each of `keys` at `now`, newest first within each algorithm.
    package static func statuses(of keys: [SigningKey], rotation: SigningKeyRotation, now: Date) -> [SigningKeyStatus] {
        TokenSigningAlgorithm.allCases.flatMap { algorithm -> [SigningKeyStatus] in
            let own = keys.filter { $0.algorithm == algorithm.rawValue }.sorted { $0.createdAt > $1.createdAt }
            let records = own.map { SigningKeyRecord(keyID: $0.kid, createdAt: $0.createdAt, retiredAt: $0.retiredAt) }
            let signing = rotation.signingKey(among: records, at: now)?.keyID
            let published = Set(rotation.publishedKeys(among: records, at: now).map(\.keyID))
            return own.map { key in
                let state = Self.state(
                    of: key, signing: key.kid == signing, published: published.contains(key.kid), now: now)
                return SigningKeyStatus(
                    kid: key.kid, algorithm: key.algorithm, createdAt: key.createdAt, retiredAt: key.retiredAt,
                    state: state,
                    publishedUntil: key.retiredAt.map { $0.addingTimeInterval(rotation.maxTokenLifetime) },
                    sealedBy: SecretEncryption.sealer(of: key.privateKey).map { Hex.encode($0) })
            }
        }
    }

    private static func state(of key: SigningKey, signing: Bool, published: Bool, now: Date) -> State {
        if signing { return .signing }
        if !published { return .expired }
        // A key retired no later than it would have started (two rotations within the publication delay) never
        // signs: retired, not pending.
        if let retiredAt = key.retiredAt, retiredAt <= now || retiredAt <= key.createdAt { return .retired }
        return key.createdAt > now ? .pending : .published
    }

    /// The JSON of `keys list --json`.
    public var json: JSONValue {
        .object([
            JSONMember(key: "kid", value: .string(kid)),
            JSONMember(key: "algorithm", value: .string(algorithm)),
            JSONMember(key: "state", value: .string(state.rawValue)),
            JSONMember(key: "created_at", value: RFC3339.timestamp(createdAt)),
            JSONMember(key: "retired_at", value: retiredAt.map(RFC3339.timestamp) ?? .null),
            JSONMember(key: "published_until", value: publishedUntil.map(RFC3339.timestamp) ?? .null),
            JSONMember(key: "encryption", value: sealedBy.map { .string("aes-256-gcm:\($0)") } ?? .string("none")),
        ])
    }

    /// What `keys list` prints: a JSON array of `json`, or one `line` per key.
    public static func listing(_ statuses: [SigningKeyStatus], json: Bool) -> String {
        json
            ? String(decoding: JSONValue.array(statuses.map(\.json)).serialized(), as: UTF8.self)
            : statuses.map(\.line).joined(separator: "\n")
    }

    /// The line of `keys list`: kid, algorithm, state (with its instant), encryption.
    public var line: String {
        let format = Date.ISO8601FormatStyle()
        let when: String =
            switch state {
            case .signing, .published: "since \(createdAt.formatted(format))"
            case .pending: "signs from \(createdAt.formatted(format))"
            case .retired: "published until \(publishedUntil.map { $0.formatted(format) } ?? "?")"
            case .expired: "retired \(retiredAt.map { $0.formatted(format) } ?? "?")"
            }
        let encryption = sealedBy.map { "encrypted (key-encryption key \($0))" } ?? "unencrypted"
        return "\(kid)\t\(algorithm)\t\(state.rawValue), \(when)\t\(encryption)"
    }
}
