internal import COpenSSL
import Foundation

/// `X509_verify_cert` with an `X509_STORE` of roots and untrusted intermediates. Every C object
/// here lives and dies inside `verify`.
enum X509ChainVerifier {
    /// Verifies and returns the built path (DER, leaf first). Non-empty `crls` turn on revocation checking of
    /// every certificate of the path (`X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL`).
    static func verify(
        leaf: X509Object, intermediates: [X509Object], roots: [X509Object], crls: [X509CRLObject] = [],
        at time: Date
    ) throws(CryptoError) -> [[UInt8]] {
        let seconds = time.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, seconds >= Double(Int64.min / 2), seconds <= Double(Int64.max / 2) else {
            throw CryptoError(.chainInvalid, "validation time is out of range")
        }
        guard let store = X509_STORE_new() else { throw OpenSSLErrorQueue.failure(.internalFailure, "X509_STORE_new") }
        defer { X509_STORE_free(store) }
        for root in roots {
            // X509_STORE_add_cert takes its own reference; a duplicate root is not an error.
            guard X509_STORE_add_cert(store, root.pointer) == 1 else {
                throw OpenSSLErrorQueue.failure(.internalFailure, "X509_STORE_add_cert")
            }
        }
        for crl in crls {
            // X509_STORE_add_crl takes its own reference.
            guard X509_STORE_add_crl(store, crl.pointer) == 1 else {
                throw OpenSSLErrorQueue.failure(.internalFailure, "X509_STORE_add_crl")
            }
        }
        guard let untrusted = COpenSSL_sk_X509_new_null() else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "sk_X509_new_null")
        }
        // The stack borrows the X509s (owned by `intermediates`, alive for this whole call).
        defer { COpenSSL_sk_X509_free(untrusted) }
        for intermediate in intermediates {
            guard COpenSSL_sk_X509_push(untrusted, intermediate.pointer) > 0 else {
                throw OpenSSLErrorQueue.failure(.internalFailure, "sk_X509_push")
            }
        }
        guard let context = X509_STORE_CTX_new() else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "X509_STORE_CTX_new")
        }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1,
            X509_STORE_CTX_set_purpose(context, X509_PURPOSE_ANY) == 1,
            let parameters = X509_STORE_CTX_get0_param(context)
        else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "X509_STORE_CTX_init")
        }
        // RFC 5280 §6.1.3 (a)(2): validity is checked at the caller's time, never the clock.
        X509_VERIFY_PARAM_set_time(parameters, time_t(seconds))
        // Partial chains let a non-self-signed root anchor a path; only X509_STORE members are
        // ever trusted, so untrusted intermediates still cannot act as anchors.
        var flags = UInt(X509_V_FLAG_USE_CHECK_TIME) | UInt(X509_V_FLAG_PARTIAL_CHAIN)
        if !crls.isEmpty {
            // RFC 5280 §6.3: the CRL of each certificate's issuer, not only the leaf's (CRL_CHECK_ALL).
            flags |= UInt(X509_V_FLAG_CRL_CHECK) | UInt(X509_V_FLAG_CRL_CHECK_ALL)
        }
        guard X509_VERIFY_PARAM_set_flags(parameters, flags) == 1 else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "X509_VERIFY_PARAM_set_flags")
        }
        guard X509_verify_cert(context) == 1 else {
            let error = X509_STORE_CTX_get_error(context)
            let depth = X509_STORE_CTX_get_error_depth(context)
            let text = X509_verify_cert_error_string(Int(error)).map { String(cString: $0) } ?? "unknown"
            throw OpenSSLErrorQueue.failure(code(for: error), "X509 verify error \(error) at depth \(depth): \(text)")
        }
        guard let chain = X509_STORE_CTX_get1_chain(context) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "X509_STORE_CTX_get1_chain")
        }
        defer { COpenSSL_sk_X509_pop_free(chain) }
        var path: [[UInt8]] = []
        for index in 0..<max(COpenSSL_sk_X509_num(chain), 0) {
            guard let certificate = COpenSSL_sk_X509_value(chain, index) else { continue }
            path.append(OpenSSLEncoding.encode { out in i2d_X509(certificate, out) })
        }
        return path
    }

    /// Maps an `X509_V_ERR_*` code to the module's error codes.
    static func code(for error: Int32) -> CryptoError.Code {
        switch error {
        case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID:
            return .certificateExpired
        case X509_V_ERR_CERT_REVOKED:
            return .certificateRevoked
        case X509_V_ERR_UNABLE_TO_GET_CRL:
            return .revocationListMissing
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
            X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED:
            return .untrustedRoot
        default:
            return .chainInvalid
        }
    }
}
