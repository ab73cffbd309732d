import CPKCS11
import Synchronization

/// Where a key is in an HSM reached through PKCS#11.
public struct PKCS11Location: Sendable, Equatable {
    /// The PKCS#11 module, loaded with dlopen, e.g. `/usr/lib/softhsm/libsofthsm2.so`.
    public var module: String
    public var tokenLabel: String
    /// The key's label (for a key pair: of its private and public objects).
    public var keyLabel: String

    public init(module: String, tokenLabel: String, keyLabel: String) {
        self.module = module
        self.tokenLabel = tokenLabel
        self.keyLabel = keyLabel
    }
}

/// Why a PKCS#11 step failed: what was being done, and the token's return value, named when it is one an operator
/// meets while setting up (PKCS #11 3.0 §5.1).
public struct PKCS11Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, e.g. `opening token "audit"`.
    public let step: String
    /// The CKR_ code.
    public let code: UInt

    public var description: String { "PKCS#11 \(step) failed: \(PKCS11Module.name(of: CK_RV(code)))" }
}

/// A PKCS#11 module loaded and initialized for one user in this process (a signer, an unwrapping), with a session
/// logged in on one token. PKCS#11 initialization is the process's, not the caller's (PKCS #11 3.0 §5.4): the module
/// is finalized only when its last user closes, or it would end the other users' sessions.
struct PKCS11Module: @unchecked Sendable {
    // Used by one owner at a time (a signer serializes its calls under its lock).
    let library: UnsafeMutableRawPointer
    let functions: CK_FUNCTION_LIST_PTR
    let session: CK_SESSION_HANDLE

    /// Loads `location.module` and opens a session on `location.tokenLabel`, logged in with `pin`.
    static func open(_ location: PKCS11Location, pin: String) throws(PKCS11Failure) -> PKCS11Module {
        let (library, functions) = try load(location.module)
        var session: CK_SESSION_HANDLE = 0
        do throws(PKCS11Failure) {
            try check(
                passkeyd_pkcs11_open(functions, location.tokenLabel, pin, &session),
                "opening token \"\(location.tokenLabel)\"")
        } catch {
            unload(library, functions)
            throw error
        }
        return PKCS11Module(library: library, functions: functions, session: session)
    }

    /// Closes the session and unloads the module (finalizing it if no other user holds it).
    func close() {
        passkeyd_pkcs11_close(functions, session)
        Self.unload(library, functions)
    }

    /// What a key object is.
    enum ObjectKind: Int32 {
        case privateKey = 0
        case publicKey = 1
        case secretKey = 2
    }

    /// The one object of `kind` labelled `label` on the token.
    func find(_ kind: ObjectKind, label: String, naming what: String) throws(PKCS11Failure) -> CK_OBJECT_HANDLE {
        var object: CK_OBJECT_HANDLE = 0
        try Self.check(
            passkeyd_pkcs11_find(functions, session, kind.rawValue, label, &object), "finding \(what) \"\(label)\"")
        return object
    }

    /// How many open users each loaded module has, by its dlopen handle (the same for every load of one file).
    private static let users = Mutex<[UInt: Int]>([:])

    /// Loads and initializes `module` (C_Initialize answers CKR_CRYPTOKI_ALREADY_INITIALIZED for a module another
    /// user holds, which the shim accepts), counting one more user.
    private static func load(_ module: String) throws(PKCS11Failure) -> (UnsafeMutableRawPointer, CK_FUNCTION_LIST_PTR)
    {
        try users.withLock { (users) throws(PKCS11Failure) -> (UnsafeMutableRawPointer, CK_FUNCTION_LIST_PTR) in
            var library: UnsafeMutableRawPointer?
            var functions: CK_FUNCTION_LIST_PTR?
            try check(passkeyd_pkcs11_load(module, &library, &functions), "loading \(module)")
            guard let library, let functions else {
                throw PKCS11Failure(step: "loading \(module)", code: UInt(CKR_GENERAL_ERROR))
            }
            users[UInt(bitPattern: library), default: 0] += 1
            return (library, functions)
        }
    }

    /// Unloads a module one user loaded, finalizing it if no other user holds it.
    private static func unload(_ library: UnsafeMutableRawPointer, _ functions: CK_FUNCTION_LIST_PTR) {
        users.withLock { users in
            let key = UInt(bitPattern: library)
            let remaining = (users[key] ?? 1) - 1
            users[key] = remaining > 0 ? remaining : nil
            passkeyd_pkcs11_unload(library, functions, remaining > 0 ? 0 : 1)
        }
    }

    /// Throws `PKCS11Failure` for `step` unless `rv` is CKR_OK.
    static func check(_ rv: CK_RV, _ step: String) throws(PKCS11Failure) {
        guard rv == CK_RV(CKR_OK) else { throw PKCS11Failure(step: step, code: UInt(rv)) }
    }

    /// The name of the return values an operator meets when setting up (PKCS #11 3.0 §5.1), else the hex code.
    static func name(of rv: CK_RV) -> String {
        switch rv {
        case CK_RV(CKR_PIN_INCORRECT): "CKR_PIN_INCORRECT (wrong PIN)"
        case CK_RV(CKR_PIN_LOCKED): "CKR_PIN_LOCKED"
        case CK_RV(CKR_TOKEN_NOT_PRESENT): "CKR_TOKEN_NOT_PRESENT (no token with that label)"
        case CK_RV(CKR_KEY_HANDLE_INVALID): "CKR_KEY_HANDLE_INVALID (no key with that label)"
        case CK_RV(CKR_MECHANISM_INVALID): "CKR_MECHANISM_INVALID (the token does not offer the mechanism)"
        case CK_RV(CKR_KEY_TYPE_INCONSISTENT): "CKR_KEY_TYPE_INCONSISTENT (the key is not of the type required)"
        case CK_RV(CKR_KEY_FUNCTION_NOT_PERMITTED):
            "CKR_KEY_FUNCTION_NOT_PERMITTED (the key's attributes forbid this use)"
        case CK_RV(CKR_ENCRYPTED_DATA_INVALID), CK_RV(CKR_ENCRYPTED_DATA_LEN_RANGE):
            "CKR_ENCRYPTED_DATA_INVALID (does not authenticate under that key)"
        case CK_RV(CKR_GENERAL_ERROR): "CKR_GENERAL_ERROR (for loading: the module cannot be opened)"
        case CK_RV(CKR_BUFFER_TOO_SMALL): "CKR_BUFFER_TOO_SMALL"
        default: "CKR 0x\(String(rv, radix: 16))"
        }
    }
}
