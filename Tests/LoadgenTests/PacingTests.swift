import Testing

@testable import passkeyd_loadgen

@Suite("--rate: the open-loop schedule")
struct PacingTests {
    @Test("each of C clients starts every C / rate seconds, the clients' first starts spread over one interval")
    func schedule() {
        let pacing = Pacing(rate: 2_500, clients: 64, start: 1_000)
        #expect(pacing.interval == 25_600_000)  // 64 / 2500 s
        #expect(pacing.firstStart(ofClient: 0) == 1_000)
        #expect(pacing.firstStart(ofClient: 32) == 1_000 + 12_800_000)
        #expect(pacing.firstStart(ofClient: 63) == 1_000 + 25_600_000 * 63 / 64)
        // All clients together: one start every interval / C = 1 / rate seconds.
        let starts = (0..<64).map { pacing.firstStart(ofClient: $0) }
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $1 - $0 == 400_000 })
    }

    @Test("poll(2) waits until the next scheduled start, rounded up to a millisecond, and never past 100 ms")
    func timeout() {
        #expect(PollLoop.pollTimeout(now: 5_000_000, nextStart: nil) == 100)
        #expect(PollLoop.pollTimeout(now: 5_000_000, nextStart: 5_000_000) == 0)
        #expect(PollLoop.pollTimeout(now: 5_000_000, nextStart: 4_000_000) == 0)
        #expect(PollLoop.pollTimeout(now: 5_000_000, nextStart: 5_000_001) == 1)
        #expect(PollLoop.pollTimeout(now: 5_000_000, nextStart: 7_500_000) == 3)
        #expect(PollLoop.pollTimeout(now: 0, nextStart: 10_000_000_000) == 100)
    }

    @Test("--rate needs --login and the poll transport")
    func settings() throws {
        let paced = try LoadgenSettings.parse(["--login", "--rate", "2500"])
        #expect(paced.rate == 2_500)
        #expect(try LoadgenSettings.parse(["--login"]).rate == nil)
        #expect(throws: LoadgenError.self) { try LoadgenSettings.parse(["--signup", "5", "--rate", "10"]) }
        #expect(throws: LoadgenError.self) {
            try LoadgenSettings.parse(["--login", "--rate", "10", "--transport", "socket"])
        }
        #expect(throws: LoadgenError.self) { try LoadgenSettings.parse(["--login", "--rate", "0"]) }
    }
}
