import Crypto
import Foundation
import HTTP
import JSON
import Service
import Storage

/// `POST /recovery/challenge` `{client_id, identifier, realm?}` → `{auth_session, expires_in}`: the first step of
/// account recovery with a recovery code, finished by the recovery grant at `/oauth/token`.
///
/// The answer is the same whether or not the identifier exists (a session is stored either way, and the grant
/// does the same work for both), and identifiers over the failure limits are delayed or locked alike.
package enum RecoveryEndpoints {
    /// Marks a recovery session among the login sessions (`AuthSession.name`); the identifier is its `username`.
    package static let sessionMarker = "recovery"
    /// How long the session can be answered, in seconds.
    package static let sessionLifetime: TimeInterval = 300

    package static func register(in router: inout Router, context: ServerContext) {
        router.add(
            .post, "/recovery/challenge",
            EndpointHandler.make(context, rateLimited: true) { request in
                try await challenge(request, context: context)
            })
    }

    package static func challenge(_ request: Request, context: ServerContext) async throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try ClientResolution.client(
            parameters, allowing: ClientConfiguration.recoveryCodeGrant, context: context)
        let realm = try PasskeyEndpoints.realm(parameters, context: context)
        let typed = try parameters.string("identifier", maxLength: 320)
        let identifier = normalized(typed) ?? typed
        let now = context.clock.now()
        let address = request.remoteAddress ?? "unknown"
        let identifierKey = FallbackCounterKey.recoveryIdentifier(realm: realm.name, identifier: identifier)
        let addressKey = ThrottledAttempt.recoveryAddressKey(address)
        let found = try await context.store.read { reader in
            (
                user: try lookup(reader, realm: realm.name, identifier: identifier),
                identifierFailures: try reader.fallbackCounter(key: identifierKey),
                addressFailures: try reader.fallbackCounter(key: addressKey)
            )
        }
        try await enforce(
            throttle(context).decide(identity: found.identifierFailures, address: found.addressFailures, now: now),
            userID: found.user?.id, clientID: client.clientID, attempts: found.identifierFailures?.count, now: now,
            context: context)
        let handle = try AuthSessionHandle.generate()
        let session = AuthSession(
            id: handle.sessionID, clientID: client.clientID, realm: realm.name, kind: .login,
            challenge: try SecureRandom.bytes(count: 32), username: identifier, name: sessionMarker,
            userHandle: found.user?.userHandle, createdAt: now, expiresAt: now.addingTimeInterval(sessionLifetime))
        let userID = found.user?.id
        try await context.store.write { writer in
            try writer.insertAuthSession(session)
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    PasskeyLifecycleAuditEvent.recoveryChallenge, now: now, userID: userID, clientID: client.clientID))
        }
        context.metrics.count(event: "recovery_challenge")
        return .json(
            .object([
                JSONMember(key: "auth_session", value: .string(handle.value)),
                JSONMember(key: "expires_in", value: .number(String(Int(sessionLifetime)))),
            ]))
    }

    /// The identifier as sign-up stores it: an email address lower-cased, a phone number in E.164, a username
    /// lower-cased; `nil` when it is none of them (then it finds no user).
    package static func normalized(_ text: String) -> String? {
        if text.contains("@") { return try? UserProfile.normalizedEmail(text) }
        if text.hasPrefix("+") { return try? UserProfile.normalizedPhoneNumber(text) }
        return text.lowercased()
    }

    /// The user of `realm` with `identifier` as an email, phone number or username.
    package static func lookup(_ reader: any StoreReader, realm: String, identifier: String) throws -> User? {
        for candidate in [
            UserIdentifier.email(identifier), .phoneNumber(identifier), .username(identifier),
        ] {
            if let user = try reader.user(realm: realm, identifier: candidate) { return user }
        }
        return nil
    }

    /// The password fallback's throttle (one mechanism, the same cooling period and network counts), with at most
    /// `RecoveryThrottleKeys.maximumFailures` failures of an identifier.
    package static func throttle(_ context: ServerContext) -> SRPThrottle {
        var settings = context.configuration.srp
        settings.maxFailures = min(settings.maxFailures, RecoveryThrottleKeys.maximumFailures)
        settings.delayAfterFailures = min(settings.delayAfterFailures, settings.maxFailures)
        return SRPThrottle(settings)
    }

    /// Refuses an attempt the throttle delays or locks, recording it; returns when it is allowed.
    package static func enforce(
        _ decision: SRPThrottle.Decision, userID: String?, clientID: String, attempts: Int?, now: Date,
        context: ServerContext
    ) async throws {
        let refusal: OAuthError
        switch decision {
        case .allowed: return
        case .delayed(let retryAfter): refusal = PasskeyLifecycleRefusal.recoveryDelayed(retryAfter: retryAfter)
        case .locked(let retryAfter): refusal = PasskeyLifecycleRefusal.recoveryLocked(retryAfter: retryAfter)
        }
        try await context.store.write { writer in
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    PasskeyLifecycleAuditEvent.recoveryAttempt, outcome: PasskeyLifecycleAuditEvent.failure, now: now,
                    userID: userID, clientID: clientID, reasonCode: refusal.logCode, attempts: attempts))
        }
        throw refusal
    }
}
