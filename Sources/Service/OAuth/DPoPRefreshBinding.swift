import Crypto
import DeviceKeys
import Storage
import Tokens

/// RFC 9449 §5: what presenting a DPoP-bound refresh token requires.
package enum DPoPRefreshBinding {
    /// Checks `token`'s binding against the request's proof (already verified by `TokenService.checkDPoP`).
    ///
    /// - A bound token needs a proof, by the key it is bound to.
    /// - When that key is one of the user's device keys (an app may use its hardware-backed device key as its
    ///   DPoP key, so that a refresh token is useless without the phone), the device key must be active: revoking
    ///   it (phone lost, biometry changed) also ends the refreshes it guarded.
    /// - Throws: `invalid_dpop_proof` when a check fails.
    package static func check(_ token: Storage.RefreshToken, proofThumbprint: String?, reader: any StoreReader) throws {
        guard let bound = token.dpopThumbprint else { return }
        guard let proofThumbprint else {
            throw OAuthError.invalidDPoPProof("dpop_refresh_proof_missing", reason: "refresh token bound to \(bound)")
        }
        guard ConstantTime.equals(Array(bound.utf8), Array(proofThumbprint.utf8)) else {
            throw OAuthError.invalidDPoPProof(
                "dpop_refresh_key_mismatch", reason: "proof key \(proofThumbprint), token bound to \(bound)")
        }
        // Only P-256 keys can be device keys; an Ed25519 thumbprint never matches one.
        for key in try reader.deviceKeys(userID: token.userID) {
            guard let imported = try? DevicePublicKey(importing: key.publicKey),
                JWKThumbprint.of(imported.publicKey) == bound
            else { continue }
            guard key.status == .active else {
                throw OAuthError.invalidDPoPProof(
                    "dpop_device_key_not_active", reason: "DPoP key is device key \(key.keyID), \(key.status)")
            }
            return
        }
    }
}
