import Crypto
import Foundation
import Tokens

/// Stateless DPoP nonces (RFC 9449 §8): base64url of HMAC-SHA-256, under a key every node derives from the active
/// ES256 signing key in the shared store, of the number of the current time window. Any node accepts what another
/// one gave, and nothing is stored. The nonce of the current window and of the one before are accepted, so a nonce
/// lives between one and two `lifetime`s. Nonces under the other published ES256 keys are accepted too: across a
/// signing-key rotation a client's nonce keeps working until its windows pass, and nodes that switch to the new key
/// a moment apart accept each other's nonces (the new key is published on every node before any signs with it).
package struct DPoPNonces: Sendable {
    /// What the nonce key is derived for (HMAC message under the signing key's bytes).
    package static let keyDerivationLabel = "passkeyd DPoP nonce key v1"

    /// The HMAC keys: the one nonces are handed out under, then the others still accepted.
    package let keys: [[UInt8]]
    /// How long one window lasts, in seconds.
    package let lifetime: TimeInterval

    /// The nonce to hand out at `now`.
    package func current(at now: Date) throws -> String {
        guard let key = keys.first else { throw TokenError(.unusableKey, "no DPoP nonce key") }
        return try nonce(window: window(at: now), key: key)
    }

    /// The nonces accepted at `now`: this window's and the previous one's, under each key.
    package func accepted(at now: Date) throws -> [String] {
        let current = window(at: now)
        return try keys.flatMap { key in
            [try nonce(window: current, key: key), try nonce(window: current - 1, key: key)]
        }
    }

    private func window(at now: Date) -> Int64 {
        Int64((now.timeIntervalSince1970 / lifetime).rounded(.down))
    }

    private func nonce(window: Int64, key: [UInt8]) throws -> String {
        Base64URL.encode(try HMAC.sha256(key: key, message: Array("dpop-nonce:\(window)".utf8)))
    }
}
