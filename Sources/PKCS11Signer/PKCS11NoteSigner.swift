import Audit
import CPKCS11
import Crypto
import Synchronization

/// A checkpoint signer whose Ed25519 key lives in an HSM reached through PKCS#11 (CKM_EDDSA, PKCS #11 3.0
/// §2.3.14): the module is loaded with dlopen, one session is opened on the token and logged in, and the private
/// key never leaves the token. Calls are serialized (a PKCS#11 session is single-threaded).
public final class PKCS11NoteSigner: NoteSigner {
    /// Where the key is.
    public struct Location: Sendable, Equatable {
        /// The PKCS#11 module (`audit.pkcs11.module`), e.g. `/usr/lib/softhsm/libsofthsm2.so`.
        public var module: String
        public var tokenLabel: String
        /// The label of the key pair (private and public objects).
        public var keyLabel: String

        public init(module: String, tokenLabel: String, keyLabel: String) {
            self.module = module
            self.tokenLabel = tokenLabel
            self.keyLabel = keyLabel
        }
    }

    private struct Handles: @unchecked Sendable {
        // The module's handles, used only under `handles`' lock.
        let library: UnsafeMutableRawPointer
        let functions: CK_FUNCTION_LIST_PTR
        let session: CK_SESSION_HANDLE
        let privateKey: CK_OBJECT_HANDLE
        var isClosed = false
    }

    public let verifierKey: NoteVerifierKey
    private let handles: Mutex<Handles>

    /// Opens the token and finds the key pair labelled `location.keyLabel`.
    /// - Throws: `.signerFailure` naming the PKCS#11 step and its CKR code.
    public init(name: String, location: Location, pin: String) throws(AuditError) {
        let (library, functions) = try Self.load(location.module)
        var session: CK_SESSION_HANDLE = 0
        var privateKey: CK_OBJECT_HANDLE = 0
        var publicKey: CK_OBJECT_HANDLE = 0
        do throws(AuditError) {
            try Self.check(
                passkeyd_pkcs11_open(functions, location.tokenLabel, pin, &session),
                "opening token \"\(location.tokenLabel)\"")
            try Self.check(
                passkeyd_pkcs11_find(functions, session, 0, location.keyLabel, &privateKey),
                "finding private key \"\(location.keyLabel)\"")
            try Self.check(
                passkeyd_pkcs11_find(functions, session, 1, location.keyLabel, &publicKey),
                "finding public key \"\(location.keyLabel)\"")
            // Room for any curve's point (a P-521 one is 133 bytes DER-wrapped), so that a key of another type is
            // read and refused by name below rather than failing with CKR_BUFFER_TOO_SMALL.
            var point = [UInt8](repeating: 0, count: 256)
            var length = CK_ULONG(point.count)
            try Self.check(
                passkeyd_pkcs11_ec_point(functions, session, publicKey, &point, &length), "reading CKA_EC_POINT")
            let raw = Self.rawPublicKey(Array(point.prefix(Int(length))))
            let key: Ed25519PublicKey
            do {
                key = try Ed25519PublicKey(rawRepresentation: raw)
            } catch {
                throw AuditError(.signerFailure, "key \"\(location.keyLabel)\" is not an Ed25519 key: \(error)")
            }
            verifierKey = try NoteVerifierKey(name: name, publicKey: key)
        } catch {
            if session != 0 { passkeyd_pkcs11_close(functions, session) }
            Self.unload(library, functions)
            throw error
        }
        handles = Mutex(
            Handles(library: library, functions: functions, session: session, privateKey: privateKey))
    }

    deinit {
        close()
    }

    /// Logs out, closes the session and unloads the module. Later signatures fail.
    public func close() {
        handles.withLock { handles in
            guard !handles.isClosed else { return }
            handles.isClosed = true
            passkeyd_pkcs11_close(handles.functions, handles.session)
            Self.unload(handles.library, handles.functions)
        }
    }

