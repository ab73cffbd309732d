/// The known name nearest to a misspelt one, so that "is not a known setting" can say what was meant
/// (`http.max_body_byte` → "did you mean http.max_body_bytes?").
package enum NearestName {
    /// "is not a known setting", and "did you mean `suggestion`?" when there is one.
    package static func unknown(suggestion: String?) -> String {
        guard let suggestion else { return "is not a known setting" }
        return "is not a known setting; did you mean \(suggestion)?"
    }

    /// The name of `known` with the fewest edits from `name` (case ignored), if it takes at most a quarter of
    /// `name`'s length in edits (and at least 2: `lisen` → `listen`, `thread` → `threads`); the first in
    /// alphabetical order on a tie.
    package static func nearest(to name: String, among known: some Sequence<String>) -> String? {
        let limit = max(2, name.count / 4)
        var best: (name: String, distance: Int)?
        for candidate in known.sorted() {
            let distance = editDistance(name.lowercased(), candidate.lowercased())
            if distance <= limit, distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and transpositions of two
    /// neighbours (`prot` → `port` is one edit) each count one.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // rows[i][j]: the distance between a's first i and b's first j characters.
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let substitution = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = min(distance, rows[i - 2][j - 2] + 1)
                }
                rows[i][j] = distance
            }
        }
        return rows[a.count][b.count]
    }
}
