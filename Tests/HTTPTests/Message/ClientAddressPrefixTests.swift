import Addresses
import Testing

@testable import HTTP

@Suite("ClientAddressPrefix")
struct ClientAddressPrefixTests {
    @Test(
        "IPv4 addresses group by /24, IPv6 by /64, IPv4-mapped IPv6 as its IPv4 address",
        arguments: [
            ("203.0.113.7", "203.0.113.0/24"),
            ("203.0.113.255", "203.0.113.0/24"),
            ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
            ("2001:db8:1:2::ffff", "2001:db8:1:2::/64"),
            ("::ffff:198.51.100.9", "198.51.100.0/24"),
            ("::1", "::/64"),
        ])
    func prefixes(address: String, expected: String) {
        #expect(ClientAddressPrefix(text: address)?.description == expected)
        #expect(ClientAddressPrefix.key(of: address) == expected)
    }

    @Test("addresses in different networks have different prefixes")
    func separates() {
        #expect(ClientAddressPrefix.key(of: "203.0.113.7") != ClientAddressPrefix.key(of: "203.0.114.7"))
        #expect(ClientAddressPrefix.key(of: "2001:db8:1:2::1") != ClientAddressPrefix.key(of: "2001:db8:1:3::1"))
    }

    @Test("text that is no address literal is its own key", arguments: ["unknown", "client-a", "", "300.1.1.1"])
    func nonAddresses(text: String) {
        #expect(ClientAddressPrefix(text: text) == nil)
        #expect(ClientAddressPrefix.key(of: text) == text)
    }

    @Test("raw bytes of other lengths have no prefix")
    func rawLengths() {
        #expect(ClientAddressPrefix(addressBytes: [1, 2, 3]) == nil)
        #expect(ClientAddressPrefix(addressBytes: [10, 1, 2, 3])?.description == "10.1.2.0/24")
    }
}
