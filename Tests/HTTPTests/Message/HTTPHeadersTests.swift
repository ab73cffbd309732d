import Testing

@testable import HTTP

@Suite("HTTPHeaders")
struct HTTPHeadersTests {
    @Test("lookup is case-insensitive and returns the first value; order and duplicates are kept")
    func lookup() {
        var headers: HTTPHeaders = ["Content-Type": "a", "Set-Cookie": "1"]
        headers.add(name: "set-cookie", value: "2")
        #expect(headers["content-type"] == "a")
        #expect(headers["SET-COOKIE"] == "1")
        #expect(headers.values(for: "Set-Cookie") == ["1", "2"])
        #expect(headers["Content-Typ"] == nil)
        #expect(headers["Content-Type-X"] == nil)
        #expect(headers.map(\.name) == ["Content-Type", "Set-Cookie", "set-cookie"])
    }

    @Test("replace keeps one field at the first position; remove drops all")
    func replaceAndRemove() {
        var headers = HTTPHeaders([("A", "1"), ("B", "2"), ("a", "3")])
        headers.replace(name: "a", value: "9")
        #expect(headers.map(\.value) == ["9", "2"])
        headers.replace(name: "C", value: "4")
        #expect(headers.count == 3)
        headers.remove(name: "b")
        #expect(!headers.contains("B"))
        #expect(headers.map(\.name) == ["a", "C"])
    }
}
