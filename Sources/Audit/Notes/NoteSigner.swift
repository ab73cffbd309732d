import Crypto

/// What signs checkpoints: an Ed25519 key, in an HSM (PKCS#11) or, when configured explicitly, in a file.
public protocol NoteSigner: Sendable {
    /// The verifier key of the signatures: name, key id, public key.
    var verifierKey: NoteVerifierKey { get }
    /// The 64-byte Ed25519 signature (RFC 8032 §5.1.6) of `message`.
    /// - Throws: `.signerFailure`.
    func sign(_ message: [UInt8]) throws(AuditError) -> [UInt8]
}

/// A software Ed25519 key (`audit.signer: "file"`): not HSM-backed.
public struct SoftwareNoteSigner: NoteSigner {
    public let verifierKey: NoteVerifierKey
    private let key: Ed25519SigningKey

    /// Signs as `name` with `key`.
    public init(name: String, key: Ed25519SigningKey) throws(AuditError) {
        self.key = key
        verifierKey = try NoteVerifierKey(name: name, publicKey: key.publicKey)
    }

    public func sign(_ message: [UInt8]) throws(AuditError) -> [UInt8] {
        do {
            return try key.signature(for: message)
        } catch {
            throw AuditError(.signerFailure, "Ed25519 signature failed: \(error)")
        }
    }
}
