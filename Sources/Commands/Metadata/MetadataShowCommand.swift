import Foundation
import Service

/// `passkeyd metadata show AAGUID [--json]`: an authenticator's entry in the stored BLOB.
package struct MetadataShowCommand: Command, Equatable {
    /// The authenticator's AAGUID (UUID text).
    static let aaguid = Operand("AAGUID")
    /// `--json`: the entry's raw JSON.
    static let json = Switch("--json")

    package static let words = ["metadata", "show"]
    package static let operands = [aaguid]
    package static let flags: [any Flag] = [json] + ConfigurationOptions.flags
    package static let summary = """
        Show an authenticator's entry in the stored BLOB: description, latest status, certification, any
        compromise, every status report, attestation root subjects, icon or not; --json prints the entry's raw
        JSON. Exit 1 when no BLOB is stored or it has no entry for AAGUID.
        """

    package var configuration: ConfigurationOptions
    package var aaguid: [UInt8]
    package var json: Bool

    package init(configuration: ConfigurationOptions = ConfigurationOptions(), aaguid: [UInt8], json: Bool = false) {
        self.configuration = configuration
        self.aaguid = aaguid
        self.json = json
    }

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        let text = arguments.word(Self.aaguid)
        guard let uuid = UUID(uuidString: text) else {
            throw UsageError("AAGUID must be a UUID (8-4-4-4-12 hex), got \"\(text)\"", usage: [Self.synopsis])
        }
        self.init(
            configuration: ConfigurationOptions(arguments), aaguid: withUnsafeBytes(of: uuid.uuid) { Array($0) },
            json: arguments[Self.json])
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try configuration.load(context.environment)
        let outcome: AdminCommands.Outcome
        do {
            outcome = try await DatabaseDrivers.withStore(configuration) { store in
                guard let stored = try await StoredMetadataBLOB.read(from: store, settings: configuration.metadata)
                else { throw CommandFailure("metadata show: no metadata BLOB is stored") }
                switch stored.verified {
                case .success(let snapshot):
                    return MetadataCommands.show(aaguid: aaguid, snapshot: snapshot, now: Date(), json: json)
                case .failure(let error):
                    throw CommandFailure(
                        "metadata show: the stored BLOB (serial \(stored.record.serial)) does not verify with this "
                            + "configuration: \(error.code): \(MetadataCommands.oneLine(error.reason))")
                }
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("metadata show: \(error)")
        }
        context.output(outcome.output)
        return outcome.status
    }
}
