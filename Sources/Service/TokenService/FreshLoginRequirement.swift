import Foundation

/// The step-up rule for account changes a stolen refresh token must not buy (enrolling or replacing a device key,
/// setting the password verifier, adding or removing a passkey, recovery codes): the access token must have been
/// minted by a login made at most `maxAge` ago, with a method that verified the user.
///
/// One home for the rule: every endpoint that needs a fresh login calls `check`, on the requirement of its purpose
/// (`init(for:in:)`, which reads each window from the configuration, `FreshLoginRequirement+Purpose`).
/// - `auth_time` (OIDC Core §2) within `maxAge` of now (and not in the future);
/// - `amr` (RFC 8176) naming one of `acceptedMethods`: `user` (a passkey with user verification, WebAuthn L3
///   §6.1 UV flag) by default; the password fallback adds `pwd`;
/// - minted by the login itself: `iat` (RFC 7519 §4.1.6) in the same second as `auth_time`, and, for a token that
///   names its session (`sid`), `jti` equal to it — the login mints its one access token with its session id as
///   `jti` (`TokenService.Grant.isLogin`), the refresh grant with a random one. The refresh grant keeps the
///   original `auth_time` and `amr` (its family's login), so a refresh-derived token fails here by its `jti`, even
///   one minted in the very second of its login (NumericDates are whole seconds, so `iat` alone cannot tell).
public struct FreshLoginRequirement: Sendable, Equatable {
    /// Longest time since the login, in seconds.
    public var maxAge: TimeInterval
    /// `amr` values of which the token must name at least one.
    public var acceptedMethods: Set<String>

    /// The `amr` of a user-verified passkey login (RFC 8176 `user`, WebAuthn L3 §6.1 UV flag).
    public static let passkeyMethods: Set<String> = ["user"]

    /// Creates the requirement; `acceptedMethods` defaults to a user-verified passkey.
    public init(maxAge: TimeInterval, acceptedMethods: Set<String> = passkeyMethods) {
        self.maxAge = maxAge
        self.acceptedMethods = acceptedMethods
    }

    /// `.success` when `subject`'s token qualifies at `now`, otherwise why not.
    public func check(_ subject: AuthenticatedSubject, now: Date) -> Result<Void, FreshLoginRefusal> {
        guard let authTime = subject.authTime else { return .failure(.noAuthTime) }
        // NumericDates are whole seconds: compare in whole seconds, with no allowance beyond that rounding.
        let login = authTime.timeIntervalSince1970.rounded(.down)
        let minted = subject.issuedAt.timeIntervalSince1970.rounded(.down)
        let current = now.timeIntervalSince1970.rounded(.down)
        guard login <= current else { return .failure(.loginInFuture) }
        guard current - login <= maxAge else { return .failure(.loginTooOld) }
        guard minted <= login else { return .failure(.notMintedByLogin) }
        if let session = subject.sessionID, subject.tokenID != session { return .failure(.notMintedByLogin) }
        guard subject.authenticationMethods.contains(where: acceptedMethods.contains) else {
            return .failure(.userNotVerified)
        }
        return .success(())
    }
}

/// Why a token does not show a fresh login; the raw value is the error code a refusal names.
public enum FreshLoginRefusal: String, Error, Sendable, CaseIterable {
    /// The token has no `auth_time`.
    case noAuthTime = "login_time_missing"
    /// `auth_time` is after now.
    case loginInFuture = "login_time_in_future"
    /// The login is older than `maxAge`.
    case loginTooOld = "login_too_old"
    /// The token was minted after the login (by the refresh grant), not by it.
    case notMintedByLogin = "token_not_from_login"
    /// `amr` names none of the accepted methods (no user verification).
    case userNotVerified = "login_without_user_verification"
}
