import Crypto

/// `passkeyd clients new-secret`: a fresh client secret (32 bytes from OpenSSL's CSRNG, base64url) and the
/// `client_secret_sha256` value that goes into the client's configuration, which holds no secret. The secret is
/// printed once, for the app's own configuration; passkeyd keeps no copy.
package struct ClientsNewSecretCommand: Command, Equatable {
    package static let words = ["clients", "new-secret"]
    package static let flags: [any Flag] = []
    package static let summary = """
        Print a new client secret and its client_secret_sha256, the value a confidential client's configuration
        lists (several while the secret is replaced).
        """

    package init() {}

    package init(_ arguments: ParsedArguments) {}

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let secret: String
        do {
            secret = Base64URL.encode(try SecureRandom.bytes(count: 32))
        } catch {
            throw CommandFailure("clients new-secret failed: \(error)")
        }
        context.output("client_secret: \(secret)")
        context.output("client_secret_sha256: \(Self.hash(of: secret))")
        return 0
    }

    /// The `client_secret_sha256` of `secret`: base64url of its SHA-256, as `ClientConfiguration.accepts` compares.
    package static func hash(of secret: String) -> String {
        Base64URL.encode(Digest.sha256(Array(secret.utf8)))
    }
}
