import Foundation

/// The form in which `htu` and the request's URI are compared (RFC 9449 §4.3 check 9: query and fragment
/// ignored; "servers SHOULD employ syntax-based normalization (RFC 3986 §6.2.2) and scheme-based normalization
/// (RFC 3986 §6.2.3) before comparing").
enum DPoPTargetURI {
    /// RFC 3986 §2.3 unreserved characters: percent-encodings of these are decoded (§6.2.2.2).
    private static let unreserved = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    /// RFC 3986 §6.2.3: the default port of each scheme DPoP is used with.
    private static let defaultPorts = ["http": 80, "https": 443]

    /// `scheme://host[:port]/path` normalised, or `nil` for anything but an absolute http(s) URI with a host and
    /// no user information.
    static func normalized(_ text: String) -> String? {
        // URLComponents parses per RFC 3986; it is lenient, so what it accepts is checked below.
        guard let components = URLComponents(string: text), let rawScheme = components.scheme,
            let rawHost = components.percentEncodedHost, !rawHost.isEmpty, components.percentEncodedUser == nil,
            components.percentEncodedPassword == nil
        else { return nil }
        // §6.2.2.1: scheme and host are case-insensitive.
        let scheme = rawScheme.lowercased()
        guard let defaultPort = defaultPorts[scheme] else { return nil }
        let host = rawHost.lowercased()
        var authority = host
        // §6.2.3: a port equal to the scheme's default is left out.
        if let port = components.port, port != defaultPort { authority += ":\(port)" }
        guard let encodedPath = normalizedPercentEncoding(components.percentEncodedPath) else { return nil }
        // §6.2.3: an empty path is "/"; §6.2.2.3: dot segments removed.
        let path = encodedPath.isEmpty ? "/" : removingDotSegments(encodedPath)
        return "\(scheme)://\(authority)\(path)"
    }

    /// RFC 3986 §6.2.2.1–2: hex digits of percent-encodings upper-cased, encodings of unreserved characters
    /// decoded; `nil` for a `%` not followed by two hex digits.
    static func normalizedPercentEncoding(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                output.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else { return nil }
            let byte = high << 4 | low
            if unreserved.contains(byte) {
                output.append(byte)
            } else {
                output.append(contentsOf: String(format: "%%%02X", byte).utf8)
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// RFC 3986 §5.2.4 remove_dot_segments, over the segments of an absolute path.
    static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }
}
