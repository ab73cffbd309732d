import Dispatch
import Glibc
import SoftwareClient

/// `--login` with `--transport poll`: the virtual clients' keep-alive connections are multiplexed over a few
/// poll(2) loops (one thread each) instead of one blocked thread per client. Each client runs the same login as the
/// blocking client (challenge request, sign, token request), timed from sending the challenge request to the end
/// of the token response. The load generator shares the machine with the server; sixty-four threads each waking
/// for every response cost it about as much CPU as the logins' own signing and parsing.
///
/// With `--rate` the loop is open: client g of C starts its logins at start + g·T/C, + T, + 2T, … where
/// T = C / rate, and each login is timed from that scheduled instant rather than from when it could be sent, so
/// a server that falls behind is charged for the queue it caused (no coordinated omission, as in wrk2). A login
/// counts when its scheduled start is inside the measured window, however late it ends.
struct EventLoopLogin {
    let clients: VirtualClients
    let credentials: [VirtualCredential]
    /// When logins start counting, and when the last one may end (`DispatchTime` nanoseconds).
    let measureFrom: UInt64
    let deadline: UInt64
    /// When the first login may start (`DispatchTime` nanoseconds): the base of `--rate`'s schedule.
    let start: UInt64

    /// The loops: one per core the load generator may use, never more than the clients.
    static func loopCount(clients: Int) -> Int { max(1, min(clients, 2)) }

    /// Runs every loop on its own thread and returns one result per loop.
    func run() -> [LoginBenchmark.ThreadResult] {
        let count = clients.settings.concurrency
        let loops = Self.loopCount(clients: count)
        return clients.run(count: loops) { loop in
            // Loop `loop` owns clients loop, loop + loops, …; client i owns credentials i, i + count, … as in the
            // blocking mode.
            let indices = Array(stride(from: loop, to: count, by: loops))
            let owned = indices.map { index in
                var mine = stride(from: index, to: credentials.count, by: count).map { credentials[$0] }
                if mine.isEmpty { mine = [credentials[index % credentials.count]] }
                return mine
            }
            let pacing = clients.settings.rate.map { Pacing(rate: $0, clients: count, start: start) }
            return PollLoop(
                settings: clients.settings, client: clients.makeClient(), credentials: owned,
                firstStarts: indices.map { pacing?.firstStart(ofClient: $0) ?? start }, interval: pacing?.interval,
                measureFrom: measureFrom, deadline: deadline
            ).run()
        }
    }
}

/// `--rate`'s schedule: each client's first start and the interval between its starts.
struct Pacing {
    let interval: UInt64
    let clients: Int
    let start: UInt64

    init(rate: Double, clients: Int, start: UInt64) {
        self.clients = max(1, clients)
        self.start = start
        // Each of the C clients starts one login every C / rate seconds: rate logins per second in all.
        interval = max(1, UInt64((Double(self.clients) / rate * 1e9).rounded()))
    }

    /// Client `index`'s first scheduled start: the clients' starts are spread evenly over one interval.
    func firstStart(ofClient index: Int) -> UInt64 {
        start + interval * UInt64(index % clients) / UInt64(clients)
    }
}

/// One poll(2) loop and the clients it drives.
final class PollLoop {
    /// Where one client is in its login.
    enum Phase {
        /// Not connected (or the connection failed): connect and start a login on the next turn.
        case disconnected
        /// Paced (`--rate`): idle until the client's next scheduled start.
        case waiting
        /// The challenge request is out; the login began at this instant.
        case awaitingChallenge(began: UInt64)
        /// The token request is out.
        case awaitingToken(began: UInt64)
        /// The deadline passed: no more logins.
        case done
    }

    /// One virtual client: its unread bytes, its login phase and its credentials (its socket is in `descriptors`).
    struct Client {
        var pending: [UInt8] = []
        var phase = Phase.disconnected
        var credentials: [VirtualCredential]
        var next = 0
        /// Paced: when the next login is scheduled to start.
        var nextStart: UInt64
    }

    let settings: LoadgenSettings
    /// Builds the requests and signs; its own transport is not used.
    let client: PasskeyClient
    var clients: [Client]
    var result = LoginBenchmark.ThreadResult()
    /// When logins start counting, and when the last one may end.
    let measureFrom: UInt64
    let deadline: UInt64
    /// Paced: the interval between one client's scheduled starts; `nil` for the closed loop.
    let interval: UInt64?
    /// One entry per client, its socket or -1 (which poll(2) skips).
    var descriptors: [pollfd]
    var buffer = [UInt8](repeating: 0, count: 65_536)

