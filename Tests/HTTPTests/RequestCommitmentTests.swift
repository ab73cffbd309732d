import Testing

@testable import HTTP

@Suite("RequestCommitment: open moves once, to committed or to expired")
struct RequestCommitmentStateTests {
    @Test("a committed request cannot expire; committing again is allowed")
    func commitFirst() throws {
        let commitment = RequestCommitment()
        try commitment.commit()
        try commitment.commit()
        #expect(commitment.isCommitted)
        #expect(!commitment.expire())
        #expect(commitment.isCommitted)
    }

    @Test("an expired request withdraws its writes: commit throws request_withdrawn")
    func expireFirst() {
        let commitment = RequestCommitment()
        #expect(commitment.expire())
        #expect(commitment.expire())
        #expect(throws: HTTPError(.requestWithdrawn, "")) { try commitment.commit() }
        #expect(!commitment.isCommitted)
    }

    @Test("racing commit and expire: exactly one wins", arguments: 0..<50)
    func race(_ round: Int) async {
        let commitment = RequestCommitment()
        async let committed: Bool = { (try? commitment.commit()) != nil }()
        async let expired = commitment.expire()
        let (didCommit, didExpire) = await (committed, expired)
        #expect(didCommit != didExpire)
    }

    @Test("outside a request there is no commitment")
    func outside() {
        #expect(RequestCommitment.current == nil)
    }
}
