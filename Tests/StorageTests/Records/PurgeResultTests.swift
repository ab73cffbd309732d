import Storage
import Testing

@Suite("PurgeResult: what housekeeping reports and how it decides to go on")
struct PurgeResultTests {
    @Test("total counts every kind (a run that deleted only enrolment nonces or spent tokens is reported)")
    func total() {
        #expect(PurgeResult().total == 0)
        #expect(PurgeResult(deviceEnrolmentNonces: 3).total == 3)
        #expect(PurgeResult(spentTokens: 2).total == 2)
        let all = PurgeResult(
            authSessions: 1, deviceChallenges: 2, refreshTokens: 3, dpopProofs: 4, deviceEnrolmentNonces: 5,
            spentTokens: 6)
        #expect(all.total == 21)
        #expect(all.largest == 6)
        #expect((all + all).total == 42)
    }
}
