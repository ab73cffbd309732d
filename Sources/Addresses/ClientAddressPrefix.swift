import Glibc

/// The network a client address belongs to, for limits that one party must not escape by changing addresses
/// within what it is usually given: an IPv4 /24 and an IPv6 /64 (RFC 6177 §3 and RFC 7421: a /64 is the
/// smallest subnet an end site gets, so one host can use its whole range). One home for the rule: the connection
/// limits, the request rate limiter and the password-fallback throttles key on it.
public struct ClientAddressPrefix: Sendable, Hashable, CustomStringConvertible {
    /// Prefix length of an IPv4 network.
    public static let ipv4Length = 24
    /// Prefix length of an IPv6 network.
    public static let ipv6Length = 64

    /// The network's address bytes (host bits zero): 4 bytes for IPv4, 16 for IPv6.
    public let network: [UInt8]

    /// The prefix of a raw address: 4 bytes (IPv4) or 16 bytes (IPv6). An IPv4-mapped IPv6 address
    /// (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2) is the IPv4 address it maps, so a dual-stack listener counts it as one.
    /// Nil for any other length.
    public init?(addressBytes bytes: [UInt8]) {
        switch bytes.count {
        case 4:
            network = Array(bytes[0..<3]) + [0]
        case 16:
            let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
            if Array(bytes[0..<12]) == mappedPrefix {
                network = Array(bytes[12..<15]) + [0]
            } else {
                network = Array(bytes[0..<8]) + Array(repeating: 0, count: 8)
            }
        default:
            return nil
        }
    }

    /// The prefix of a textual address (`203.0.113.7`, `2001:db8::1`, as `Request.remoteAddress` holds it). Nil for
    /// text that is no IPv4 or IPv6 literal.
    public init?(text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(addressBytes: withUnsafeBytes(of: v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self.init(addressBytes: withUnsafeBytes(of: v6) { Array($0) })
            return
        }
        return nil
    }

    /// `203.0.113.0/24` or `2001:db8:0:1::/64`.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = network.count == 4 ? AF_INET : AF_INET6
        let length = network.count == 4 ? Self.ipv4Length : Self.ipv6Length
        let written = network.withUnsafeBytes { source in
            buffer.withUnsafeMutableBufferPointer {
                inet_ntop(family, source.baseAddress, $0.baseAddress, socklen_t($0.count))
            }
        }
        guard written != nil else { return "unknown" }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(text)/\(length)"
    }

    /// The key of `address` for a per-network limit: its prefix's text, or the text itself when it is no address
    /// literal (a test's made-up name, `unknown`).
    public static func key(of address: String) -> String {
        ClientAddressPrefix(text: address)?.description ?? address
    }
}
