import Foundation
import Storage

/// The sealers of the secrets every node holds for the sealed auth sessions and the hosted page's transactions
/// (`AuthSessionKey`): the current secret's, which seals, and those of the secrets a rotation keeps opening (the next
/// one, published before it seals; the previous one, until the values it sealed have expired).
package struct AuthSessionKeyring: Sendable {
    /// The auth sessions' sealers: the first seals, every one opens.
    package let sessions: SealerRing<AuthSessionSealer>
    /// The hosted transactions' sealers: the first seals, every one opens.
    package let transactions: SealerRing<HostedTransactionSealer>
    /// The pushed authorization requests' sealers (`PushedRequestSealer`), in the same order.
    package let pushedRequests: SealerRing<PushedRequestSealer>

    /// The keyring of `current` (which seals) and `opening`, the other secrets that still open (duplicates of
    /// `current` and of each other are left out).
    package init(current: [UInt8], opening: [[UInt8]] = []) throws {
        var secrets = [current]
        for secret in opening where !secrets.contains(secret) { secrets.append(secret) }
        sessions = SealerRing(sealers: try secrets.map(AuthSessionSealer.init(secret:)))
        transactions = SealerRing(sealers: try secrets.map(HostedTransactionSealer.init(secret:)))
        pushedRequests = SealerRing(sealers: try secrets.map(PushedRequestSealer.init(secret:)))
    }

    /// How many secrets open (the current one included).
    package var count: Int { sessions.sealers.count }
}

/// One sealer per secret of a keyring, the current secret's first: it seals; every one opens.
package struct SealerRing<Sealer: Sendable>: Sendable {
    /// The current secret's sealer first.
    let sealers: [Sealer]

    /// What the first sealer to open a value makes of it (the current secret's is tried first: the common case).
    func firstOpened<Value>(_ open: (Sealer) -> Value?) -> Value? {
        for sealer in sealers {
            if let value = open(sealer) { return value }
        }
        return nil
    }
}

extension SealerRing where Sealer == AuthSessionSealer {
    /// `AuthSessionSealer.seal` under the current secret.
    package func seal(_ session: AuthSession) throws -> String {
        try sealers[0].seal(session)
    }

    /// The session `value` seals under any of the keyring's secrets, or `nil` (`AuthSessionSealer.open`).
    package func open(_ value: String) -> AuthSession? {
        firstOpened { $0.open(value) }
    }
}

extension SealerRing where Sealer == HostedTransactionSealer {
    /// `HostedTransactionSealer.seal` under the current secret.
    package func seal(_ transaction: HostedTransaction) throws -> String {
        try sealers[0].seal(transaction)
    }

    /// The live transaction `value` seals under any of the keyring's secrets, or `nil`
    /// (`HostedTransactionSealer.open`).
    package func open(_ value: String, now: Date) -> HostedTransaction? {
        firstOpened { $0.open(value, now: now) }
    }
}

extension SealerRing where Sealer == PushedRequestSealer {
    /// Seals with the current secret.
    package func seal(_ request: PushedAuthorizationRequest) throws -> String {
        try sealers[0].seal(request)
    }

    /// Opens with any secret of the ring.
    package func open(_ value: String, now: Date) -> PushedAuthorizationRequest? {
        firstOpened { $0.open(value, now: now) }
    }
}
