/// Which transport the virtual clients use.
enum TransportKind: String, Sendable {
    /// For `--login`: every client's keep-alive connection multiplexed over poll(2) loops, one thread per core
    /// (`EventLoopLogin`). Sign-ups and `--once` use `socket`.
    case poll
    /// The minimal keep-alive client over POSIX sockets, one blocking thread per client.
    case socket
    /// Foundation's URLSession (libcurl underneath on Linux), for comparison.
    case urlsession
}
