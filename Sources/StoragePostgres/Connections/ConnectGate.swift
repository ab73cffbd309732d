import Foundation
import Storage
import Synchronization

/// Whether a connection of one store may try to open a session now. Shared by the pool's connections and the
/// COMMIT-in-doubt questions (`CommitResolution`).
///
/// While the database answers, every connection connects when it needs to. Once an attempt fails, the database is
/// taken as unreachable: for `pause` the connections that need a new session fail at once (503, nothing written)
/// instead of each waiting up to `connect_timeout` for a host that is down or partitioned away — with a pool of
/// four, a queue of requests would otherwise drain at four per `connect_timeout`, every one of them waiting its
/// turn. Then one attempt at a time probes (the others still fail at once) until one succeeds, which opens the
/// gate to all.
final class ConnectGate: Sendable {
    /// How long after a failed attempt the next one may start, by default.
    static let defaultPause: TimeInterval = 1

    /// How long after a failed attempt the next one may start.
    let pause: TimeInterval

    init(pause: TimeInterval = ConnectGate.defaultPause) {
        self.pause = pause
    }

    /// What a connection that needs a session does now.
    enum Decision: Equatable {
        /// Connect.
        case attempt
        /// Fail at once: an attempt failed (or one is probing) until `until`.
        case refuse(until: Date)
    }

    private struct State {
        /// Whether the last attempt that ended failed.
        var failing = false
        /// While failing: no attempt starts before this (the pause, or a probe's time limit).
        var closedUntil = Date.distantPast
        /// Why the last failed attempt's server would not take writes, if that is why it failed.
        var unavailability: StorageError.Unavailability?
    }

    private let state = Mutex(State())

    /// Decides for a connection that needs a session at `now`. `probeLimit` is how long an attempt may take
    /// (libpq's `connect_timeout` for each host it tries): past it another connection may probe.
    func decide(now: Date, probeLimit: TimeInterval) -> Decision {
        state.withLock { state in
            guard state.failing else { return .attempt }
            guard now >= state.closedUntil else { return .refuse(until: state.closedUntil) }
            state.closedUntil = now.addingTimeInterval(probeLimit)
            return .attempt
        }
    }

    /// An attempt failed at `now` (`unavailability`: because the server would not take writes): refuse the others
    /// for `pause`.
    func failed(at now: Date, unavailability: StorageError.Unavailability? = nil) {
        state.withLock {
            $0.failing = true
            $0.closedUntil = now.addingTimeInterval(pause)
            $0.unavailability = unavailability
        }
    }

    /// While failing: why the last attempt's server would not take writes, if that is why it failed (a refusal then
    /// says so too).
    var unavailability: StorageError.Unavailability? {
        state.withLock { $0.failing ? $0.unavailability : nil }
    }

    /// An attempt succeeded: every connection may connect again.
    func succeeded() {
        state.withLock { $0.failing = false }
    }
}
