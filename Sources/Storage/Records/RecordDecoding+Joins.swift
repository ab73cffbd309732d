import Foundation

/// Column lists for a join that reads two records in one row (a login's credential and its user): each list
/// qualified by its table's alias, and the number of columns a record takes, where the next one begins.
extension RecordDecoding {
    /// The names of a record's column list.
    package static func columnNames(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// A record's column list with every name qualified by `table` (the names repeat across joined tables).
    package static func qualified(_ list: String, _ table: String) -> String {
        columnNames(list).map { "\(table).\($0)" }.joined(separator: ", ")
    }
}
