internal import CMicroHTTPD
import Glibc

/// An IPv4 or IPv6 listening address built from a numeric literal (nothing is resolved).
struct SocketAddress {
    private enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage

    /// Whether this is an IPv6 address (MHD then needs MHD_USE_IPv6).
    var isIPv6: Bool {
        if case .v6 = storage { return true }
        return false
    }

    init(host: String, port: UInt16) throws(HTTPError) {
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            storage = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            storage = .v6(v6)
            return
        }
        throw HTTPError(.invalidConfiguration, "host \"\(host)\" is not an IPv4 or IPv6 address literal")
    }

    /// Calls `body` with a `sockaddr` pointer valid for the call only (MHD copies it while binding).
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        switch storage {
        case .v4(var address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        case .v6(var address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        }
    }
}
