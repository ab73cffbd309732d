import Foundation
import JSON
import Storage
import Tokens

extension TokenService {
    /// Verifies the request's `DPoP` header (RFC 9449 §4.3) and remembers its `jti`, or returns `nil` when the
    /// request has none. One place for the token endpoint and every protected resource.
    /// - Parameters:
    ///   - accessToken: the access token presented with the proof (a resource request): then `ath` must match.
    ///   - boundThumbprint: the `jkt` the presented token is bound to: then the proof's key must be that key.
    /// - Throws: `invalid_dpop_proof` naming the failed check in the log, or `use_dpop_nonce` with a fresh nonce.
    package func checkDPoP(
        _ credentials: PresentedCredentials, accessToken: String? = nil, boundThumbprint: String? = nil
    ) async throws -> VerifiedDPoPProof? {
        let values = credentials.dpopProofs
        guard let header = values.first else { return nil }
        // RFC 9449 §4.3 check 1: not more than one DPoP header.
        guard values.count == 1 else {
            throw OAuthError.invalidDPoPProof("dpop_several_headers", reason: "\(values.count) DPoP headers")
        }
        let ring = try await currentRing()
        let now = clock.now()
        let settings = configuration.dpop
        let window = TimeInterval(settings.proofLifetimeSeconds)
        let nonces = DPoPNonces(keys: ring.dpopNonceKeys, lifetime: TimeInterval(settings.nonceLifetimeSeconds))
        let expectations = DPoPExpectations(
            method: credentials.method,
            // The request's URI as clients reach it: the issuer's origin (and path prefix) and the route's path.
            targetURI: configuration.url(of: credentials.path), now: now, window: window,
            acceptedNonces: settings.requireNonce ? try nonces.accepted(at: now) : nil, accessToken: accessToken,
            boundThumbprint: boundThumbprint)
        let proof: VerifiedDPoPProof
        do {
            proof = try DPoPProofVerifier().verify(header, expecting: expectations)
        } catch {
            var mapped = OAuthError.token(error)
            // RFC 9449 §8: the answer carries the nonce to use.
            if error.code == .dpopNonceRequired { mapped.dpopNonce = try nonces.current(at: now) }
            throw mapped
        }
        // RFC 9449 §11.1: jti once per key while iat is acceptable, on every node: the store decides.
        let use = DPoPProofUse(
            thumbprint: proof.thumbprint, jwtID: proof.jwtID, expiresAt: proof.issuedAt.addingTimeInterval(window + 1))
        guard try await store.write({ try $0.recordDPoPProof(use) }) else {
            throw OAuthError.invalidDPoPProof("dpop_replayed", reason: "jti \(proof.jwtID) of \(proof.thumbprint)")
        }
        return proof
    }

    /// The nonce for a successful answer's `DPoP-Nonce` header (RFC 9449 §8.2), when nonces are required.
    package func currentDPoPNonce() async throws -> String? {
        guard configuration.dpop.requireNonce else { return nil }
        let ring = try await currentRing()
        return try DPoPNonces(keys: ring.dpopNonceKeys, lifetime: TimeInterval(configuration.dpop.nonceLifetimeSeconds))
            .current(at: clock.now())
    }
}
