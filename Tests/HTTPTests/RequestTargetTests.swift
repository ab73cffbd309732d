import Testing

@testable import HTTP

@Suite("Request targets: path and query")
struct RequestTargetTests {
    @Test("a repeated query name keeps its first value and is listed once in repeatedQueryNames")
    func repeatedNames() {
        let request = Request(method: .get, target: "/authorize?a=1&b=2&a=3&c=4&a=5&b=6")
        #expect(request.query == ["a": "1", "b": "2", "c": "4"])
        #expect(request.repeatedQueryNames == ["a", "b"])
        #expect(Request(method: .get, target: "/authorize?a=1&b=2").repeatedQueryNames.isEmpty)
    }
}