    public func sign(_ message: [UInt8]) throws(AuditError) -> [UInt8] {
        try handles.withLock { (handles) throws(AuditError) -> [UInt8] in
            guard !handles.isClosed else { throw AuditError(.signerFailure, "the PKCS#11 session is closed") }
            var signature = [UInt8](repeating: 0, count: 64)
            var length = CK_ULONG(signature.count)
            try Self.check(
                passkeyd_pkcs11_sign_eddsa(
                    handles.functions, handles.session, handles.privateKey, message, CK_ULONG(message.count),
                    &signature, &length), "signing with CKM_EDDSA")
            guard length == 64 else { throw AuditError(.signerFailure, "CKM_EDDSA gave \(length) bytes, not 64") }
            return signature
        }
    }

    /// How many open signers use each loaded module, by its dlopen handle (the same for every load of one file).
    /// PKCS#11 initialization is the process's, not the caller's (PKCS #11 3.0 §5.4): only the last signer to close
    /// a module may finalize it, or it would end the other signers' sessions.
    private static let moduleUsers = Mutex<[UInt: Int]>([:])

    /// Loads and initializes `module` (C_Initialize answers CKR_CRYPTOKI_ALREADY_INITIALIZED for a module
    /// another signer holds, which the shim accepts), counting this signer as one of its users.
    private static func load(_ module: String) throws(AuditError) -> (UnsafeMutableRawPointer, CK_FUNCTION_LIST_PTR) {
        try moduleUsers.withLock { (users) throws(AuditError) -> (UnsafeMutableRawPointer, CK_FUNCTION_LIST_PTR) in
            var library: UnsafeMutableRawPointer?
            var functions: CK_FUNCTION_LIST_PTR?
            try check(passkeyd_pkcs11_load(module, &library, &functions), "loading \(module)")
            guard let library, let functions else { throw AuditError(.signerFailure, "PKCS#11 module did not load") }
            users[UInt(bitPattern: library), default: 0] += 1
            return (library, functions)
        }
    }

    /// Unloads a module this signer loaded, finalizing it if no other signer uses it.
    private static func unload(_ library: UnsafeMutableRawPointer, _ functions: CK_FUNCTION_LIST_PTR) {
        moduleUsers.withLock { users in
            let key = UInt(bitPattern: library)
            let remaining = (users[key] ?? 1) - 1
            users[key] = remaining > 0 ? remaining : nil
            passkeyd_pkcs11_unload(library, functions, remaining > 0 ? 0 : 1)
        }
    }

    /// CKA_EC_POINT of an Edwards key is the 32-byte point, DER-wrapped in an OCTET STRING by most tokens
    /// (PKCS #11 3.0 §2.3.5); both forms are accepted.
    static func rawPublicKey(_ point: [UInt8]) -> [UInt8] {
        if point.count == 34, point[0] == 0x04, point[1] == 0x20 { return Array(point.dropFirst(2)) }
        return point
    }

    private static func check(_ rv: CK_RV, _ step: String) throws(AuditError) {
        guard rv == CK_RV(CKR_OK) else {
            throw AuditError(.signerFailure, "PKCS#11 \(step) failed: \(name(of: rv))")
        }
    }

    /// The name of the return values an operator meets when setting up (PKCS #11 3.0 §5.1), else the hex code.
    static func name(of rv: CK_RV) -> String {
        switch rv {
        case CK_RV(CKR_PIN_INCORRECT): "CKR_PIN_INCORRECT (wrong PIN)"
        case CK_RV(CKR_PIN_LOCKED): "CKR_PIN_LOCKED"
        case CK_RV(CKR_TOKEN_NOT_PRESENT): "CKR_TOKEN_NOT_PRESENT (no token with that label)"
        case CK_RV(CKR_KEY_HANDLE_INVALID): "CKR_KEY_HANDLE_INVALID (no key with that label)"
        case CK_RV(CKR_MECHANISM_INVALID): "CKR_MECHANISM_INVALID (the token has no CKM_EDDSA)"
        case CK_RV(CKR_GENERAL_ERROR): "CKR_GENERAL_ERROR (for loading: the module cannot be opened)"
        case CK_RV(CKR_BUFFER_TOO_SMALL): "CKR_BUFFER_TOO_SMALL"
        default: "CKR 0x\(String(rv, radix: 16))"
        }
    }
}
