/// Why a command line could not be understood: one line naming the flag, word or command at fault, and the usage
/// lines of the command (or family of commands) it was meant for, from the registry. `passkeyd` prints it on
/// standard error and exits 2.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. "--port must be a number from 0 to 65535".
    package let message: String
    /// The synopses of the command meant (`Command.synopsis`); empty when none applies.
    package var usage: [String]

    package init(_ message: String, usage: [String] = []) {
        self.message = message
        self.usage = usage
    }

    package var description: String {
        switch usage.count {
        case 0: message
        case 1: "\(message)\nusage: \(usage.joined())"
        default: "\(message)\nusage:\n" + usage.map { "  \($0)" }.joined(separator: "\n")
        }
    }
}
