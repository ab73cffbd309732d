import Configuration
import Crypto
import Foundation
import Storage
import Tokens

/// The token-signing keys as loaded from the store at one instant, with everything derived from them cached:
/// the signers of the active ES256 and RS256 keys, a verifier over every published key and the JWKS document bytes.
///
/// Each algorithm has its own keys and its own rotation (`SigningKeyRotation` over that algorithm's records);
/// `passkeyd keys rotate` adds one key of each.
package struct SigningKeyRing: Sendable {
    /// Signs new tokens with the newest active key of each algorithm.
    package let signers: TokenSigners
    /// Verifies tokens signed by any published key, each key with its own algorithm.
    package let verifier: JWTVerifier
    /// `/.well-known/jwks.json`, serialised once.
    package let jwksBytes: [UInt8]
    /// When the ring was built (server time), to reload it after `TokenService.reloadInterval`.
    package let loadedAt: Date
    /// The keys of the stateless DPoP nonces (`DPoPNonces`), each derived from an ES256 signing key: the active
    /// key's first (nonces are handed out under it), then those of the other published ES256 keys (still accepted).
    package let dpopNonceKeys: [[UInt8]]

    /// The ES256 signer: action tokens (access tokens take their API's algorithm, `TokenSigners.signer(_:)`).
    package var signer: JWTSigner { signers.es256 }

    /// Bits of the RSA keys passkeyd generates (RFC 7518 §3.3: 2048 or more).
    package static let rsaKeyBits = 2048

    /// Builds the ring from the stored keys at `now`.
    /// - Throws: `TokenError.unusableKey` when an algorithm has no active key or a stored key does not parse.
    package init(keys: [SigningKey], rotation: SigningKeyRotation, now: Date) throws(TokenError) {
        var published: [(keyID: String, key: JWTVerificationKey)] = []
        var es256: (signer: JWTSigner, privateKey: [UInt8])?
        var otherPublishedES256: [[UInt8]] = []
        var rs256: JWTSigner?
        for algorithm in TokenSigningAlgorithm.allCases {
            let own = keys.filter { $0.algorithm == algorithm.rawValue }
            let records = own.map { SigningKeyRecord(keyID: $0.kid, createdAt: $0.createdAt, retiredAt: $0.retiredAt) }
            guard let active = rotation.signingKey(among: records, at: now),
                let activeKey = own.first(where: { $0.kid == active.keyID })
            else {
                throw TokenError(.unusableKey, "no \(algorithm.rawValue) signing key is active at \(now)")
            }
            switch algorithm {
            case .es256: es256 = (try Self.es256Signer(activeKey), activeKey.privateKey)
            case .rs256: rs256 = try Self.rs256Signer(activeKey)
            }
            for record in rotation.publishedKeys(among: records, at: now) {
                guard let stored = own.first(where: { $0.kid == record.keyID }),
                    let key = Self.verificationKey(stored, algorithm: algorithm)
                else {
                    throw TokenError(.unusableKey, "stored public key \(record.keyID) does not parse")
                }
                published.append((record.keyID, key))
                if algorithm == .es256, record.keyID != active.keyID { otherPublishedES256.append(stored.privateKey) }
            }
        }
        guard let es256, let rs256 else { throw TokenError(.unusableKey, "a signing algorithm has no key") }
        self.signers = TokenSigners(es256: es256.signer, rs256: rs256)
        self.verifier = JWTVerifier(keys: Dictionary(published, uniquingKeysWith: { first, _ in first }))
        self.jwksBytes = try JSONWebKeySet(verificationKeys: published).jsonBytes()
        self.loadedAt = now
        do {
            // Every node derives the same key from the signing key they share through the store; a label keeps it
            // apart from any other use of that key.
            var nonceKeys: [[UInt8]] = []
            for privateKey in [es256.privateKey] + otherPublishedES256 {
                nonceKeys.append(try HMAC.sha256(key: privateKey, message: Array(DPoPNonces.keyDerivationLabel.utf8)))
            }
            self.dpopNonceKeys = nonceKeys
        } catch {
            throw TokenError(.unusableKey, "DPoP nonce key derivation failed: \(error.reason)")
        }
    }

    private static func es256Signer(_ stored: SigningKey) throws(TokenError) -> JWTSigner {
        do {
            return JWTSigner(key: try P256SigningKey(pkcs8DERRepresentation: stored.privateKey), keyID: stored.kid)
        } catch {
            throw TokenError(.unusableKey, "stored key \(stored.kid) does not parse: \(error.reason)")
        }
    }

    private static func rs256Signer(_ stored: SigningKey) throws(TokenError) -> JWTSigner {
        let key: RSASigningKey
        do {
            key = try RSASigningKey(pkcs8DERRepresentation: stored.privateKey)
        } catch {
            throw TokenError(.unusableKey, "stored key \(stored.kid) does not parse: \(error.reason)")
        }
        return try JWTSigner(rsaKey: key, keyID: stored.kid)
    }

    private static func verificationKey(_ stored: SigningKey, algorithm: TokenSigningAlgorithm) -> JWTVerificationKey? {
        switch algorithm {
        case .es256: (try? ECPublicKey(derRepresentation: stored.publicKey)).map { .es256($0) }
        case .rs256: (try? RSAPublicKey(derRepresentation: stored.publicKey)).map { .rs256($0) }
        }
    }

    /// A new key record of `algorithm`, generated by OpenSSL, its `kid` the RFC 7638 JWK thumbprint of the public
    /// key.
    package static func generateKey(_ algorithm: TokenSigningAlgorithm, now: Date) throws -> SigningKey {
        switch algorithm {
        case .es256:
            let key = try P256SigningKey()
            return SigningKey(
                kid: JWKThumbprint.of(key.publicKey), algorithm: algorithm.rawValue,
                privateKey: key.pkcs8DERRepresentation, publicKey: key.publicKey.derRepresentation, createdAt: now)
        case .rs256:
            let key = try RSASigningKey(bits: rsaKeyBits)
            return SigningKey(
                kid: JWKThumbprint.of(key.publicKey), algorithm: algorithm.rawValue,
                privateKey: key.pkcs8DERRepresentation, publicKey: key.publicKey.derRepresentation, createdAt: now)
        }
    }
}

/// The active signer of each algorithm.
package struct TokenSigners: Sendable {
    package let es256: JWTSigner
    package let rs256: JWTSigner

    /// The signer of `algorithm`.
    package func signer(_ algorithm: TokenSigningAlgorithm) -> JWTSigner {
        switch algorithm {
        case .es256: es256
        case .rs256: rs256
        }
    }
}
