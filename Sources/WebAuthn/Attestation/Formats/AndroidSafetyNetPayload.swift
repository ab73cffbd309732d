import Foundation

/// The JSON payload of a SafetyNet attestation response (Google SafetyNet Attestation API,
/// "JWS response contents"), reduced to the fields WebAuthn L3 §8.5.2 checks.
struct AndroidSafetyNetPayload: Decodable, Sendable {
    /// The nonce the app passed in: for WebAuthn, base64(SHA-256(authenticatorData || clientDataHash)).
    let nonce: String
    /// Milliseconds since the Unix epoch when Google's servers produced the response.
    let timestampMs: Int64
    /// True when the device passed the Android compatibility (CTS) profile.
    let ctsProfileMatch: Bool
}

/// The JSON header of the SafetyNet compact JWS (RFC 7515 §4.1), fields used here only.
struct AndroidSafetyNetHeader: Decodable, Sendable {
    /// RFC 7515 §4.1.1 `alg`.
    let alg: String
    /// RFC 7515 §4.1.6 `x5c`: standard base64 (not base64url) DER certificates, leaf first.
    let x5c: [String]
}
