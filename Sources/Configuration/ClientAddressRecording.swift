/// What an audit entry keeps of the client's address (`audit.client_address`). The log is append-only and outlives
/// `DELETE /me` and the events' retention, so an operator may keep only the network the request came from, or
/// nothing. The `security_events` table keeps the whole address for its retention either way.
public enum ClientAddressRecording: String, Sendable, Equatable, CaseIterable, SettingChoice {
    /// The address as the connection gave it (the default).
    case full
    /// The network only, as web analytics anonymise addresses: IPv4 /24, IPv6 /48 (an IPv4-mapped IPv6 address
    /// as IPv4 /24), written `192.0.2.0/24`. Enough to see which network a flood or an attack came from.
    case network
    /// No address.
    case none
}
