import Configuration
import Foundation
import HTTP
import Service

/// The hosted login's cookies: the login session (`SameSite=Lax`, so the client's redirect to `/authorize` carries
/// it), the page's CSRF value and the logout question's (`SameSite=Strict`, read back by the pages' own POSTs only).
/// All `HttpOnly`, host-only, `Path=/`.
///
/// The `__Host-` prefix (RFC 6265bis §4.1.3.2) pins them to this host, `Secure` and `Path=/`, so a sibling domain
/// cannot set or shadow them; it needs `Secure`, which a plain-HTTP issuer (a developer's `http://localhost:8080/`)
/// cannot use, so there the names go without it (`passkeyd_session`, `passkeyd_csrf`) and without `Secure`.
package struct HostedCookies: Sendable {
    /// The login session cookie's name.
    package let sessionName: String
    /// The CSRF cookie's name.
    package let csrfName: String
    /// The logout question's CSRF cookie's name (`LogoutConfirmation`): its own, so that answering the question
    /// never changes the value a login page open in another tab holds.
    package let logoutName: String
    /// Whether the cookies are `Secure` (an `https` issuer).
    package let secure: Bool

    /// The cookies of `configuration`'s issuer.
    package init(configuration: ServerConfiguration) {
        let secure = URLComponents(string: configuration.issuer)?.scheme?.lowercased() != "http"
        self.secure = secure
        sessionName = secure ? "__Host-passkeyd_session" : "passkeyd_session"
        csrfName = secure ? "__Host-passkeyd_csrf" : "passkeyd_csrf"
        logoutName = secure ? "__Host-passkeyd_logout" : "passkeyd_logout"
    }

    /// The login session's cookie, until `expiresAt` (`Max-Age`, the time left from `now`).
    package func session(_ value: String, expiresAt: Date, now: Date) -> SetCookie {
        SetCookie(
            name: sessionName, value: value, maxAge: Int(expiresAt.timeIntervalSince(now).rounded(.down)),
            secure: secure, sameSite: .lax)
    }

    /// The login session's cookie removed (`Max-Age=0`, RFC 6265 §5.2.2).
    package var sessionRemoved: SetCookie {
        SetCookie(name: sessionName, value: "", maxAge: 0, secure: secure, sameSite: .lax)
    }

    /// How long the logout question may be answered, in seconds.
    package static let logoutLifetime = 600

    /// The logout question's CSRF cookie (`SameSite=Strict`: a cross-site POST never carries it).
    package func logout(_ value: String) -> SetCookie {
        SetCookie(name: logoutName, value: value, maxAge: Self.logoutLifetime, secure: secure, sameSite: .strict)
    }

    /// The logout question's CSRF cookie removed, once the question is answered.
    package var logoutRemoved: SetCookie {
        SetCookie(name: logoutName, value: "", maxAge: 0, secure: secure, sameSite: .strict)
    }

    /// The page's CSRF cookie, as long as its transaction lives.
    package func csrf(_ value: String) -> SetCookie {
        SetCookie(
            name: csrfName, value: value, maxAge: Int(HostedTransaction.lifetime), secure: secure, sameSite: .strict)
    }
}
