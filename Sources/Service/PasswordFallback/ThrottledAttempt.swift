import Addresses
import Foundation
import JSON
import Storage

/// One attempt of a fallback login (an SRP proof, a recovery code) under `SRPThrottle`, judged and counted in the
/// store write that spends its session. The counters are locked (`StoreWriter.lockFallbackCounters`) and an allowed
/// attempt is counted as a failure right there, before its proof is checked — a reservation that a success takes
/// back (`succeeded`). So of attempts sent at once, each is judged on the failures of those before it, on any node:
/// twenty guesses at once are not all judged against the count none of them has written yet.
package struct ThrottledAttempt: Sendable {
    /// The counter of the identity (SRP identity or recovery identifier).
    package let identityKey: String
    /// The counter of the client's network.
    package let addressKey: String
    /// What the throttle decided.
    package let decision: SRPThrottle.Decision
    /// The identity's failures: with this attempt counted when it was allowed, as found when it was refused.
    package let identityFailures: Int?

    /// Inside a write: locks the attempt's counters, judges it at `now` and, when allowed, counts it for the identity
    /// and the network.
    package static func judge(
        identityKey: String, addressKey: String, throttle: SRPThrottle, writer: any StoreWriter, now: Date
    ) throws(StorageError) -> ThrottledAttempt {
        let found = try writer.lockFallbackCounters(keys: [identityKey, addressKey])
        let decision = throttle.decide(identity: found[identityKey], address: found[addressKey], now: now)
        guard decision == .allowed else {
            return ThrottledAttempt(
                identityKey: identityKey, addressKey: addressKey, decision: decision,
                identityFailures: found[identityKey]?.count)
        }
        let identity = try writer.incrementFallbackCounter(
            key: identityKey, now: now, restartingBefore: throttle.identityWindowStart(now: now))
        _ = try writer.incrementFallbackCounter(
            key: addressKey, now: now, restartingBefore: throttle.addressWindowStart(now: now))
        return ThrottledAttempt(
            identityKey: identityKey, addressKey: addressKey, decision: decision, identityFailures: identity.count)
    }

    /// Inside the write of a success: the identity's count starts again (its lock, if any, is gone) and the
    /// network's count takes this attempt back.
    package func succeeded(_ writer: any StoreWriter) throws(StorageError) {
        _ = try writer.resetFallbackCounters(keys: [identityKey])
        try writer.decrementFallbackCounter(key: addressKey)
    }

    /// The network counter key of `address` for the SRP logins (`ClientAddressPrefix.key(of:)`: one host holds a
    /// whole IPv6 /64).
    package static func srpAddressKey(_ address: String) -> String {
        FallbackCounterKey.address(network: ClientAddressPrefix.key(of: address))
    }

    /// The network counter key of `address` for recovery attempts.
    package static func recoveryAddressKey(_ address: String) -> String {
        FallbackCounterKey.recoveryAddress(network: ClientAddressPrefix.key(of: address))
    }
}
