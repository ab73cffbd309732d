import Addresses
import Glibc
import Testing

@testable import HTTP

@Suite("NetworkConnectionLimit and the network of a socket address")
struct NetworkConnectionLimitTests {
    let network = ClientAddressPrefix(text: "203.0.113.7")!
    let neighbour = ClientAddressPrefix(text: "203.0.113.200")!
    let other = ClientAddressPrefix(text: "198.51.100.7")!

    @Test("one network's connections are counted together up to the limit, and each close frees one")
    func counts() {
        let limit = NetworkConnectionLimit(limit: 2)
        #expect(network == neighbour)
        #expect(limit.open(network) && limit.open(neighbour))
        #expect(!limit.hasRoom(for: network))
        #expect(!limit.open(network))
        #expect(limit.hasRoom(for: other) && limit.open(other))
        limit.close(neighbour)
        #expect(limit.openConnections(from: network) == 1)
        #expect(limit.hasRoom(for: network) && limit.open(network))
        limit.close(network)
        limit.close(network)
        #expect(limit.openConnections(from: network) == 0)
    }

    @Test("limit 0 counts nothing and refuses nothing")
    func unlimited() {
        let limit = NetworkConnectionLimit(limit: 0)
        for _ in 0..<10 { #expect(limit.hasRoom(for: network) && limit.open(network)) }
        #expect(limit.openConnections(from: network) == 0)
    }

    @Test("a sockaddr_in is its /24, a sockaddr_in6 its /64 (an IPv4-mapped one its IPv4 /24); short or other: nil")
    func socketAddresses() throws {
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "203.0.113.7", &v4.sin_addr)
        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        inet_pton(AF_INET6, "2001:db8:1:2:3:4:5:6", &v6.sin6_addr)
        var mapped = sockaddr_in6()
        mapped.sin6_family = sa_family_t(AF_INET6)
        inet_pton(AF_INET6, "::ffff:203.0.113.9", &mapped.sin6_addr)
        var unix = sockaddr()
        unix.sa_family = sa_family_t(AF_UNIX)
        func prefix<Address>(_ address: inout Address, length: Int? = nil) -> ClientAddressPrefix? {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    ClientAddressPrefix(socketAddress: $0, length: length ?? MemoryLayout<Address>.size)
                }
            }
        }
        #expect(prefix(&v4) == network)
        #expect(prefix(&v6)?.description == "2001:db8:1:2::/64")
        #expect(prefix(&mapped) == network)
        #expect(prefix(&v4, length: 8) == nil)
        #expect(prefix(&v6, length: MemoryLayout<sockaddr_in>.size) == nil)
        #expect(prefix(&unix) == nil)
    }
}
