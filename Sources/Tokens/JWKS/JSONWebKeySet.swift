import Crypto

/// The JWK Set served at `/.well-known/jwks.json` (RFC 7517 §5): `{"keys":[…]}`.
public struct JSONWebKeySet: Sendable, Hashable {
    /// The keys, in the order given.
    public let keys: [JSONWebKey]

    /// A set from `(kid, public key)` pairs, e.g. the published keys of `SigningKeyRotation`.
    /// - Throws: `.unusableKey` for a non-P-256 key, an empty `kid` or a repeated `kid`.
    public init(keys: [(keyID: String, publicKey: ECPublicKey)]) throws(TokenError) {
        var seen = Set<String>()
        var jwks: [JSONWebKey] = []
        for entry in keys {
            // RFC 7517 §4.5: kids within a set should be distinct, or verifiers cannot choose.
            guard seen.insert(entry.keyID).inserted else {
                throw TokenError(.unusableKey, "kid \(entry.keyID) repeated")
            }
            jwks.append(try JSONWebKey(keyID: entry.keyID, publicKey: entry.publicKey))
        }
        self.keys = jwks
    }

    /// A set from `(kid, verification key)` pairs: the ES256 and RS256 keys of the key ring.
    /// - Throws: `.unusableKey` for an unusable key, an empty `kid` or a repeated `kid`.
    public init(verificationKeys keys: [(keyID: String, key: JWTVerificationKey)]) throws(TokenError) {
        var seen = Set<String>()
        var jwks: [JSONWebKey] = []
        for entry in keys {
            // RFC 7517 §4.5: kids within a set should be distinct, or verifiers cannot choose.
            guard seen.insert(entry.keyID).inserted else {
                throw TokenError(.unusableKey, "kid \(entry.keyID) repeated")
            }
            jwks.append(try JSONWebKey(keyID: entry.keyID, key: entry.key))
        }
        self.keys = jwks
    }

    /// The document bytes.
    public func jsonBytes() -> [UInt8] {
        var writer = JSONObjectWriter()
        writer.set("keys", .raw(JSONObjectWriter.array(ofRaw: keys.map { $0.jsonBytes() })))
        return writer.bytes()
    }
}
