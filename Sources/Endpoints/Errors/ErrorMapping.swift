import Crypto
import DeviceKeys
import HTTP
import JSON
import Service
import Storage
import Tokens
import WebAuthn

/// The one place where any error an endpoint meets becomes a wire answer (DESIGN.md, STYLE.md "Errors" 2):
/// module codes go to the log and the metrics, a fixed `error`/`error_description`/status goes to the client.
package enum ErrorMapping {
    /// Maps `error` to an `OAuthError`. Total: every code of every module error has an answer; anything not
    /// recognised is a `server_error` logged as a bug.
    package static func oauthError(for error: any Error) -> OAuthError {
        if let error = error as? HTTPError { return http(error) }
        return .mapping(error)
    }

    /// HTTP body decoding: RFC 6749 §5.2 `invalid_request`; a body the server would not even read as what it says
    /// it is (RFC 9110 §8.3: no Content-Type, text/plain, …) is told so, since "malformed" would send the client
    /// looking at a body that may be perfectly valid JSON.
    package static func http(_ error: HTTPError) -> OAuthError {
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
    package static let unsupportedMediaTypeDescription =
        "The request's Content-Type is missing or not supported: send application/json (or, to /oauth/token, "
        + "application/x-www-form-urlencoded; to /oauth/par, only that)."

    /// The answer for `error` on `request`: logs it (a bug at error level) and counts it in the metrics.
    package static func response(for error: any Error, request: Request, context: ServerContext) -> Response {
        let mapped = oauthError(for: error)
        record(mapped, error: error, request: request, context: context)
        return mapped.response
    }

    /// Logs and counts one refusal.
    package static func record(_ mapped: OAuthError, error: any Error, request: Request, context: ServerContext) {
        let event: String =
            // The unknown credential too: a ceremony failure, answered distinctly (`passkey_error`).
            if error is WebAuthnError || mapped.clientDescription == OAuthError.ceremonyDescription
                || mapped.passkeyError != nil
            {
                "webauthn_failure:\(mapped.logCode)"
            } else { "\(mapped.kind.rawValue):\(mapped.logCode)" }
        context.metrics.count(event: event)
        if let unavailability = OAuthError.unavailability(ofLogCode: mapped.logCode) {
            // The database cannot take writes: /readyz says so at once, though its heartbeat may still fit.
            context.readiness.noteUnavailable(unavailability, reason: mapped.reason)
        }
        let isBug = mapped.logCode == OAuthError.bugLogCode
        context.logger.log(isBug ? .error : .warning, logMessage(mapped)) { line in
            line.add("request_id", request.requestID)
            line.add("route", request.route ?? request.path)
            line.add("error", mapped.kind.rawValue)
            line.add("code", mapped.logCode)
            line.add("reason", mapped.reason)
        }
    }

    /// The log message of `mapped`: a bug says so; a `server_error` whose cause is documented (docs/api.md) says what
    /// it is, never "bug?"; a database that cannot take writes says why; any other refusal is "request refused".
    static func logMessage(_ mapped: OAuthError) -> String {
        if mapped.logCode == OAuthError.bugLogCode { return "request failed (bug?)" }
        switch mapped.logCode {
        case OAuthError.unavailableLogCode(.diskFull):
            return "request refused: database disk full (nothing written; free space on the database's volume)"
        case OAuthError.unavailableLogCode(.readOnly):
            return "request refused: database is read-only (nothing written; a read-only file, or a standby)"
        case OAuthError.unavailableLogCode(.insufficientResources):
            return "request refused: the database is out of resources (nothing written)"
        default: break
        }
        guard mapped.kind == .serverError else { return "request refused" }
        switch mapped.logCode {
        case "storage_io":
            return "request failed: the database could not complete it (an I/O error, a full disk met after the "
                + "write may have begun, or a COMMIT whose outcome is unknown)"
        case "storage_closed": return "request failed: the store is closed"
        default: return "request failed"
        }
    }
}
