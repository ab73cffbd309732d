/// How a request's body is delimited, decided from its request line and header fields before any of the body is
/// read (RFC 9112 §6.3), or the refusal when that cannot be decided unambiguously.
///
/// libmicrohttpd 0.9.x parses the message, but lets through what RFC 9112 asks a server to refuse: it reads a
/// chunked body when `Content-Length` is present too, takes the first of differing `Content-Length` values,
/// accepts an HTTP/1.1 request with no `Host` or two, keeps `Name :` as a field called "Name ", keeps a bare CR inside
/// a field value, and waits for the end of a body framed by a coding it does not know. A proxy in front may frame the same bytes differently
/// (request smuggling), so each of these is refused here, from the fields MHD hands the access handler.
enum RequestFraming: Equatable {
    /// No body, or a body of exactly this many bytes (`Content-Length`).
    case length(Int)
    /// A chunked body (RFC 9112 §7.1).
    case chunked

    /// The framing of a request with `method`, `version` (as sent: `HTTP/1.1`) and `headers`.
    /// - Throws: `.methodNotImplemented` or `.transferCodingNotImplemented` (501), or `.malformedFraming` (400).
    init(method: HTTPMethod, version: String, headers: HTTPHeaders) throws(HTTPError) {
        guard HTTPMethod.implemented.contains(method) else {
            throw HTTPError(.methodNotImplemented, "method outside the implemented set")
        }
        var hosts = 0
        for field in headers {
            // RFC 9112 §5.1: no whitespace is allowed between the field name and the colon; RFC 9110 §5.1: a field
            // name is a token. MHD keeps such whitespace in the name, so any non-token byte shows it.
            guard Self.isToken(field.name) else {
                throw HTTPError(.malformedFraming, "a field name is not a token (whitespace before the colon?)")
            }
            // RFC 9110 §5.5: CR, LF and NUL are invalid in a field value; a recipient must refuse or replace them (MHD
            // ends lines at CRLF or LF only, so a bare CR reaches here inside a value).
            guard !field.value.utf8.contains(where: Self.isForbiddenInValue) else {
                throw HTTPError(.malformedFraming, "a field value holds CR, LF or NUL")
            }
            if HTTPHeaders.namesMatch(field.name, "Host") { hosts += 1 }
        }
        // RFC 9112 §3.2: 400 for an HTTP/1.1 request without Host, and for any request with more than one.
        guard hosts <= 1, hosts == 1 || version != "HTTP/1.1" else {
            throw HTTPError(.malformedFraming, "\(hosts) Host fields")
        }
        let codings = Self.listElements(headers.values(for: "Transfer-Encoding"))
        let lengths = Set(Self.listElements(headers.values(for: "Content-Length")))
        if headers.contains("Transfer-Encoding") {
            // RFC 9112 §6.1: Transfer-Encoding in an HTTP/1.0 message means faulty framing.
            guard version == "HTTP/1.1" else {
                throw HTTPError(.malformedFraming, "Transfer-Encoding in a \(version) request")
            }
            // RFC 9112 §6.1: a request with both may be refused, and the connection must be closed either way.
            guard lengths.isEmpty else {
                throw HTTPError(.malformedFraming, "Content-Length together with Transfer-Encoding")
            }
            // RFC 9112 §6.1: a transfer coding the server does not understand gets 501 (codings are case-insensitive).
            guard codings.allSatisfy({ $0 == "chunked" }) else {
                throw HTTPError(.transferCodingNotImplemented, "a transfer coding other than chunked")
            }
            // RFC 9112 §6.1: chunked exactly once, and last.
            guard codings.count == 1 else {
                throw HTTPError(.malformedFraming, "Transfer-Encoding lists chunked \(codings.count) times")
            }
            self = .chunked
            return
        }
        // RFC 9112 §6.3 item 5: differing Content-Length values make the length unrecoverable (identical ones are
        // one length). MHD itself answers 400 for a value that is not a decimal number.
        guard lengths.count <= 1 else {
            throw HTTPError(.malformedFraming, "differing Content-Length values")
        }
        guard let text = lengths.first else {
            self = .length(0)
            return
        }
        guard let length = Int(text), length >= 0 else {
            throw HTTPError(.malformedFraming, "Content-Length is not a number")
        }
        self = .length(length)
    }

    /// The elements of comma-separated list fields (RFC 9110 §5.6.1), trimmed, lower-cased, empty ones dropped.
    private static func listElements(_ values: [String]) -> [String] {
        values.flatMap { value in
            value.split(separator: ",").map { $0.trimmingASCIIWhitespace().lowercased() }.filter { !$0.isEmpty }
        }
    }

    /// RFC 9110 §5.5: the bytes a field value must never hold.
    private static func isForbiddenInValue(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") || byte == 0
    }

    /// RFC 9110 §5.6.2: `token = 1*tchar`.
    private static func isToken(_ text: String) -> Bool {
        !text.utf8.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
    }

    /// RFC 9110 §5.6.2: `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" /
    /// "~" / DIGIT / ALPHA`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return tokenSymbols.contains(byte)
        }
    }

    /// The symbols among `tchar`.
    private static let tokenSymbols: [UInt8] = Array("!#$%&'*+-.^_`|~".utf8)
}
