import Configuration
import Tokens

extension TokenService {
    /// The DPoP proof of a token request (RFC 9449 §5), checked before the grant spends anything: a valid proof
    /// binds the tokens to its key, and a client that requires DPoP (`require_dpop`) must send one. `nil` when the
    /// request carries none.
    /// - Throws: `invalid_dpop_proof` (`dpop_required` for a missing one), or `use_dpop_nonce` with a fresh nonce.
    package func checkGrantProof(_ credentials: PresentedCredentials, client: ClientConfiguration) async throws
        -> VerifiedDPoPProof?
    {
        let proof = try await checkDPoP(credentials)
        guard proof != nil || !client.requireDPoP else {
            throw OAuthError.invalidDPoPProof("dpop_required", reason: "client \(client.clientID) requires DPoP")
        }
        return proof
    }
}
