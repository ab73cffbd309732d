/// `passkeyd audit verify DIR`: verifies an exported audit log offline (`AuditCommands.verify`); exits 0 if it
/// verifies, 1 if not.
package struct AuditVerifyCommand: Command, Equatable {
    /// `--key KEY`: the verifier key, as text or a file holding it.
    static let key = Option<String>("--key", "KEY")
    /// `--previous CHECKPOINT`: an earlier checkpoint file the log must be consistent with.
    static let previous = Option<String>("--previous", "CHECKPOINT")
    /// The exported directory.
    static let directory = Operand("DIR")

    package static let words = ["audit", "verify"]
    package static let flags: [any Flag] = [key, previous]
    package static let operands = [directory]
    package static let summary = """
        Recompute the Merkle tree of an exported log, check the checkpoint's signature by KEY (the verifier
        key text or a file holding it; default DIR/key) and its consistency with an earlier CHECKPOINT file;
        names the first entry that differs. Exits 0 if the log verifies, 1 if not.
        """

    package var directory: String
    package var key: String?
    package var previous: String?

    package init(directory: String, key: String? = nil, previous: String? = nil) {
        self.directory = directory
        self.key = key
        self.previous = previous
    }

    package init(_ arguments: ParsedArguments) {
        self.init(
            directory: arguments.word(Self.directory), key: arguments[Self.key], previous: arguments[Self.previous])
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let (status, message) = AuditCommands.verify(directory: directory, key: key, previous: previous)
        context.output(message)
        return status
    }
}
