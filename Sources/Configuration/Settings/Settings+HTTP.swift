extension Settings {
    /// `http`: the public listener's limits and TLS.
    package enum HTTP {
        package static let maxBodyBytes = IntegerSetting(
            "http.max_body_bytes", default: 65_536, range: 1_024...16_777_216,
            doc: """
                larger bodies get 413: at once when `Content-Length` declares more (none of the body is read; what \
                the client still sends is read and discarded for up to `http.request_read_timeout_seconds` and 4 MiB, \
                so it reads the 413 rather than a reset); a chunked body once it grows past the limit
                """)
        package static let connectionTimeoutSeconds = IntegerSetting(
            "http.connection_timeout_seconds", default: 30, range: 1...3_600,
            doc: """
                a connection on which nothing moves (no byte received or sent) is closed after this; every byte \
                restarts it
                """)
        package static let requestReadTimeoutSeconds = IntegerSetting(
            "http.request_read_timeout_seconds", default: 10, range: 1...600,
            doc: """
                a whole request, header fields and body, must arrive within this, counted from the connection's \
                opening or the end of the previous response on it; otherwise the connection is closed (408 if the \
                headers were complete). Bounds slow clients (slowloris) that a byte at a time would keep alive, also \
                behind a proxy; an idle keep-alive connection is closed after it too
                """)
        package static let responseWriteTimeoutSeconds = IntegerSetting(
            "http.response_write_timeout_seconds", default: 30, range: 1...600,
            doc: """
                a response must be taken by the client within this, counted from when it is ready; otherwise the \
                connection is reset. Bounds slow readers, which the idle timeout does not (every byte they take \
                restarts it); the largest response passkeyd sends (the OpenAPI document, about 105 KiB) then needs a \
                client reading at least 4 KiB/s
                """)
        package static let connectionLimit = IntegerSetting(
            "http.connection_limit", default: 4_096, range: 1...65_536,
            doc: """
                concurrent connections; more are closed at once. It must be at least 8 × \
                `http.per_network_connection_limit` (or × `http.per_address_connection_limit` when that one is off), \
                so that a few networks at their cap cannot fill it: a configuration that breaks this is refused at \
                load, naming the settings. Each connection needs a file descriptor, and a second one while its close \
                drains: at start passkeyd raises its soft `RLIMIT_NOFILE` to about twice the limit, or refuses to \
                start if the hard limit is lower (raise it with `LimitNOFILE=` in the systemd unit)
                """)
        package static let perNetworkConnectionLimit = IntegerSetting(
            "http.per_network_connection_limit", default: 256, range: 0...65_536,
            doc: """
                concurrent connections from one client network, an IPv4 /24 or an IPv6 /64 (one party usually holds \
                many addresses of one); more are closed at once, before anything is read; `0` turns the limit off. \
                Behind a reverse proxy see "Connection limits and a reverse proxy" below
                """)
        package static let perAddressConnectionLimit = IntegerSetting(
            "http.per_address_connection_limit", default: 64, range: 0...65_536,
            doc: """
                concurrent connections from one client IP address, at most `http.per_network_connection_limit`; more \
                are closed at once; `0` turns the limit off. Behind a reverse proxy see below
                """)
        package static let requestDeadlineSeconds = IntegerSetting(
            "http.request_deadline_seconds", default: 30, range: 1...600,
            doc: """
                a request still running after this gets 503, unless one of its writes has begun (it had its database \
                connection, or its turn at the SQLite writer): then its real answer is awaited (a 503 always means \
                nothing was written). Time spent queued for a connection counts; on PostgreSQL a begun write's \
                statements are cancelled at the deadline (503, rolled back)
                """)
        package static let threads = IntegerSetting(
            "http.threads", default: 2, range: 1...256,
            doc: "libmicrohttpd polling threads (`poll(2)`, each serving its share of the connections)")
        package static let shutdownGraceSeconds = IntegerSetting(
            "http.shutdown_grace_seconds", default: 10, range: 0...600,
            doc: """
                how long requests in flight may finish after SIGTERM; then those that have written nothing get 503, \
                those that have are awaited (up to one more request deadline)
                """)
        package static let tlsCertificateFile = OptionalTextSetting(
            "http.tls_certificate_file",
            doc: """
                PEM file of the certificate (chain) to serve HTTPS directly, with `http.tls_key_file`; plain HTTP \
                behind a TLS-terminating proxy is the documented default
                """)
        package static let tlsKeyFile = OptionalTextSetting(
            "http.tls_key_file", doc: "PEM file of the private key of `http.tls_certificate_file`")

        static let all = [
            maxBodyBytes.descriptor, connectionTimeoutSeconds.descriptor, requestReadTimeoutSeconds.descriptor,
            responseWriteTimeoutSeconds.descriptor, connectionLimit.descriptor, perNetworkConnectionLimit.descriptor,
            perAddressConnectionLimit.descriptor, requestDeadlineSeconds.descriptor, threads.descriptor,
            shutdownGraceSeconds.descriptor, tlsCertificateFile.descriptor, tlsKeyFile.descriptor,
        ]
    }
}
