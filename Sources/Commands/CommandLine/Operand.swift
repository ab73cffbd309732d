/// A word a command takes that is not a flag (`USER`, `DIR`, `PATH...`). A command's operands are all required, in
/// the order declared, but an optional last one; only the last may be repeated, and then takes every remaining word
/// (one at least).
package struct Operand: Sendable, Equatable {
    /// Its name in the usage and in the refusal of a command line that lacks it.
    package let name: String
    /// One word or more.
    package let isRepeated: Bool
    /// May be left out (the command says when it is needed).
    package let isOptional: Bool

    package init(_ name: String, repeated: Bool = false, optional: Bool = false) {
        self.name = name
        self.isRepeated = repeated
        self.isOptional = optional
    }

    /// How the usage shows it: `USER`, `PATH...`, `[USER]`.
    var usage: String {
        let word = isRepeated ? "\(name)..." : name
        return isOptional ? "[\(word)]" : word
    }
}
