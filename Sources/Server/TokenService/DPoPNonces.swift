import Crypto
import Foundation

/// Stateless DPoP nonces (RFC 9449 §8): base64url of HMAC-SHA-256, under a key every node derives from the active
/// signing key in the shared store, of the number of the current time window. Any node accepts what another one
/// gave, and nothing is stored. The nonce of the current window and of the one before are accepted, so a nonce
/// lives between one and two `lifetime`s; after a signing-key rotation the old nonces stop working and the client
/// gets one `use_dpop_nonce` answer with a new one.
struct DPoPNonces: Sendable {
    /// What the nonce key is derived for (HMAC message under the signing key's bytes).
    static let keyDerivationLabel = "passkeyd DPoP nonce key v1"

    /// The HMAC key.
    let key: [UInt8]
    /// How long one window lasts, in seconds.
    let lifetime: TimeInterval

    /// The nonce to hand out at `now`.
    func current(at now: Date) throws -> String {
        try nonce(window: window(at: now))
    }

    /// The nonces accepted at `now`: this window's and the previous one's.
    func accepted(at now: Date) throws -> [String] {
        let current = window(at: now)
        return [try nonce(window: current), try nonce(window: current - 1)]
    }

    private func window(at now: Date) -> Int64 {
        Int64((now.timeIntervalSince1970 / lifetime).rounded(.down))
    }

    private func nonce(window: Int64) throws -> String {
        Base64URL.encode(try HMAC.sha256(key: key, message: Array("dpop-nonce:\(window)".utf8)))
    }
}
