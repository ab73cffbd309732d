/// The coding key of an array element (`"Index 3"`, as `JSONDecoder` names it) or of `super`.
struct JSONIndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        self.init(index: intValue)
    }

    /// The key `superDecoder()` decodes under.
    static let superKey = JSONIndexKey(stringValue: "super")
}
