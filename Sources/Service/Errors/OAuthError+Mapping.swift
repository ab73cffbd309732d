import Crypto
import DeviceKeys
import Storage
import Tokens
import WebAuthn

/// The OAuth answer of every module's error (DESIGN.md, STYLE.md "Errors" 2): module codes go to the log and the
/// metrics, a fixed `error`/`error_description`/status goes to the client. Total: every code of every module error
/// has an answer; anything not recognised is a `server_error` logged as a bug. The HTTP layer's own errors are
/// mapped beside the endpoints (`ErrorMapping`), which call this for the rest.
extension OAuthError {
    /// Maps `error` to an `OAuthError`.
    package static func mapping(_ error: any Error) -> OAuthError {
        switch error {
        case let error as OAuthError:
            return error
        case let error as WebAuthnError:
            return webAuthn(error)
        case let error as StorageError:
            return storage(error)
        case let error as TokenError:
            return token(error)
        case let error as DeviceKeyError:
            return .deviceKey(error)
        case let error as CryptoError:
            // The CSPRNG or a signing primitive failed: nothing the client did.
            return .bug("crypto \(error.code): \(error.reason)")
        case is CancellationError:
            // The request's task was cancelled while it waited (for a database connection): the deadline or
            // shutdown answered 503 in its place, and nothing of it began.
            return OAuthError(
                .temporarilyUnavailable, "The server could not answer in time.", logCode: "http_request_withdrawn",
                reason: "cancelled while waiting")
        default:
            return .bug("unexpected error \(String(describing: error))")
        }
    }

    /// WebAuthn L3 §7.1 / §7.2: every failed check is `invalid_grant` with one description; the code names
    /// the check in the log and in `webauthn_failure:<code>` only, so a client cannot probe which check failed.
    package static func webAuthn(_ error: WebAuthnError) -> OAuthError {
        .ceremonyFailed(error.code.rawValue, reason: error.reason)
    }

    /// Storage: a lost race on a uniqueness constraint or a missing row is a refused grant; a database that is
    /// unreachable, overloaded, damaged, full or read-only is `temporarily_unavailable` (503: nothing was written); an
    /// I/O failure (whose outcome may be unknown) or a closed store is a `server_error`; anything else is a bug (the
    /// log says which).
    package static func storage(_ error: StorageError) -> OAuthError {
        switch error.code {
        case .conflict, .notFound:
            return .ceremonyFailed("storage_\(error.code.rawValue)", reason: error.description)
        case .busy, .corrupt:
            // Busy: unreachable or overloaded for now (PostgreSQL connection lost or refused, retries of a
            // serialization failure or deadlock exhausted, SQLite locked past its busy timeout). Corrupt: the file is
            // damaged, every write is refused from now on and /readyz says `damaged` until it is restored. Either
            // way nothing was written and the client may retry later (RFC 6749 §5.2 has no such code: 503).
            return OAuthError(
                .temporarilyUnavailable, "The service is temporarily unavailable.",
                logCode: "storage_\(error.code.rawValue)", reason: error.description)
        case .unavailable:
            // The database cannot take writes now (disk full, read-only, out of resources) and refused this one
            // before anything of it was written: 503, retry once the operator has fixed it. The log code says which.
            return OAuthError(
                .temporarilyUnavailable, "The service is temporarily unavailable.",
                logCode: unavailableLogCode(error.unavailability), reason: error.description)
        case .io, .closed:
            return OAuthError(
                .serverError, "Internal server error.", logCode: "storage_\(error.code.rawValue)",
                reason: error.description)
        case .migration, .invalidConfiguration, .invalidRecord, .notEmpty, .notImplemented, .internalFailure:
            return .bug("storage \(error.description)")
        }
    }

    /// The log code of a `.unavailable` storage error: `storage_disk_full`, `storage_read_only`,
    /// `storage_insufficient_resources` (`storage_unavailable` if a driver named no cause).
    package static func unavailableLogCode(_ unavailability: StorageError.Unavailability?) -> String {
        "storage_\(unavailability?.rawValue ?? StorageError.Code.unavailable.rawValue)"
    }

    /// The cause of a `.unavailable` storage error from its log code (`unavailableLogCode`); nil for any other code.
    package static func unavailability(ofLogCode logCode: String) -> StorageError.Unavailability? {
        StorageError.Unavailability.allCases.first { unavailableLogCode($0) == logCode }
    }

    /// Tokens: a presented refresh token that is not ours is `invalid_grant`; a failure to mint is a bug.
    package static func token(_ error: TokenError) -> OAuthError {
        switch error.code {
        case .malformedRefreshToken:
            return .invalidRefreshToken("malformed_refresh_token", reason: error.reason)
        case .malformedToken, .unsupportedAlgorithm, .unknownKey, .invalidSignature, .unexpectedType, .missingClaim,
            .expired, .notYetValid, .issuedInFuture, .invalidIssuer, .invalidAudience:
            // RFC 6750 §3.1: a bad bearer token.
            return OAuthError(
                .invalidToken, "The access token is invalid.", logCode: "token_\(error.code.rawValue)",
                reason: error.reason)
        case .invalidClaim, .invalidLifetime, .signingFailed, .unusableKey:
            // Our own minting went wrong.
            return .bug("token \(error.description)")
        case .dpopMalformed, .dpopMissingClaim, .dpopWrongType, .dpopUnsupportedAlgorithm, .dpopInvalidSignature,
            .dpopInvalidKey, .dpopMethodMismatch, .dpopURIMismatch, .dpopStale, .dpopAccessTokenHash, .dpopKeyMismatch:
            // RFC 9449 §12.2: one answer for every failed check of §4.3; the code says which in the log.
            return .invalidDPoPProof(error.code.rawValue, reason: error.reason)
        case .dpopNonceRequired:
            // RFC 9449 §8: the caller (TokenService.checkDPoP) adds the current nonce to the answer.
            return OAuthError(
                .useDPoPNonce, "Authorization server requires nonce in DPoP proof.", logCode: error.code.rawValue,
                reason: error.reason)
        }
    }
}
