import Testing

@testable import HTTP

@Suite("RequestID")
struct RequestIDTests {
    @Test("sane tokens are accepted", arguments: ["a", "req-1.2_3", String(repeating: "x", count: 128)])
    func accepts(candidate: String) {
        #expect(RequestID.isAcceptable(candidate))
        #expect(RequestID.accepting(candidate) == candidate)
    }

    @Test(
        "empty, long or unsafe ids are refused",
        arguments: [
            "", String(repeating: "x", count: 129), "a b", "a\nb", "a;b", "é", "a/b",
        ])
    func refuses(candidate: String) {
        #expect(!RequestID.isAcceptable(candidate))
        #expect(RequestID.accepting(candidate) != candidate)
    }

    @Test("generated ids are 32 lower-case hex digits and differ")
    func generates() {
        let first = RequestID.generate()
        #expect(first.utf8.count == 32)
        #expect(first.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(first != RequestID.generate())
    }

    @Test("a thousand generated ids are all distinct, well-formed ids")
    func generatesDistinct() {
        let ids = (0..<1000).map { _ in RequestID.generate() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy(RequestID.isAcceptable))
    }
}
