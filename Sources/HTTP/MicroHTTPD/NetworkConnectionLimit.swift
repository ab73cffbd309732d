import Synchronization
import Addresses

/// Open connections per client network (`ClientAddressPrefix`: an IPv4 /24, an IPv6 /64) and the cap on them, beside
/// libmicrohttpd's own per-address cap (MHD_OPTION_PER_IP_CONNECTION_LIMIT).
///
/// Why: one party usually holds many addresses of one network, and the per-address cap alone let five addresses
/// fill every connection slot. Two steps, because MHD offers no single one that both sees the address and is
/// always paired with the close:
/// - the accept policy callback (`hasRoom`) refuses a connection from a network at its cap before MHD allocates
///   anything for it;
/// - MHD_CONNECTION_NOTIFY_STARTED counts the connection (`open`) and MHD_CONNECTION_NOTIFY_CLOSED, which MHD sends
///   for exactly the connections it sent STARTED for, uncounts it (`close`). Counting in the accept policy instead
///   would leak a count whenever MHD drops the connection between the two (an allocation failure, its own limit).
/// Polling threads accept at once, so a few connections of one network can pass `hasRoom` together; `open` is the
/// exact check, under the lock, and its refusal is cut by the caller.
final class NetworkConnectionLimit: Sendable {
    /// The most connections from one network; 0: no limit (nothing is counted).
    let limit: Int
    private let counts = Mutex([ClientAddressPrefix: Int]())

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Whether one more connection from `network` stays within the limit (the accept policy: nothing is counted).
    func hasRoom(for network: ClientAddressPrefix) -> Bool {
        limit == 0 || counts.withLock { $0[network, default: 0] } < limit
    }

    /// Counts a connection from `network`; returns false, counting nothing, when the network is at its limit.
    func open(_ network: ClientAddressPrefix) -> Bool {
        guard limit > 0 else { return true }
        return counts.withLock { counts in
            let open = counts[network, default: 0]
            guard open < limit else { return false }
            counts[network] = open + 1
            return true
        }
    }

    /// Uncounts a connection `open` counted.
    func close(_ network: ClientAddressPrefix) {
        guard limit > 0 else { return }
        counts.withLock { counts in
            let open = counts[network, default: 0]
            // The entry goes with the last connection: the table holds only networks with connections open.
            counts[network] = open > 1 ? open - 1 : nil
        }
    }

    /// The connections open from `network` (tests).
    func openConnections(from network: ClientAddressPrefix) -> Int {
        counts.withLock { $0[network, default: 0] }
    }
}
