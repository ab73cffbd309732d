import CPKCS11
import Crypto

/// A key kept on disk only wrapped by an AES-256 key that never leaves an HSM (CKM_AES_GCM, PKCS #11 3.0 §2.14.3):
/// passkeyd's key-encryption key of its secrets at rest (`encryption_at_rest.pkcs11`). The file alone, in a backup or
/// a copied disk image, opens nothing; each node unwraps it once, at start, through the HSM.
///
/// Wrapped form: a 12-byte random IV ‖ the ciphertext ‖ the 16-byte tag, authenticated with `associatedData`, so
/// the HSM key's other uses cannot be passed off as a wrapped key.
public enum PKCS11KeyWrapping {
    /// What the wrapping authenticates besides the key: its purpose and version.
    static let associatedData = Array("passkeyd at-rest key-encryption key, wrapped by PKCS#11 v1".utf8)
    static let ivByteCount = 12
    static let tagByteCount = 16
    /// How tokens answer a decryption whose tag does not verify.
    static let authenticationFailures: Set<UInt> = [
        UInt(CKR_ENCRYPTED_DATA_INVALID), UInt(CKR_ENCRYPTED_DATA_LEN_RANGE), UInt(CKR_GENERAL_ERROR),
        UInt(CKR_FUNCTION_FAILED),
    ]

    /// The wrapped form's length for a key of `keyByteCount` bytes.
    public static func wrappedByteCount(keyByteCount: Int) -> Int { ivByteCount + keyByteCount + tagByteCount }

    /// `key` wrapped under the HSM's secret key at `location`, with a fresh IV from OpenSSL's CSPRNG. The HSM must
    /// give the key back from the wrapped form (in the same session) before it is returned: the caller is about to
    /// replace its only unwrapped copy with it.
    public static func wrap(_ key: [UInt8], at location: PKCS11Location, pin: String) throws(PKCS11Failure)
        -> [UInt8]
    {
        let iv: [UInt8]
        do {
            iv = try SecureRandom.bytes(count: ivByteCount)
        } catch {
            throw PKCS11Failure(step: "drawing an IV (\(error))", code: UInt(CKR_GENERAL_ERROR))
        }
        return try withSecretKey(at: location, pin: pin) { (module, secret) throws(PKCS11Failure) in
            let wrapped = iv + (try crypt(module, key: secret, encrypt: true, iv: iv, input: key))
            guard try unwrap(wrapped, module: module, key: secret, label: location.keyLabel) == key else {
                throw PKCS11Failure(
                    step: "checking the wrapped key (it unwraps to another)", code: UInt(CKR_GENERAL_ERROR))
            }
            return wrapped
        }
    }

    /// The keys in `wrapped` (each as `wrap` gave it), unwrapped in one session on the HSM at `location`.
    /// - Throws: `PKCS11Failure` naming the step, e.g. a wrapped key that does not authenticate under that key.
    public static func unwrap(_ wrapped: [[UInt8]], at location: PKCS11Location, pin: String) throws(PKCS11Failure)
        -> [[UInt8]]
    {
        try withSecretKey(at: location, pin: pin) { (module, secret) throws(PKCS11Failure) in
            var keys: [[UInt8]] = []
            for blob in wrapped {
                keys.append(try unwrap(blob, module: module, key: secret, label: location.keyLabel))
            }
            return keys
        }
    }

    /// Runs `body` with a session on the token at `location` and the handle of its secret key, closed after.
    private static func withSecretKey<T>(
        at location: PKCS11Location, pin: String,
        _ body: (PKCS11Module, CK_OBJECT_HANDLE) throws(PKCS11Failure) -> T
    ) throws(PKCS11Failure) -> T {
        let module = try PKCS11Module.open(location, pin: pin)
        defer { module.close() }
        return try body(module, try module.find(.secretKey, label: location.keyLabel, naming: "secret key"))
    }

    /// One wrapped key, unwrapped by `key` (labelled `label`, for messages) in `module`'s session.
    private static func unwrap(_ blob: [UInt8], module: PKCS11Module, key: CK_OBJECT_HANDLE, label: String)
        throws(PKCS11Failure) -> [UInt8]
    {
        guard blob.count > ivByteCount + tagByteCount else {
            throw PKCS11Failure(
                step: "unwrapping a key of \(blob.count) bytes", code: UInt(CKR_ENCRYPTED_DATA_LEN_RANGE))
        }
        do {
            return try crypt(
                module, key: key, encrypt: false, iv: Array(blob.prefix(ivByteCount)),
                input: Array(blob.dropFirst(ivByteCount)))
        } catch  where Self.authenticationFailures.contains(error.code) {
            // Tokens differ in how they report a tag that does not verify (SoftHSM2: CKR_GENERAL_ERROR).
            throw PKCS11Failure(
                step: "unwrapping (the wrapped key does not authenticate under secret key \"\(label)\": altered, or "
                    + "wrapped under another key)", code: error.code)
        }
    }

    /// CKM_AES_GCM over `input` (the output is at most the input plus the tag).
    private static func crypt(
        _ module: PKCS11Module, key: CK_OBJECT_HANDLE, encrypt: Bool, iv: [UInt8], input: [UInt8]
    ) throws(PKCS11Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: input.count + tagByteCount)
        var length = CK_ULONG(output.count)
        try PKCS11Module.check(
            passkeyd_pkcs11_aes_gcm(
                module.functions, module.session, key, encrypt ? 1 : 0, iv, CK_ULONG(iv.count), associatedData,
                CK_ULONG(associatedData.count), input, CK_ULONG(input.count), &output, &length),
            encrypt ? "wrapping with CKM_AES_GCM" : "unwrapping with CKM_AES_GCM")
        return Array(output.prefix(Int(length)))
    }
}
