import Foundation
import JSON

/// RFC 3339 date-times (UTC, `Z`), as every answer and the admin commands write them: one home for the format.
package enum RFC3339 {
    /// `date` as an RFC 3339 UTC date-time, a JSON string.
    package static func timestamp(_ date: Date) -> JSONValue {
        .string(date.formatted(Date.ISO8601FormatStyle()))
    }

    /// Reads an RFC 3339 date-time, with or without fractional seconds; `nil` otherwise.
    package static func date(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}
