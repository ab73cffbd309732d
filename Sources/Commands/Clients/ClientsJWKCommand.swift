import Crypto
import Foundation
import Tokens

/// `passkeyd clients jwk --public-key FILE [--kid ID]`: the JWK (RFC 7517) of a PEM public key (or certificate), what a
/// `private_key_jwt` client's `jwks` lists: an Auth0 application's Private Key JWT credential is a PEM public key,
/// which the client keeps signing with after the move.
package struct ClientsJWKCommand: Command, Equatable {
    /// `--public-key FILE`: a PEM file with one `PUBLIC KEY` or `CERTIFICATE` block (RSA of 2048 bits or more, or
    /// P-256).
    static let publicKey = Option<String>.nonEmpty("--public-key", "FILE", required: true)
    /// `--kid ID`: the key's `kid`; by default its RFC 7638 thumbprint, the name a key without `kid` gets.
    static let keyID = Option<String>.nonEmpty("--kid", "ID")

    package static let words = ["clients", "jwk"]
    package static let flags: [any Flag] = [publicKey, keyID]
    package static let summary = """
        Print the JWK of the PEM public key or certificate in FILE (RSA of 2048 bits or more, or P-256), for a
        private_key_jwt client's jwks; its kid is ID, or the key's RFC 7638 thumbprint.
        """

    package var publicKeyFile: String
    package var keyID: String?

    package init(publicKeyFile: String, keyID: String? = nil) {
        self.publicKeyFile = publicKeyFile
        self.keyID = keyID
    }

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init(publicKeyFile: try arguments.required(Self.publicKey), keyID: arguments[Self.keyID])
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        guard let data = FileManager.default.contents(atPath: publicKeyFile) else {
            throw CommandFailure("clients jwk: cannot read \(publicKeyFile)")
        }
        do {
            context.output(try Self.jwk(pem: String(decoding: data, as: UTF8.self), keyID: keyID))
        } catch {
            throw CommandFailure("clients jwk: \(publicKeyFile): \(error.description)")
        }
        return 0
    }

    /// The JWK text of the one `PUBLIC KEY` block of `pem`, or of the public key of its one `CERTIFICATE` (Auth0 takes
    /// either for a Private Key JWT credential).
    /// - Throws: a failure naming what is wrong: no block or several, DER that is no RSA or P-256 key, a short RSA key.
    package static func jwk(pem: String, keyID: String?) throws(CommandFailure) -> String {
        let der: [UInt8]
        do {
            if pem.contains("-----BEGIN PUBLIC KEY-----") {
                let blocks = try PEM.blocks("PUBLIC KEY", in: pem, invalid: .invalidKey)
                guard blocks.count == 1, let only = blocks.first else {
                    throw CommandFailure("expected one PUBLIC KEY block, found \(blocks.count)")
                }
                der = only
            } else {
                let certificates = try Certificate.certificates(fromPEM: pem)
                guard certificates.count == 1, let only = certificates.first else {
                    throw CommandFailure("expected one CERTIFICATE block, found \(certificates.count)")
                }
                der = only.subjectPublicKeyInfoDER
            }
        } catch let error as CommandFailure {
            throw error
        } catch let error as CryptoError {
            throw CommandFailure(error.reason)
        } catch {
            throw CommandFailure("\(error)")
        }
        do {
            let key = try JWTVerificationKey(subjectPublicKeyInfo: der)
            return String(
                decoding: try JSONWebKey(keyID: keyID ?? key.thumbprint, key: key).jsonBytes(), as: UTF8.self)
        } catch {
            throw CommandFailure(error.reason)
        }
    }
}
