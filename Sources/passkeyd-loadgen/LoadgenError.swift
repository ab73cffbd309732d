/// The load generator's error: a transport failure, an unexpected status, or bad arguments.
struct LoadgenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable identifier of what went wrong.
    struct Code: RawRepresentable, Hashable, Sendable {
        let rawValue: String
        init(rawValue: String) { self.rawValue = rawValue }

        /// Connecting, writing or reading the socket failed.
        static let transport = Code(rawValue: "transport")
        /// The response was not HTTP/1.1 with Content-Length framing.
        static let malformedResponse = Code(rawValue: "malformed_response")
        /// The server answered with a status other than 200.
        static let unexpectedStatus = Code(rawValue: "unexpected_status")
        /// The command line could not be understood.
        static let usage = Code(rawValue: "usage")
        /// The credentials file could not be read or written.
        static let credentials = Code(rawValue: "credentials")
    }

    let code: Code
    let reason: String
    let file: String
    let line: Int

    init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    var description: String { "\(code.rawValue): \(reason)" }

    static func == (lhs: LoadgenError, rhs: LoadgenError) -> Bool { lhs.code == rhs.code }
}
