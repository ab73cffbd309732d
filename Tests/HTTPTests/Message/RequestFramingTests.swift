import Testing

@testable import HTTP

@Suite("RequestFraming")
struct RequestFramingTests {
    func framing(_ fields: [(String, String)], method: HTTPMethod = .post, version: String = "HTTP/1.1")
        throws(HTTPError) -> RequestFraming
    {
        try RequestFraming(method: method, version: version, headers: HTTPHeaders(fields))
    }

    @Test("a length, a chunked body, or no body")
    func accepted() throws {
        #expect(try framing([("Host", "x"), ("Content-Length", "12")]) == .length(12))
        #expect(try framing([("Host", "x"), ("Content-Length", "3"), ("content-length", "3")]) == .length(3))
        #expect(try framing([("Host", "x"), ("Transfer-Encoding", " Chunked ")]) == .chunked)
        #expect(try framing([("Host", "x")], method: .get) == .length(0))
        #expect(try framing([], method: .get, version: "HTTP/1.0") == .length(0))
    }

    @Test("each ambiguity is its own refusal")
    func refused() {
        let malformed = HTTPError(.malformedFraming, "")
        #expect(throws: malformed) {
            try framing([("Host", "x"), ("Content-Length", "3"), ("Transfer-Encoding", "chunked")])
        }
        #expect(throws: malformed) { try framing([("Host", "x"), ("Content-Length", "3"), ("Content-Length", "4")]) }
        #expect(throws: malformed) { try framing([], method: .get) }
        #expect(throws: malformed) { try framing([("Host", "x"), ("host", "y")], method: .get, version: "HTTP/1.0") }
        #expect(throws: malformed) { try framing([("Host", "x"), ("X-A ", "1")], method: .get) }
        #expect(throws: malformed) { try framing([("Host", "x"), ("X\tA", "1")], method: .get) }
        for value in ["a\rb", "a\nb", "a\u{0}b", "\r"] {
            #expect(throws: malformed) { try framing([("Host", "x"), ("X-A", value)], method: .get) }
        }
        #expect(throws: malformed) {
            try framing([("Host", "x"), ("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")])
        }
        #expect(throws: malformed) { try framing([("Host", "x"), ("Transfer-Encoding", ",")]) }
        #expect(throws: malformed) { try framing([("Transfer-Encoding", "chunked")], version: "HTTP/1.0") }
        let coding = HTTPError(.transferCodingNotImplemented, "")
        #expect(throws: coding) { try framing([("Host", "x"), ("Transfer-Encoding", "gzip")]) }
        #expect(throws: coding) { try framing([("Host", "x"), ("Transfer-Encoding", "gzip, chunked")]) }
        #expect(throws: coding) { try framing([("Host", "x"), ("Transfer-Encoding", "chunked;x=1")]) }
    }

    @Test("methods outside the implemented set are 501, CONNECT included; TRACE and QUERY are recognised")
    func methods() throws {
        #expect(HTTPMethod.implemented.isSuperset(of: [.trace, .query]))
        for method in ["FOO", "get", "CONNECT", "PROPFIND"] {
            #expect(throws: HTTPError(.methodNotImplemented, "")) {
                try framing([("Host", "x")], method: HTTPMethod(rawValue: method))
            }
        }
        for method in HTTPMethod.implemented {
            #expect(try framing([("Host", "x")], method: method) == .length(0))
        }
    }
}
