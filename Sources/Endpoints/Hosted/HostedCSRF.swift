import Crypto
import WebAuthn
import HTTP
import Service

/// The hosted page's CSRF defence for its POSTs (OWASP's double submit, signed): the `X-Passkeyd-CSRF` header must
/// equal both the CSRF cookie set with the page (`SameSite=Strict`, `HttpOnly`) and the value sealed in the
/// request's transaction, and an `Origin`, when the browser sends one, must be the page's own origin (the issuer's,
/// or a related origin of the transaction's realm: `CeremonyVerifier.hostedOriginPolicy`). A custom header also means a
/// cross-origin script needs a CORS preflight, which these routes never grant (Fetch §3.2.2).
package enum HostedCSRF {
    /// The header the page sends its CSRF value in.
    package static let headerName = "X-Passkeyd-CSRF"

    /// The refusal of every failed check: 403 `invalid_request`, one description (it never says which check).
    static func refusal(_ reason: String) -> OAuthError {
        var error = OAuthError(.invalidRequest, "CSRF check failed", logCode: "csrf_failed", reason: reason)
        error.statusOverride = 403
        return error
    }

    /// The checks that need no transaction: the header, the cookie and the `Origin` against `origins` (the page
    /// origins of every realm). Run before the body is read.
    /// - Throws: 403 `invalid_request` "CSRF check failed".
    package static func checkRequest(_ request: Request, cookies: HostedCookies, origins: OriginPolicy) throws
        -> String
    {
        guard let header = request.headers[headerName], !header.isEmpty else { throw refusal("no CSRF header") }
        guard let cookie = request.cookie(named: cookies.csrfName) else { throw refusal("no single CSRF cookie") }
        guard ConstantTime.equals(Array(header.utf8), Array(cookie.utf8)) else {
            throw refusal("CSRF header and cookie differ")
        }
        if let origin = request.headers["Origin"], !origins.allows(origin: origin) {
            throw refusal("foreign origin \(origin.prefix(256))")
        }
        return header
    }

    /// The checks against the transaction, once it is open: its own value, and the `Origin`, when the browser sends
    /// one, against `origins`, the page origins of the transaction's realm.
    /// - Throws: 403 `invalid_request` "CSRF check failed".
    package static func check(
        _ header: String, origin: String?, transaction: HostedTransaction, origins: OriginPolicy
    ) throws {
        guard ConstantTime.equals(Array(header.utf8), Array(transaction.csrf.utf8)) else {
            throw refusal("CSRF value is not the transaction's")
        }
        if let origin, !origins.allows(origin: origin) {
            throw refusal(
                "origin \(origin.prefix(256)) is not a page origin of realm \(transaction.realm ?? "(default)")")
        }
    }
}
