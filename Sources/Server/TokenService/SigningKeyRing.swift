import Crypto
import Foundation
import Storage
import Tokens

/// The token-signing keys as loaded from the store at one instant, with everything derived from them cached:
/// the signer of the active key, a verifier over every published key and the JWKS document bytes.
struct SigningKeyRing: Sendable {
    /// Signs new tokens with the newest active key.
    let signer: JWTSigner
    /// Verifies tokens signed by any published key.
    let verifier: JWTVerifier
    /// `/.well-known/jwks.json`, serialised once.
    let jwksBytes: [UInt8]
    /// When the ring was built (server time), to reload it after `TokenService.reloadInterval`.
    let loadedAt: Date
    /// The key of the stateless DPoP nonces, derived from the active signing key (`DPoPNonces`).
    let dpopNonceKey: [UInt8]

    /// Builds the ring from the stored keys at `now`.
    /// - Throws: `TokenError.unusableKey` when no key is active or a stored key does not parse.
    init(keys: [SigningKey], rotation: SigningKeyRotation, now: Date) throws(TokenError) {
        let records = keys.map { SigningKeyRecord(keyID: $0.kid, createdAt: $0.createdAt, retiredAt: $0.retiredAt) }
        guard let active = rotation.signingKey(among: records, at: now),
            let activeKey = keys.first(where: { $0.kid == active.keyID })
        else {
            throw TokenError(.unusableKey, "no signing key is active at \(now)")
        }
        let privateKey: P256SigningKey
        do {
            privateKey = try P256SigningKey(pkcs8DERRepresentation: activeKey.privateKey)
        } catch {
            throw TokenError(.unusableKey, "stored key \(activeKey.kid) does not parse: \(error.reason)")
        }
        var published: [(keyID: String, publicKey: ECPublicKey)] = []
        for record in rotation.publishedKeys(among: records, at: now) {
            guard let stored = keys.first(where: { $0.kid == record.keyID }),
                let publicKey = try? ECPublicKey(derRepresentation: stored.publicKey)
            else {
                throw TokenError(.unusableKey, "stored public key \(record.keyID) does not parse")
            }
            published.append((record.keyID, publicKey))
        }
        self.signer = JWTSigner(key: privateKey, keyID: activeKey.kid)
        self.verifier = JWTVerifier(keys: Dictionary(published, uniquingKeysWith: { first, _ in first }))
        self.jwksBytes = try JSONWebKeySet(keys: published).jsonBytes()
        self.loadedAt = now
        do {
            // Every node derives the same key from the signing key they share through the store; a label keeps it
            // apart from any other use of that key.
            self.dpopNonceKey = try HMAC.sha256(
                key: activeKey.privateKey, message: Array(DPoPNonces.keyDerivationLabel.utf8))
        } catch {
            throw TokenError(.unusableKey, "DPoP nonce key derivation failed: \(error.reason)")
        }
    }

    /// A new ES256 key record, its `kid` the RFC 7638 JWK thumbprint of the public key.
    static func generateKey(now: Date) throws -> SigningKey {
        let key = try P256SigningKey()
        let publicKey = key.publicKey
        let kid = JWKThumbprint.of(publicKey)
        return SigningKey(
            kid: kid, algorithm: JWSHeader.es256, privateKey: key.pkcs8DERRepresentation,
            publicKey: publicKey.derRepresentation, createdAt: now)
    }
}
