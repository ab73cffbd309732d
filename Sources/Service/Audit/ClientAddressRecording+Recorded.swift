import Configuration
import Foundation

// How an audit entry keeps the client's address under `audit.client_address` (the setting's choices are
// Configuration's `ClientAddressRecording`).
extension ClientAddressRecording {
    /// What an entry records of `address`; `nil` for `.none`, and for `.network` when the text is no IP address
    /// (nothing of an unknown form is kept).
    package func recorded(_ address: String?) -> String? {
        guard let address else { return nil }
        switch self {
        case .full: return address
        case .network: return Self.network(of: address)
        case .none: return nil
        }
    }

    /// The /24 (IPv4) or /48 (IPv6) network of `address`, parsed and written by libc (`inet_pton`, `inet_ntop`).
    package static func network(of address: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return ipv4Network(UInt32(bigEndian: v4.s_addr)) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return nil }
        var bytes = withUnsafeBytes(of: v6) { Array($0) }
        // ::ffff:a.b.c.d (RFC 4291 §2.5.5.2) is an IPv4 client.
        if bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return ipv4Network(bytes.suffix(4).reduce(0) { $0 << 8 | UInt32($1) })
        }
        for index in 6..<16 { bytes[index] = 0 }
        return text(AF_INET6, bytes: bytes, capacity: Int(INET6_ADDRSTRLEN)).map { $0 + "/48" }
    }

    private static func ipv4Network(_ host: UInt32) -> String? {
        let network = host & 0xFFFF_FF00
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: network >> $0) }
        return text(AF_INET, bytes: bytes, capacity: Int(INET_ADDRSTRLEN)).map { $0 + "/24" }
    }

    /// An address given as its bytes in network order, written by `inet_ntop`.
    private static func text(_ family: Int32, bytes: [UInt8], capacity: Int) -> String? {
        var buffer = [CChar](repeating: 0, count: capacity)
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(capacity)) != nil
        }
        guard written else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
