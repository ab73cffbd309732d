import Foundation
import Storage
internal import CLibPQ

/// Reading a connection string into libpq keyword values. libpq's own parser (`PQconninfoParse`) reads both forms —
/// the keyword/value pairs whole, and a URL up to its query: user, password, the host list (`h1:5432,h2`,
/// `[::1]:5433`, `%2Fvar%2Frun%2Fpostgresql`), the database, percent-encoding. A URL's query is read here, because
/// libpq refuses the parameters that are passkeyd's own (`pool_size`, `schema`), and a raw `=` in a value
/// (`options=-c%20lock_timeout=2s`) that passkeyd has always accepted.
extension PostgresConfiguration {
    /// The URL query parameters: the libpq keywords passkeyd takes, and passkeyd's own.
    static let knownParameters: Set<String> = keywordForms.union(["pool_size", "schema"])

    /// The keyword values `connectionString` gives (a URL's query parameters included), nothing defaulted.
    /// - Throws: `.invalidConfiguration` naming the problem (never echoing the password).
    static func keywordValues(_ connectionString: String) throws(StorageError) -> [String: String] {
        guard let schemeEnd = connectionString.range(of: "://"),
            connectionString[..<schemeEnd.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else {
            return try keywordPairs(connectionString)
        }
        let scheme = connectionString[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw StorageError(.invalidConfiguration, "database URL scheme must be postgres:// or postgresql://")
        }
        // libpq takes the scheme in lower case only.
        return try urlValues(scheme + connectionString[schemeEnd.lowerBound...])
    }

    /// The keyword/value form, parsed by libpq (quoting and escapes as libpq defines them).
    private static func keywordPairs(_ text: String) throws(StorageError) -> [String: String] {
        switch libpqOptions(text) {
        case .success(let given):
            return try supported(given)
        case .failure(let refusal):
            throw StorageError(
                .invalidConfiguration,
                "database connection string is not a URL nor libpq keyword=value pairs: " + refusal.reason)
        }
    }

    /// A `postgres://` or `postgresql://` URL: libpq parses it up to the query, the query is read here.
    private static func urlValues(_ url: String) throws(StorageError) -> [String: String] {
        guard !url.contains("#") else {
            throw StorageError(.invalidConfiguration, "database URL has a fragment")
        }
        guard
            !url.unicodeScalars.contains(where: {
                $0.properties.isWhitespace || $0.properties.generalCategory == .control
            })
        else {
            throw StorageError(
                .invalidConfiguration, "database URL has a space or a control character (percent-encode it: %20)")
        }
        guard let rest = url.range(of: "://").map({ url[$0.upperBound...] }) else {
            throw StorageError(.invalidConfiguration, "database URL is not a URL")
        }
        // As libpq reads it: the user info is what precedes the first "@" met before any "/" (a password may hold
        // a raw "?"), the query what follows the first "?" after it.
        var hostStart = rest.startIndex
        if let stop = rest.firstIndex(where: { $0 == "@" || $0 == "/" }), rest[stop] == "@" {
            hostStart = rest.index(after: stop)
        }
        let queryMark = rest[hostStart...].firstIndex(of: "?")
        let base = url[..<(queryMark ?? url.endIndex)]
        var given: [String: String]
        switch libpqOptions(String(base)) {
        case .success(let values):
            given = values
        case .failure(let refusal):
            throw StorageError(.invalidConfiguration, urlRefusal(base, userInfoEnd: hostStart, refusal: refusal))
        }
        if let queryMark {
            for (name, value) in try queryParameters(url[url.index(after: queryMark)...]) { given[name] = value }
        }
        return try supported(given)
    }

    /// Why libpq refused `base`, without its password: libpq's messages quote what they could not read, the whole
    /// URL or the whole password. The URL is parsed again with the password replaced; if that passes, the password
    /// was at fault.
    private static func urlRefusal(_ base: Substring, userInfoEnd: String.Index, refusal: LibPQRefusal) -> String {
        let userInfo = base[..<userInfoEnd]
        guard let afterScheme = userInfo.range(of: "://")?.upperBound,
            let colon = userInfo[afterScheme...].firstIndex(of: ":")
        else {
            return "database URL is not one libpq accepts: " + refusal.reason
        }
        let redacted = String(base[...colon]) + "***@" + base[userInfoEnd...]
        guard case .failure(let redactedRefusal) = libpqOptions(redacted) else {
            return "database URL's password is not valid percent-encoding"
        }
        return "database URL is not one libpq accepts: " + redactedRefusal.reason
    }

    /// A URL's query parameters, percent-decoded: names from `knownParameters`, each at most once, no NUL.
    private static func queryParameters(_ query: Substring) throws(StorageError) -> [(String, String)] {
        guard !query.isEmpty else { return [] }
        var parameters: [(String, String)] = []
        var seen: Set<String> = []
        for item in query.split(separator: "&", omittingEmptySubsequences: false) {
            let separator = item.firstIndex(of: "=")
            let rawName = item[..<(separator ?? item.endIndex)]
            guard let name = rawName.removingPercentEncoding else {
                throw StorageError(
                    .invalidConfiguration, "database URL parameter \"\(rawName)\" is not percent-encoded")
            }
            guard knownParameters.contains(name) else {
                throw StorageError(.invalidConfiguration, "unknown database URL parameter \"\(name)\"")
            }
            guard seen.insert(name).inserted else {
                throw StorageError(.invalidConfiguration, "database URL parameter \"\(name)\" is repeated")
            }
            let rawValue = separator.map { item[item.index(after: $0)...] } ?? ""
            guard let value = rawValue.removingPercentEncoding, !value.contains("\0") else {
                throw StorageError(
                    .invalidConfiguration,
                    "database URL parameter \"\(name)\" is not valid percent-encoding, or has %00")
            }
            parameters.append((name, value))
        }
        return parameters
    }

    /// `given`, if every keyword in it is one passkeyd takes.
    private static func supported(_ given: [String: String]) throws(StorageError) -> [String: String] {
        if let name = given.keys.sorted().first(where: { !knownParameters.contains($0) }) {
            throw StorageError(
                .invalidConfiguration, "database connection keyword \"\(name)\" is not supported by passkeyd")
        }
        return given
    }

    /// What libpq could not parse, in its words.
    private struct LibPQRefusal: Error {
        let reason: String
    }

    /// The keyword values libpq's `PQconninfoParse` reads from `text` (a URL or keyword/value pairs); only what
    /// `text` gives, no defaults.
    private static func libpqOptions(_ text: String) -> Result<[String: String], LibPQRefusal> {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &errorMessage) else {
            let reason = errorMessage.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
            PQfreemem(errorMessage)
            return .failure(LibPQRefusal(reason: reason ?? "unparsable"))
        }
        defer { PQconninfoFree(options) }
        var given: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { given[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return .success(given)
    }
}
