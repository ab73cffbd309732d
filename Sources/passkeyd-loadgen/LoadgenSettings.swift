import SoftwareClient

/// What `passkeyd-loadgen` was asked to do, from its command line.
struct LoadgenSettings: Sendable {
    static let usage = """
        passkeyd-loadgen — many software authenticators driving passkeyd's Auth0-compatible passkey API

        USAGE
          passkeyd-loadgen --url http://127.0.0.1:PORT [options] MODE
        MODES (--signup and --login may be combined; signup runs first)
          --once                 sign up one user, log in once, print the login's token response JSON
          --signup N             create N users (POST /passkey/register, POST /oauth/token)
          --login                log in repeatedly (POST /passkey/challenge, sign, POST /oauth/token)
        OPTIONS
          --concurrency C        virtual clients, each with one keep-alive connection (default 16)
          --seconds S            measured duration of --login (default 10)
          --warmup S             unmeasured logins before the measurement (default 1)
          --credentials FILE     where --signup appends credentials and --login reads them
          --client-id ID         default demo-native-app
          --realm NAME           default: the server's default realm
          --origin ORIGIN        clientDataJSON origin (default https://localhost, an iOS app's origin)
          --rp-id ID             default localhost
          --scope SCOPE          default "openid profile email offline_access"
          --audience AUDIENCE    the API the tokens are for (default: none named, the server's default audience)
          --rate R               with --login and poll: offer R logins per second in all, spread evenly over
                                 the clients (open loop); each login is timed from its scheduled start, so a
                                 server that falls behind is charged for the wait (default: closed loop, each
                                 client starts its next login as soon as the last one ends)
          --transport KIND       poll (default: --login multiplexes the clients over one poll(2) loop per
                                 core; sign-ups use socket), socket (one blocking thread per client) or
                                 urlsession (Foundation's client, one thread per client)
          --server-pid PID       with --login: read this server process's CPU time and its threads' context
                                 switches (/proc) when the measured window opens and when it closes; the
                                 output adds server_window_cpu_seconds and server_window_context_switches,
                                 to divide by completed_in_window (the logins that ended in the window)
          --database-pid PID     with --login: the same for a database server's CPU time, the process and
                                 its children (PostgreSQL's postmaster); adds database_window_cpu_seconds
        OUTPUT
          one JSON line per mode on stdout; errors on stderr; exit 1 if any ceremony failed
        """

    var host = "127.0.0.1"
    var port: UInt16 = 8080
    var once = false
    var signupCount = 0
    var login = false
    var concurrency = 16
    var seconds = 10.0
    var warmup = 1.0
    var credentialsPath: String?
    var clientID = "demo-native-app"
    var realm: String?
    var origin = "https://localhost"
    var rpID = "localhost"
    var scope = "openid profile email offline_access"
    /// `audience` of the token requests (Auth0's API identifier); `nil`: none named.
    var audience: String?
    var transport = TransportKind.poll
    /// Logins per second offered by `--rate` (open loop); `nil`: closed loop.
    var rate: Double?
    /// `--server-pid`: the server process sampled at the measured window's edges; `nil`: none.
    var serverPID: Int32?
    /// `--database-pid`: the database server process (and its children) sampled likewise; `nil`: none.
    var databasePID: Int32?

    var baseURL: String { "http://\(host):\(port)" }

    /// What every virtual client sends besides the ceremonies' values.
    var clientParameters: PasskeyClient.Parameters {
        PasskeyClient.Parameters(
            clientID: clientID, realm: realm, scope: scope, audience: audience, origin: origin, rpID: rpID)
    }

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(LoadgenError) -> LoadgenSettings {
        var settings = LoadgenSettings()
        var rest = arguments[...]
        func value(_ option: String) throws(LoadgenError) -> String {
            guard let next = rest.popFirst() else { throw LoadgenError(.usage, "\(option) needs a value") }
            return next
        }
        func number(_ option: String, _ range: ClosedRange<Double>) throws(LoadgenError) -> Double {
            guard let parsed = Double(try value(option)), range.contains(parsed) else {
                throw LoadgenError(.usage, "\(option) needs a number in \(range)")
            }
            return parsed
        }
        func processID(_ option: String) throws(LoadgenError) -> Int32 {
            guard let parsed = Int32(try value(option)), parsed > 0 else {
                throw LoadgenError(.usage, "\(option) needs a process id")
            }
            return parsed
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--url":
                let url = try value(argument)
                guard url.hasPrefix("http://") else { throw LoadgenError(.usage, "--url must be http://HOST:PORT") }
                let authority = url.dropFirst("http://".count).prefix { $0 != "/" }
                let parts = authority.split(separator: ":")
                guard parts.count == 2, let port = UInt16(parts[1]) else {
                    throw LoadgenError(.usage, "--url must be http://HOST:PORT")
                }
                settings.host = String(parts[0])
                settings.port = port
            case "--once": settings.once = true
            case "--signup": settings.signupCount = Int(try number(argument, 1...1_000_000))
            case "--login": settings.login = true
            case "--concurrency": settings.concurrency = Int(try number(argument, 1...4096))
            case "--seconds": settings.seconds = try number(argument, 0.1...3600)
            case "--warmup": settings.warmup = try number(argument, 0...600)
            case "--credentials": settings.credentialsPath = try value(argument)
            case "--client-id": settings.clientID = try value(argument)
            case "--realm": settings.realm = try value(argument)
            case "--origin": settings.origin = try value(argument)
            case "--rp-id": settings.rpID = try value(argument)
            case "--scope": settings.scope = try value(argument)
            case "--audience": settings.audience = try value(argument)
            case "--rate": settings.rate = try number(argument, 1...1_000_000)
            case "--server-pid": settings.serverPID = try processID(argument)
            case "--database-pid": settings.databasePID = try processID(argument)
            case "--transport":
                let kind = try value(argument)
                guard let parsed = TransportKind(rawValue: kind) else {
                    throw LoadgenError(.usage, "--transport is poll, socket or urlsession, not \(kind)")
                }
                settings.transport = parsed
            default: throw LoadgenError(.usage, "unknown argument \(argument)")
            }
        }
        guard settings.once || settings.signupCount > 0 || settings.login else {
            throw LoadgenError(.usage, "give --once, --signup N or --login")
        }
        if settings.serverPID != nil || settings.databasePID != nil, !settings.login {
            throw LoadgenError(.usage, "--server-pid and --database-pid sample the processes of --login only")
        }
        if settings.rate != nil, !settings.login || settings.transport != .poll {
            throw LoadgenError(.usage, "--rate paces --login with --transport poll only")
        }
        return settings
    }
}
