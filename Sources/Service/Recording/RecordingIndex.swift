/// The recordings in the recording directory, oldest first, and the sum of their sizes: what `CeremonyRecorder`
/// deletes to keep the directory under `recording.max_bytes` (docs/recording.md).
///
/// Only names the recorder writes are indexed (`CeremonyRecorder.fileName`, `.json`); any other file in the
/// directory is neither counted nor ever deleted. The order is the names' (time, then sequence number), the order
/// the ceremonies were judged in, whatever order the files were written or found in.
///
/// Compact on purpose: a gibibyte of recordings is about a million files, so each is held as three integers and the
/// index of its `<ceremony>-<outcome>` suffix (a few dozen distinct ones) rather than as its name.
package struct RecordingIndex: Sendable {
    /// One recording: the digits of its time stamp, its sequence number, its suffix, its size in bytes.
    private struct Entry: Sendable {
        var stamp: Int64
        var sequence: Int
        var suffix: Int32
        var bytes: Int

        func precedes(_ other: Entry) -> Bool { (stamp, sequence) < (other.stamp, other.sequence) }
    }

    /// What a recording's name says: `<stamp>-<sequence>-<suffix>.json`.
    package struct Name: Sendable, Equatable {
        /// The 17 digits of `yyyyMMddTHHmmss.SSSZ`, in order, as one number (so it orders as the time does).
        package var stamp: Int64
        package var sequence: Int
        /// `<ceremony>-ok` or `<ceremony>-refused-<code>`.
        package var suffix: String
    }

    /// Entries, sorted; those before `head` are already removed (kept until compaction so that removing the oldest
    /// is O(1)).
    private var entries: [Entry] = []
    private var head = 0
    private var suffixes: [String] = []
    private var suffixNumbers: [String: Int32] = [:]
    /// The sum of the indexed recordings' sizes.
    private(set) var totalBytes = 0

    /// How many recordings are indexed.
    package var count: Int { entries.count - head }

    /// An empty index.
    package init() {}

    /// The index of `files` (names in the directory and their sizes, in any order): sorted once, not file by file.
    /// Names the recorder does not write are left out.
    package init(_ files: [(fileName: String, bytes: Int)]) {
        for file in files {
            guard let name = Self.parse(file.fileName) else { continue }
            entries.append(
                Entry(stamp: name.stamp, sequence: name.sequence, suffix: number(of: name.suffix), bytes: file.bytes))
            totalBytes += file.bytes
        }
        entries.sort { $0.precedes($1) }
    }

    /// The number of `suffix` in `suffixes`, added when new.
    private mutating func number(of suffix: String) -> Int32 {
        if let known = suffixNumbers[suffix] { return known }
        let number = Int32(suffixes.count)
        suffixes.append(suffix)
        suffixNumbers[suffix] = number
        return number
    }

    /// Indexes the recording `fileName` (a name in the directory, `….json`) of `bytes` bytes.
    /// - Returns: `false`, and indexes nothing, when the name is not one the recorder writes.
    @discardableResult
    package mutating func insert(_ fileName: String, bytes: Int) -> Bool {
        guard let name = Self.parse(fileName) else { return false }
        let entry = Entry(stamp: name.stamp, sequence: name.sequence, suffix: number(of: name.suffix), bytes: bytes)
        // Recordings are usually written in time order: append, else insert at the first later entry.
        if let last = entries.last, entry.precedes(last) {
            var low = head
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if !entry.precedes(entries[middle]) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            entries.insert(entry, at: low)
        } else {
            entries.append(entry)
        }
        totalBytes += bytes
        return true
    }

    /// The oldest recording's file name and size, `nil` when none is indexed.
    package var oldest: (fileName: String, bytes: Int)? {
        guard head < entries.count else { return nil }
        let entry = entries[head]
        let name = Name(stamp: entry.stamp, sequence: entry.sequence, suffix: suffixes[Int(entry.suffix)])
        return (Self.fileName(name), entry.bytes)
    }

    /// Forgets the oldest recording (after its file was deleted).
    package mutating func removeOldest() {
        guard head < entries.count else { return }
        totalBytes -= entries[head].bytes
        head += 1
        // Compact once half the array is removed entries: amortised O(1) per removal.
        if head >= 1_024 && head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    /// `20261202T041500.123Z-000042-authentication-refused-bad_signature.json` (`CeremonyRecorder.fileName` and
    /// `.json`) read back; `nil` for any other name, including a differently padded sequence number, so that the name
    /// rebuilt by `fileName(_:)` is always the file's.
    package static func parse(_ fileName: String) -> Name? {
        guard fileName.hasSuffix(".json") else { return nil }
        let bytes = Array(fileName.utf8.dropLast(".json".utf8.count))
        // stamp(20) "-" sequence(6 or more digits) "-" suffix
        guard bytes.count > 28, bytes[20] == UInt8(ascii: "-") else { return nil }
        var stamp: Int64 = 0
        for (offset, byte) in bytes[0..<20].enumerated() {
            switch offset {
            case 8: guard byte == UInt8(ascii: "T") else { return nil }
            case 15: guard byte == UInt8(ascii: ".") else { return nil }
            case 19: guard byte == UInt8(ascii: "Z") else { return nil }
            default:
                guard let digit = Self.digit(byte) else { return nil }
                stamp = stamp * 10 + Int64(digit)
            }
        }
        guard let dash = bytes[21...].firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let digits = bytes[21..<dash]
        // At most 18 digits: no overflow. Six or more, and no leading zero beyond the padding to six.
        guard digits.count >= 6, digits.count <= 18, digits.count == 6 || digits.first != UInt8(ascii: "0") else {
            return nil
        }
        var sequence = 0
        for byte in digits {
            guard let digit = Self.digit(byte) else { return nil }
            sequence = sequence * 10 + digit
        }
        let suffix = String(decoding: bytes[(dash + 1)...], as: UTF8.self)
        guard Self.isSuffix(suffix) else { return nil }
        return Name(stamp: stamp, sequence: sequence, suffix: suffix)
    }

    /// The file name of `name` (the inverse of `parse`).
    package static func fileName(_ name: Name) -> String {
        let digits = String(name.stamp)
        let padded = Array(String(repeating: "0", count: max(0, 17 - digits.count)) + digits)
        let stamp = String(padded[0..<8]) + "T" + String(padded[8..<14]) + "." + String(padded[14..<17]) + "Z"
        let number = String(name.sequence)
        let sequence = String(repeating: "0", count: max(0, 6 - number.count)) + number
        return "\(stamp)-\(sequence)-\(name.suffix).json"
    }

    /// `registration-` or `authentication-`, then `ok` or `refused-` and a code of lower-case letters, digits and
    /// underscores.
    private static func isSuffix(_ suffix: String) -> Bool {
        let outcome: Substring
        if suffix.hasPrefix("registration-") {
            outcome = suffix.dropFirst("registration-".count)
        } else if suffix.hasPrefix("authentication-") {
            outcome = suffix.dropFirst("authentication-".count)
        } else {
            return false
        }
        if outcome == "ok" { return true }
        guard outcome.hasPrefix("refused-") else { return false }
        let code = outcome.dropFirst("refused-".count).utf8
        return !code.isEmpty
            && code.allSatisfy { Self.digit($0) != nil || $0 == UInt8(ascii: "_") || (0x61...0x7A).contains($0) }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
    }
}
