import Audit
import CPKCS11
import Crypto
import Synchronization

/// A checkpoint signer whose Ed25519 key lives in an HSM reached through PKCS#11 (CKM_EDDSA, PKCS #11 3.0
/// §2.3.14): the module is loaded with dlopen, one session is opened on the token and logged in, and the private
/// key never leaves the token. Calls are serialized (a PKCS#11 session is single-threaded).
public final class PKCS11NoteSigner: NoteSigner {
    /// Where the key is (`audit.pkcs11`).
    public typealias Location = PKCS11Location

    private struct Handles: Sendable {
        let module: PKCS11Module
        let privateKey: CK_OBJECT_HANDLE
        var isClosed = false
    }

    public let verifierKey: NoteVerifierKey
    private let handles: Mutex<Handles>

    /// Opens the token and finds the key pair labelled `location.keyLabel`.
    /// - Throws: `.signerFailure` naming the PKCS#11 step and its CKR code.
    public init(name: String, location: Location, pin: String) throws(AuditError) {
        let module: PKCS11Module
        do {
            module = try PKCS11Module.open(location, pin: pin)
        } catch {
            throw AuditError(.signerFailure, error.description)
        }
        let privateKey: CK_OBJECT_HANDLE
        do throws(AuditError) {
            let publicKey: CK_OBJECT_HANDLE
            do {
                privateKey = try module.find(.privateKey, label: location.keyLabel, naming: "private key")
                publicKey = try module.find(.publicKey, label: location.keyLabel, naming: "public key")
            } catch {
                throw AuditError(.signerFailure, error.description)
            }
            // Room for any curve's point (a P-521 one is 133 bytes DER-wrapped), so that a key of another type is
            // read and refused by name below rather than failing with CKR_BUFFER_TOO_SMALL.
            var point = [UInt8](repeating: 0, count: 256)
            var length = CK_ULONG(point.count)
            try Self.check(
                passkeyd_pkcs11_ec_point(module.functions, module.session, publicKey, &point, &length),
                "reading CKA_EC_POINT")
            let raw = Self.rawPublicKey(Array(point.prefix(Int(length))))
            let key: Ed25519PublicKey
            do {
                key = try Ed25519PublicKey(rawRepresentation: raw)
            } catch {
                throw AuditError(.signerFailure, "key \"\(location.keyLabel)\" is not an Ed25519 key: \(error)")
            }
            verifierKey = try NoteVerifierKey(name: name, publicKey: key)
        } catch {
            module.close()
            throw error
        }
        handles = Mutex(Handles(module: module, privateKey: privateKey))
    }

    deinit {
        close()
    }

    /// Closes the session and unloads the module. Later signatures fail.
    public func close() {
        handles.withLock { handles in
            guard !handles.isClosed else { return }
            handles.isClosed = true
            handles.module.close()
        }
    }

    public func sign(_ message: [UInt8]) throws(AuditError) -> [UInt8] {
        try handles.withLock { (handles) throws(AuditError) -> [UInt8] in
            guard !handles.isClosed else { throw AuditError(.signerFailure, "the PKCS#11 session is closed") }
            var signature = [UInt8](repeating: 0, count: 64)
            var length = CK_ULONG(signature.count)
            try Self.check(
                passkeyd_pkcs11_sign_eddsa(
                    handles.module.functions, handles.module.session, handles.privateKey, message,
                    CK_ULONG(message.count), &signature, &length), "signing with CKM_EDDSA")
            guard length == 64 else { throw AuditError(.signerFailure, "CKM_EDDSA gave \(length) bytes, not 64") }
            return signature
        }
    }

    /// CKA_EC_POINT of an Edwards key is the 32-byte point, DER-wrapped in an OCTET STRING by most tokens
    /// (PKCS #11 3.0 §2.3.5); both forms are accepted.
    static func rawPublicKey(_ point: [UInt8]) -> [UInt8] {
        if point.count == 34, point[0] == 0x04, point[1] == 0x20 { return Array(point.dropFirst(2)) }
        return point
    }

    private static func check(_ rv: CK_RV, _ step: String) throws(AuditError) {
        do {
            try PKCS11Module.check(rv, step)
        } catch {
            throw AuditError(.signerFailure, error.description)
        }
    }
}
