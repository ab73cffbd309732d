import Testing

@testable import Commands

@Suite("The command-line parser")
struct ParsedArgumentsTests {
    static let verbose = Switch("--verbose")
    static let port = Option<Int>("--port", "N", range: 0...65535)
    static let name = Option<String>("--name", "NAME")
    static let out = Option<String>.nonEmpty("--out", "FILE", required: true)
    static let word = Operand("WORD")
    static let more = Operand("MORE", repeated: true)

    static func parse(_ arguments: [String], operands: [Operand] = []) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, command: "test run", flags: [verbose, port, name, out], operands: operands)
    }

    @Test("flags and operands come in any order, and an option's value is the next argument, whatever it is")
    func order() throws {
        let parsed = try Self.parse(
            ["w", "--out", "f", "--name", "--verbose", "x", "-y"], operands: [Self.word, Self.more])
        #expect(parsed[Self.name] == "--verbose")
        #expect(!parsed[Self.verbose])
        #expect(parsed.word(Self.word) == "w" && parsed.words(Self.more) == ["x", "-y"])
        #expect(parsed[Self.out] == "f" && parsed[Self.port] == nil)
    }

    @Test("the last value of a repeated option counts, and a repeated switch is on")
    func repeated() throws {
        let parsed = try Self.parse(["--port", "1", "--verbose", "--out", "f", "--port", "2", "--verbose"])
        #expect(parsed[Self.port] == 2 && parsed[Self.verbose])
        #expect(try parsed.required(Self.out) == "f")
    }

    @Test(
        "each refusal names the flag or the word at fault",
        arguments: [
            (["--out", "f", "--port", "x"], "--port must be a number from 0 to 65535"),
            (["--out", "f", "--port", "65536"], "--port must be a number from 0 to 65535"),
            (["--out", "f", "--port"], "--port needs a value"),
            (["--out", ""], "--out needs a value"),
            (["--port", "1"], "test run needs --out"),
            (["--out", "f", "--colour", "x"], "unknown option --colour for test run"),
            // No `--flag=VALUE` form, as passkeyd never had one, and a single dash makes a word, not a flag.
            (["--out=f"], "unknown option --out=f for test run"),
            (["--out", "f", "-v"], "unexpected argument \"-v\""),
        ])
    func refusals(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Self.parse(arguments) }
    }

    @Test("the operands must be exactly those declared")
    func operands() throws {
        #expect(throws: UsageError("test run needs WORD")) { try Self.parse(["--out", "f"], operands: [Self.word]) }
        #expect(throws: UsageError("unexpected argument \"b\"")) {
            try Self.parse(["--out", "f", "a", "b"], operands: [Self.word])
        }
        #expect(throws: UsageError("test run needs at least one MORE")) {
            try Self.parse(["a", "--out", "f"], operands: [Self.word, Self.more])
        }
        let parsed = try Self.parse(["a", "--out", "f", "b"], operands: [Self.word, Self.more])
        #expect(parsed.words(Self.more) == ["b"])
    }
}
