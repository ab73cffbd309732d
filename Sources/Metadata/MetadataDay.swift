import Foundation

/// MDS3 dates (`nextUpdate`, `effectiveDate`, `timeOfLastStatusChange`): ISO 8601 calendar dates `YYYY-MM-DD`
/// (FIDO Metadata Service v3.0 §3.1.1, §3.1.3), each read as a UTC day, i.e. midnight UTC at its start.
/// Arithmetic on the proleptic Gregorian calendar (days from 1970-01-01), no `Calendar` on the parse path.
package enum MetadataDay {
    private static let secondsPerDay: Double = 86_400

    /// Midnight UTC of the day `text` names.
    /// - Throws: `.malformed` for any other shape (a time, a zone, a sign, 2024-02-30…), naming `field`.
    package static func parse(_ text: String, field: String) throws(MetadataError) -> Date {
        let bytes = Array(text.utf8)
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || isDigit($0.element) })
        else {
            throw MetadataError(.malformed, "\(field) \"\(text.prefix(40))\" is not a YYYY-MM-DD date")
        }
        let number = { (range: Range<Int>) in
            bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else {
            throw MetadataError(.malformed, "\(field) \"\(text)\" is not a calendar date")
        }
        return Date(timeIntervalSince1970: Double(daysFromEpoch(year: year, month: month, day: day)) * secondsPerDay)
    }

    /// Midnight UTC at the start of the day `date` falls on.
    package static func startOfDay(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / secondsPerDay).rounded(.down) * secondsPerDay)
    }

    /// `YYYY-MM-DD` of the UTC day `date` falls on.
    package static func format(_ date: Date) -> String {
        // Far beyond any date an MDS field or a clock gives; keeps the arithmetic (and Int conversion) in range.
        let seconds = min(max(date.timeIntervalSince1970, -1e13), 1e13)
        let days = Int(((seconds.isFinite ? seconds : 0) / secondsPerDay).rounded(.down))
        // The inverse of `daysFromEpoch` (eras of 400 years, March-based years).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let pad = { (value: Int, width: Int) in
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Days from 1970-01-01 to the given day (negative before it).
    private static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
