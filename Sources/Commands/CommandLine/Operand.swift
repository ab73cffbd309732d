/// A word a command takes that is not a flag (`USER`, `DIR`, `PATH...`). A command's operands are all required, in
/// the order declared; only the last may be repeated, and then takes every remaining word (one at least).
package struct Operand: Sendable, Equatable {
    /// Its name in the usage and in the refusal of a command line that lacks it.
    package let name: String
    /// One word or more.
    package let isRepeated: Bool

    package init(_ name: String, repeated: Bool = false) {
        self.name = name
        self.isRepeated = repeated
    }

    /// How the usage shows it: `USER`, `PATH...`.
    var usage: String { isRepeated ? "\(name)..." : name }
}
