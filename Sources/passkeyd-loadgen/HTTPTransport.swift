/// One HTTP/1.1 exchange as the load generator needs it: POST a JSON body, get the status and the body back.
/// Each virtual client owns one transport and uses it from one thread only.
protocol HTTPTransport {
    /// POSTs `body` as `application/json` to `path` and returns the status and the response body.
    func post(_ path: String, body: [UInt8]) throws(LoadgenError) -> (status: Int, body: [UInt8])
    /// GETs `path` and returns the status and the response body.
    func get(_ path: String) throws(LoadgenError) -> (status: Int, body: [UInt8])
}

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
