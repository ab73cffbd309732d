import Crypto
import Foundation
import HTTP
import Tokens

/// A client's DPoP key (a P-256 key, as an app's Secure Enclave or Keystore key would be) that writes proofs as
/// RFC 9449 §4.2 describes them.
struct DPoPProver {
    let key: P256SigningKey

    init(key: P256SigningKey? = nil) throws {
        self.key = try key ?? P256SigningKey()
    }

    /// The RFC 7638 thumbprint of the public key.
    var thumbprint: String { JWKThumbprint.of(key.publicKey) }

    /// A proof for `method` `url` at `now`; `accessToken` adds `ath`, `nonce` the server's nonce.
    func proof(
        _ method: String, _ url: String, now: Date, accessToken: String? = nil, nonce: String? = nil,
        jti: String? = nil
    ) throws -> String {
        let jwk =
            #"{"crv":"P-256","kty":"EC","x":"\#(Base64URL.encode(key.publicKey.x))","y":"\#(Base64URL.encode(key.publicKey.y))"}"#
        let header = #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(jwk)}"#
        var claims = [
            #""jti":"\#(try jti ?? Base64URL.encode(SecureRandom.bytes(count: 12)))""#, #""htm":"\#(method)""#,
            #""htu":"\#(url)""#, #""iat":\#(Int(now.timeIntervalSince1970))"#,
        ]
        if let accessToken { claims.append(#""ath":"\#(Base64URL.encode(Digest.sha256(Array(accessToken.utf8))))""#) }
        if let nonce { claims.append(#""nonce":"\#(nonce)""#) }
        let input =
            Base64URL.encode(Array(header.utf8)) + "."
            + Base64URL.encode(Array("{\(claims.joined(separator: ","))}".utf8))
        let signature = try ECDSASignature.rawRepresentation(
            fromDER: key.signature(for: Array(input.utf8)), curve: .p256)
        return input + "." + Base64URL.encode(signature)
    }
}
