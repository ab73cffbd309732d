extension Settings {
    /// `log_level`.
    package static let logLevel = ChoiceSetting<LogLevel>(
        "log_level", default: .info,
        doc: """
            the least severe log line written: `debug`, `info`, `warning` or `error` (logs are JSON lines on standard \
            error, see below)
            """)

    /// `issuer`.
    package static let issuer = TextSetting(
        "issuer", default: nil,
        doc: """
            token issuer URL (`https`, or `http` for localhost only); always ends with `/` in tokens and discovery \
            (Auth0's `https://<domain>/`, which Android's passkey helper compares with `iss` exactly): \
            `https://auth.example.com` is read as `https://auth.example.com/`. An issuer with a path \
            (`https://example.com/tenant/`) is accepted, and `check-config` warns about it: passkeyd serves its \
            endpoints and discovery document at the root, so only a proxy that strips the path serves them there
            """)

    /// `web_origins`.
    package static let webOrigins = ListSetting(
        "web_origins",
        doc: """
            web origins accepted for every client; each must be the RP ID or a subdomain. With the clients' own \
            `web_origins` they are also the origins whose pages may call the passkey and OAuth endpoints from a \
            browser (CORS, see docs/api.md)
            """)

    /// `data_directory`.
    package static let dataDirectory = TextSetting(
        "data_directory", default: "./data", allowsEmpty: false, flag: "--data-dir",
        doc: """
            created with mode 0700 on first start; one server per directory: a server holds an advisory lock on \
            `passkeyd.lock` in it (with its PID) while it runs, and a second one refuses to start, naming the \
            directory and that PID
            """)

    static let root = [logLevel.descriptor, issuer.descriptor]

    /// `listen`: where the public HTTP listener binds.
    package enum Listen {
        package static let host = TextSetting(
            "listen.host", default: "127.0.0.1", allowsEmpty: false, flag: "--host", doc: "address to bind")
        package static let port = IntegerSetting(
            "listen.port", default: 8080, range: 0...65_535, flag: "--port",
            doc: """
                TCP port; `0` picks a free one. A loopback `issuer` on the file's own port (`http://localhost:8080/` \
                in `Config/passkeyd.json`) follows a port given by `--port` or this variable, and so do the \
                `web_origins` equal to its origin, unless `PASSKEYD_ISSUER` is set; an issuer that names another \
                port than this one (or a loopback issuer on another port) draws a warning at start and in \
                `check-config`
                """)
        static let all = [host.descriptor, port.descriptor]
    }

    /// `admin`: the admin listener.
    package enum Admin {
        package static let listen = TextSetting(
            "admin.listen", default: "127.0.0.1:9090",
            doc: """
                `HOST:PORT` (`[::1]:9090` for IPv6) of the admin listener, plain HTTP: `/metrics`, `/healthz`, \
                `/readyz`, `/audit/…`; empty turns it off. Keep it on a private address
                """)
        static let all = [listen.descriptor]
    }

    /// `relying_party`: the WebAuthn relying party.
    package enum RelyingParty {
        package static let id = TextSetting(
            "relying_party.id", default: nil, doc: "the RP ID: a domain, no scheme or port")
        package static let name = TextSetting("relying_party.name", default: nil, doc: "shown by authenticators")
        static let all = [id.descriptor, name.descriptor]
    }

    /// `database`.
    package enum Database {
        package static let url = TextSetting(
            "database.url", default: "sqlite:passkeyd.sqlite",
            doc: """
                `sqlite:FILE`, relative to the data directory unless absolute; or PostgreSQL: \
                `postgres://user[:password]@host[:port][,host2[:port2]…]/db[?sslmode=…&connect_timeout=…\
                &application_name=…&pool_size=…&schema=…&target_session_attrs=…&options=…]` (`postgresql://` too), \
                or libpq `key=value` pairs (`host`, `port`, `user`, `password`, `dbname`, `sslmode`, \
                `connect_timeout`, `application_name`, `target_session_attrs`, `options`; `host=h1,h2 \
                port=5432,5433`, or one `port` for every host), both read by libpq's parser (a host without a port is \
                on 5432, IPv6 in brackets, so the URI `pg_autoctl show uri` prints works as is); parts left out come \
                from `PGHOST`, `PGPORT`, \
                `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`, `PGCONNECT_TIMEOUT`, `PGAPPNAME`, \
                `PGTARGETSESSIONATTRS`, `PGOPTIONS`, a missing password from `~/.pgpass`. `sslmode` defaults to \
                `verify-full` and `target_session_attrs` to `read-write` (a standby is refused at connect, the next \
                host tried); `schema` (a plain lower-case name) puts passkeyd's tables in that schema, created at \
                start; `options` gives each session server settings in libpq's form (`-c statement_timeout=5s -c \
                lock_timeout=2s`, percent-encoded in a URL), which the server checks at start (an unknown one stops \
                the start, named), and may not set `search_path` when `schema` is given. See \
                [docs/deployment.md](docs/deployment.md)
                """)
        package static let synchronous = ChoiceSetting<ServerConfiguration.Synchronous>(
            "database.synchronous", default: .full, doc: "SQLite only: `full` or `normal`, see below")
        package static let poolSize = IntegerSetting(
            "database.pool_size", default: 0, range: 0...256,
            doc: "PostgreSQL connections per node; `0` takes the URL's `pool_size`, else 2 × the processor count")
        static let all = [url.descriptor, synchronous.descriptor, poolSize.descriptor]
    }

    /// `openapi`.
    package enum OpenAPI {
        package static let listener = ChoiceSetting<WebConfiguration.OpenAPIListener>(
            "openapi.listener", default: .admin,
            doc: """
                where `GET /openapi.json` is served: `admin` (the admin listener; nowhere when `admin.listen` is \
                empty), `public` (the public port), `off`
                """)
        static let all = [listener.descriptor]
    }

    /// `web`: the demo web app.
    package enum Web {
        package static let demo = BooleanSetting(
            "web.demo", default: false,
            doc: """
                serve the demo web app at `/demo/` and accept the server's own origin (the issuer's) as a web origin; \
                the issuer's host must be the RP ID or a subdomain
                """)
        package static let demoClientID = TextSetting(
            "web.demo_client_id", default: "", note: "(the first client with the webauthn grant)",
            doc: "the client the demo page signs in with")
        static let all = [demo.descriptor, demoClientID.descriptor]
    }

    /// `rate_limit`.
    package enum RateLimit {
        package static let requestsPerMinute = IntegerSetting(
            "rate_limit.requests_per_minute", default: 600, range: 0...1_000_000,
            doc: """
                per client network (IPv4 /24, IPv6 /64) on the passkey, token and device-key endpoints and \
                `/device-events`; `0` disables
                """)
        package static let requestsPerUserPerMinute = IntegerSetting(
            "rate_limit.requests_per_user_per_minute", default: 120, range: 0...1_000_000,
            doc: """
                per user (the access token's `sub`), from any address, on the device-key endpoints and \
                `/device-events` (per node); `0` disables
                """)
        static let all = [requestsPerMinute.descriptor, requestsPerUserPerMinute.descriptor]
    }
}
