import Testing

@testable import HTTP

@Suite("Request")
struct RequestTests {
    @Test("a request-target splits into a percent-decoded path and a decoded query (first value wins)")
    func target() {
        let request = Request(
            method: .get, target: "/a%20b/c%zz?x=1+2&y=%41&x=3&flag", headers: ["X-Request-Id": "id-1"])
        #expect(request.path == "/a b/c%zz")
        #expect(request.query == ["x": "1 2", "y": "A", "flag": ""])
        #expect(request.requestID == "id-1")
    }
}