    init(
        settings: LoadgenSettings, client: PasskeyClient, credentials: [[VirtualCredential]], firstStarts: [UInt64],
        interval: UInt64?, measureFrom: UInt64, deadline: UInt64
    ) {
        self.settings = settings
        self.measureFrom = measureFrom
        self.deadline = deadline
        self.interval = interval
        self.client = client
        self.clients = zip(credentials, firstStarts).map { Client(credentials: $0, nextStart: $1) }
        self.descriptors = Array(repeating: pollfd(fd: -1, events: Int16(POLLIN), revents: 0), count: credentials.count)
        result.latencies.reserveCapacity(Int(settings.seconds * 2000))
    }

    deinit {
        for entry in descriptors where entry.fd >= 0 { closeDescriptor(entry.fd) }
    }

    func run() -> LoginBenchmark.ThreadResult {
        for index in clients.indices { start(index, now: DispatchTime.now().uptimeNanoseconds) }
        // Logins still in flight at the deadline are let finish (they do not count), for at most a few seconds.
        let giveUp = deadline + 5_000_000_000
        while clients.contains(where: { if case .done = $0.phase { false } else { true } }) {
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= giveUp { break }
            let timeout = Self.pollTimeout(now: now, nextStart: nextScheduledStart())
            let ready = descriptors.withUnsafeMutableBufferPointer { entries in
                poll(entries.baseAddress, nfds_t(entries.count), timeout)
            }
            if ready < 0 && errno != EINTR {
                record(SoftwareClientError(.transport, "poll: errno \(errno)"))
                break
            }
            if ready > 0 {
                for index in descriptors.indices where descriptors[index].revents != 0 {
                    descriptors[index].revents = 0
                    receive(index)
                }
            }
            // Clients whose connection failed reconnect here, outside the event handling; paced clients whose
            // scheduled start has come start their next login.
            let turn = DispatchTime.now().uptimeNanoseconds
            for index in clients.indices {
                switch clients[index].phase {
                case .disconnected: start(index, now: turn)
                case .waiting where clients[index].nextStart <= turn: start(index, now: turn)
                default: break
                }
            }
        }
        return result
    }

    /// The earliest scheduled start among paced clients waiting for theirs.
    private func nextScheduledStart() -> UInt64? {
        guard interval != nil else { return nil }
        return clients.lazy.filter { if case .waiting = $0.phase { true } else { false } }.map(\.nextStart).min()
    }

    /// poll(2)'s timeout in milliseconds: 100 ms at most, and for a paced client the time to its scheduled start,
    /// rounded up. poll(2) counts whole milliseconds (ppoll(2) is not visible to Swift here): a start may be up to
    /// 1 ms late, and since the login is timed from its schedule, that lateness counts against the server.
    static func pollTimeout(now: UInt64, nextStart: UInt64?) -> Int32 {
        guard let nextStart else { return 100 }
        guard nextStart > now else { return 0 }
        return Int32(min(100, (nextStart - now + 999_999) / 1_000_000))
    }

    /// Starts the next login of client `index` (connecting first if needed), or retires it after the deadline.
    /// Paced, the login waits for its scheduled start and is timed from it.
    private func start(_ index: Int, now: UInt64) {
        var began = now
        if let interval {
            let scheduled = clients[index].nextStart
            guard scheduled < deadline else {
                clients[index].phase = .done
                return
            }
            guard now >= scheduled else {
                clients[index].phase = .waiting
                return
            }
            began = scheduled
            clients[index].nextStart = scheduled + interval
        }
        guard now < deadline else {
            clients[index].phase = .done
            return
        }
        if descriptors[index].fd < 0 {
            do {
                try connect(index)
            } catch {
                fail(index, error, began: began)
                clients[index].phase = .done  // the server is unreachable: retrying in a loop would only spin
                return
            }
        }
        clients[index].phase = .awaitingChallenge(began: began)
        send(
            HTTP1Framing.post(
                "/passkey/challenge", host: settings.host, port: settings.port,
                body: client.challengeRequest), to: index)
    }

    private func connect(_ index: Int) throws(SoftwareClientError) {
        let descriptor = try SocketConnection.connectedSocket(host: settings.host, port: settings.port)
        descriptors[index].fd = descriptor
        clients[index].pending.removeAll(keepingCapacity: true)
        result.connects += 1
    }

