import Foundation
import Storage

/// The sealers of the secrets every node holds for the sealed auth sessions and the hosted page's transactions
/// (`AuthSessionKey`): the current secret's, which seals, and those of the secrets a rotation keeps opening (the next
/// one, published before it seals; the previous one, until the values it sealed have expired).
package struct AuthSessionKeyring: Sendable {
    /// The auth sessions' sealers: the first seals, every one opens.
    package let sessions: AuthSessionSealing
    /// The hosted transactions' sealers: the first seals, every one opens.
    package let transactions: HostedTransactionSealing

    /// The keyring of `current` (which seals) and `opening`, the other secrets that still open (duplicates of
    /// `current` and of each other are left out).
    package init(current: [UInt8], opening: [[UInt8]] = []) throws {
        var secrets = [current]
        for secret in opening where !secrets.contains(secret) { secrets.append(secret) }
        sessions = AuthSessionSealing(sealers: try secrets.map(AuthSessionSealer.init(secret:)))
        transactions = HostedTransactionSealing(sealers: try secrets.map(HostedTransactionSealer.init(secret:)))
    }

    /// How many secrets open (the current one included).
    package var count: Int { sessions.sealers.count }
}

/// Seals an auth session under the current secret; opens one sealed under any secret of the keyring.
package struct AuthSessionSealing: Sendable {
    /// The current secret's sealer first.
    let sealers: [AuthSessionSealer]

    /// A keyring of the one `sealer` (tests).
    package init(_ sealer: AuthSessionSealer) { sealers = [sealer] }

    init(sealers: [AuthSessionSealer]) { self.sealers = sealers }

    /// `AuthSessionSealer.seal` under the current secret.
    package func seal(_ session: AuthSession) throws -> String {
        try sealers[0].seal(session)
    }

    /// The session `value` seals under any of the keyring's secrets, or `nil` (`AuthSessionSealer.open`).
    package func open(_ value: String) -> AuthSession? {
        for sealer in sealers {
            if let session = sealer.open(value) { return session }
        }
        return nil
    }
}

/// Seals a hosted transaction under the current secret; opens one sealed under any secret of the keyring.
package struct HostedTransactionSealing: Sendable {
    /// The current secret's sealer first.
    let sealers: [HostedTransactionSealer]

    /// `HostedTransactionSealer.seal` under the current secret.
    package func seal(_ transaction: HostedTransaction) throws -> String {
        try sealers[0].seal(transaction)
    }

    /// The live transaction `value` seals under any of the keyring's secrets, or `nil` (`HostedTransactionSealer.open`).
    package func open(_ value: String, now: Date) -> HostedTransaction? {
        for sealer in sealers {
            if let transaction = sealer.open(value, now: now) { return transaction }
        }
        return nil
    }
}
