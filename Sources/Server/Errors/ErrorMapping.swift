import Crypto
import DeviceKeys
import HTTP
import Storage
import Tokens
import WebAuthn

/// The one place where any error an endpoint meets becomes a wire answer (DESIGN.md, STYLE.md "Errors" 2):
/// module codes go to the log and the metrics, a fixed `error`/`error_description`/status goes to the client.
enum ErrorMapping {
    /// Maps `error` to an `OAuthError`. Total: every code of every module error has an answer; anything not
    /// recognised is a `server_error` logged as a bug.
    static func oauthError(for error: any Error) -> OAuthError {
        switch error {
        case let error as OAuthError:
            return error
        case let error as WebAuthnError:
            return webAuthn(error)
        case let error as StorageError:
            return storage(error)
        case let error as TokenError:
            return token(error)
        case let error as HTTPError:
            return http(error)
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
    static func webAuthn(_ error: WebAuthnError) -> OAuthError {
        .ceremonyFailed(error.code.rawValue, reason: error.reason)
    }

    /// Storage: a lost race on a uniqueness constraint or a missing row is a refused grant; a database that is
    /// unreachable, overloaded or damaged is `temporarily_unavailable` (503: nothing was written); an I/O failure or a
    /// closed store is a `server_error`; anything else is a bug (the log says which).
    static func storage(_ error: StorageError) -> OAuthError {
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
        case .io, .closed:
            return OAuthError(
                .serverError, "Internal server error.", logCode: "storage_\(error.code.rawValue)",
                reason: error.description)
        case .migration, .invalidConfiguration, .invalidRecord, .notEmpty, .notImplemented, .internalFailure:
            return .bug("storage \(error.description)")
        }
    }

    /// Tokens: a presented refresh token that is not ours is `invalid_grant`; a failure to mint is a bug.
    static func token(_ error: TokenError) -> OAuthError {
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

    /// HTTP body decoding: RFC 6749 §5.2 `invalid_request`; a body the server would not even read as what it says
    /// it is (RFC 9110 §8.3: no Content-Type, text/plain, …) is told so, since "malformed" would send the client
    /// looking at a body that may be perfectly valid JSON.
    static func http(_ error: HTTPError) -> OAuthError {
        switch error.code {
        case .unsupportedMediaType:
            return OAuthError(
                .invalidRequest, unsupportedMediaTypeDescription, logCode: "http_\(error.code.rawValue)",
                reason: error.reason)
        case .requestWithdrawn:
            // The deadline or shutdown answered 503 first: the write was withdrawn before it began.
            return OAuthError(
                .temporarilyUnavailable, "The server could not answer in time.", logCode: "http_request_withdrawn",
                reason: error.reason)
        case .malformedJSON, .malformedForm, .bodyTooLarge:
            return OAuthError(
                .invalidRequest, "The request body is malformed.", logCode: "http_\(error.code.rawValue)",
                reason: error.reason)
        case .malformedFraming, .methodNotImplemented, .transferCodingNotImplemented, .requestTimeout,
            .invalidConfiguration, .startFailed, .invalidState:
            // Answered by the HTTP layer before any endpoint runs, or the server's own start: never an endpoint's.
            return .bug("http \(error.description)")
        }
    }

    /// The one description of a body whose `Content-Type` is missing or not one the endpoint reads.
    static let unsupportedMediaTypeDescription =
        "The request's Content-Type is missing or not supported: send application/json (or, to /oauth/token, "
        + "application/x-www-form-urlencoded)."

    /// The answer for `error` on `request`: logs it (a bug at error level) and counts it in the metrics.
    static func response(for error: any Error, request: Request, context: ServerContext) -> Response {
        let mapped = oauthError(for: error)
        record(mapped, error: error, request: request, context: context)
        return mapped.response
    }

    /// Logs and counts one refusal.
    static func record(_ mapped: OAuthError, error: any Error, request: Request, context: ServerContext) {
        let event: String =
            // The unknown credential too: a ceremony failure, answered distinctly (`passkey_error`).
            if error is WebAuthnError || mapped.clientDescription == OAuthError.ceremonyDescription
                || mapped.passkeyError != nil
            {
                "webauthn_failure:\(mapped.logCode)"
            } else { "\(mapped.kind.rawValue):\(mapped.logCode)" }
        context.metrics.count(event: event)
        let level: Logger.Level = mapped.kind == .serverError ? .error : .warning
        context.logger.log(level, mapped.kind == .serverError ? "request failed (bug?)" : "request refused") { line in
            line.add("request_id", request.requestID)
            line.add("route", request.route ?? request.path)
            line.add("error", mapped.kind.rawValue)
            line.add("code", mapped.logCode)
            line.add("reason", mapped.reason)
        }
    }
}
