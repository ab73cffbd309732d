import Glibc
import Addresses

extension ClientAddressPrefix {
    /// The prefix of a peer's socket address as accept(2) gives it: `length` bytes at `address`, a `sockaddr_in` or a
    /// `sockaddr_in6` by its family. Nil for another family or a length too short for the family's structure.
    init?(socketAddress address: UnsafePointer<sockaddr>, length: Int) {
        guard length >= MemoryLayout<sa_family_t>.size else { return nil }
        switch Int32(UnsafeRawPointer(address).loadUnaligned(as: sa_family_t.self)) {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            let ipv4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            self.init(addressBytes: withUnsafeBytes(of: ipv4.sin_addr) { Array($0) })
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            let ipv6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            self.init(addressBytes: withUnsafeBytes(of: ipv6.sin6_addr) { Array($0) })
        default:
            return nil
        }
    }

    /// The prefix of `address` when its family's structure is all there is (MHD keeps the peer's address as
    /// accept(2) filled it, without its length).
    init?(peerAddress address: UnsafePointer<sockaddr>) {
        let family = Int32(UnsafeRawPointer(address).loadUnaligned(as: sa_family_t.self))
        let length = family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        self.init(socketAddress: address, length: length)
    }
}
