import Foundation
import JSON

/// RFC 3339 date-times (UTC, `Z`), as every answer and the admin commands write them: one home for the format.
package enum RFC3339 {
    /// `date` as an RFC 3339 UTC date-time, a JSON string.
    package static func timestamp(_ date: Date) -> JSONValue {
        .string(date.formatted(Date.ISO8601FormatStyle()))
    }

    /// `date` as an RFC 3339 UTC date-time with milliseconds (`2026-12-02T04:05:06.789Z`), a JSON string: the form
    /// Auth0's My Account API answers in, which Auth0.swift's decoder requires.
    package static func timestampWithMilliseconds(_ date: Date) -> JSONValue {
        .string(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    /// Reads an RFC 3339 date-time, with or without fractional seconds; `nil` otherwise.
    package static func date(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}