    private func send(_ request: [UInt8], to index: Int) {
        guard SocketConnection.sendAll(request, to: descriptors[index].fd) else {
            let code = errno
            let began = inFlightSince(index)
            disconnect(index)
            fail(index, SoftwareClientError(.transport, "send: errno \(code)"), began: began)
            return
        }
    }

    /// Reads what the socket of client `index` holds and acts on every complete response in it.
    private func receive(_ index: Int) {
        guard descriptors.indices.contains(index), descriptors[index].fd >= 0 else { return }
        while true {
            let count = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return recv(descriptors[index].fd, base, raw.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                clients[index].pending.append(contentsOf: buffer[0..<count])
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            // End of stream or a socket error: whatever login was in flight failed.
            let began = inFlightSince(index)
            disconnect(index)
            fail(index, SoftwareClientError(.transport, "connection closed by the server"), began: began)
            return
        }
        do {
            while let response = try HTTP1Framing.response(in: clients[index].pending) {
                clients[index].pending.removeFirst(response.length)
                try handle(response, of: index)
                if response.closes {
                    disconnect(index)
                    return
                }
            }
        } catch let error as SoftwareClientError where error.code == .unexpectedStatus {
            // An HTTP-level refusal: the connection is fine and the response was read whole; start over on it.
            fail(index, error, began: inFlightSince(index))
        } catch {
            let began = inFlightSince(index)
            disconnect(index)
            fail(index, error, began: began)
        }
    }

    /// Moves client `index`'s login on with `response`.
    private func handle(_ response: HTTP1Framing.Response, of index: Int) throws {
        switch clients[index].phase {
        case .awaitingChallenge(let began):
            let answer = try client.expectOK((response.status, response.body), "/passkey/challenge")
            let workStarted = DispatchTime.now().uptimeNanoseconds
            var credential = clients[index].credentials[clients[index].next]
            let body = try client.tokenRequest(answering: answer, with: &credential)
            clients[index].credentials[clients[index].next] = credential
            result.clientWorkNanoseconds += DispatchTime.now().uptimeNanoseconds - workStarted
            clients[index].phase = .awaitingToken(began: began)
            send(HTTP1Framing.post("/oauth/token", host: settings.host, port: settings.port, body: body), to: index)
        case .awaitingToken(let began):
            _ = try client.expectOK((response.status, response.body), "/oauth/token")
            let ended = DispatchTime.now().uptimeNanoseconds
            if counts(began: began, ended: ended) {
                result.successes += 1
                result.latencies.append(UInt32(min((ended - began) / 1000, UInt64(UInt32.max))))
            }
            if ended >= measureFrom && ended <= deadline { result.completedInWindow += 1 }
            clients[index].next = (clients[index].next + 1) % clients[index].credentials.count
            start(index, now: ended)
        case .disconnected, .waiting, .done:
            throw SoftwareClientError(.malformedResponse, "a response nobody asked for")
        }
    }

    /// Whether a login is in the measurement: begun in the window and, in the closed loop, ended in it too (paced,
    /// its scheduled start alone decides, so the offered load is what is measured).
    private func counts(began: UInt64, ended: UInt64) -> Bool {
        began >= measureFrom && (interval == nil ? ended <= deadline : began < deadline)
    }

    /// When the login in flight on client `index` began, if one is.
    private func inFlightSince(_ index: Int) -> UInt64? {
        switch clients[index].phase {
        case .awaitingChallenge(let began), .awaitingToken(let began): began
        case .disconnected, .waiting, .done: nil
        }
    }

    /// Counts a failed login (if it began in the measured window) and lets the client start over.
    private func fail(_ index: Int, _ error: any Error, began: UInt64?) {
        if let began, began >= measureFrom { result.failures += 1 }
        record(error)
        if case .done = clients[index].phase { return }
        clients[index].next = (clients[index].next + 1) % clients[index].credentials.count
        clients[index].phase = .disconnected
    }

    private func record(_ error: any Error) {
        if result.firstErrors.count < 3 { result.firstErrors.append("\(error)") }
    }

    private func disconnect(_ index: Int) {
        guard descriptors[index].fd >= 0 else { return }
        closeDescriptor(descriptors[index].fd)
        descriptors[index].fd = -1
        clients[index].pending.removeAll(keepingCapacity: true)
        if case .done = clients[index].phase { return }
        clients[index].phase = .disconnected
    }
}
