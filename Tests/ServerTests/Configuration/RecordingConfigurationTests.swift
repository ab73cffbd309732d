import Foundation
import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Configuration: record mode's caps")
struct RecordingConfigurationTests {
    /// The error of loading the test configuration with `environment`, `nil` when it loads.
    static func failure(_ environment: [String: String]) -> ConfigurationError? {
        do {
            _ = try TestConfiguration.make(environment)
            return nil
        } catch let error as ConfigurationError {
            return error
        } catch {
            return ConfigurationError(field: "?", reason: "\(error)")
        }
    }

    @Test("1 GiB for the directory and 64 KiB per recording by default; each set by its setting or variable")
    func defaults() throws {
        let recording = try TestConfiguration.make().recording
        #expect(recording.maxBytes == 1_073_741_824 && recording.maxFileBytes == 65_536)
        let set = try TestConfiguration.make([
            "PASSKEYD_RECORDING_MAX_BYTES": "2097152", "PASSKEYD_RECORDING_MAX_FILE_BYTES": "32768",
        ]).recording
        #expect(set.maxBytes == 2_097_152 && set.maxFileBytes == 32_768)
    }

    @Test(
        "0, a negative size, one below the minimum or a file cap over the directory's stop the start, saying why",
        arguments: [
            ("PASSKEYD_RECORDING_MAX_BYTES", "0", "recording.max_bytes", "must be a positive number of bytes, got 0"),
            ("PASSKEYD_RECORDING_MAX_BYTES", "-1", "recording.max_bytes", "got -1: recordings always have a cap"),
            ("PASSKEYD_RECORDING_MAX_BYTES", "1048575", "recording.max_bytes", "at least 1048576 bytes"),
            ("PASSKEYD_RECORDING_MAX_BYTES", "1GB", "PASSKEYD_RECORDING_MAX_BYTES", "must be an integer"),
            ("PASSKEYD_RECORDING_MAX_FILE_BYTES", "0", "recording.max_file_bytes", "must be a positive number"),
            ("PASSKEYD_RECORDING_MAX_FILE_BYTES", "16383", "recording.max_file_bytes", "at least 16384 bytes"),
            (
                "PASSKEYD_RECORDING_MAX_FILE_BYTES", "2000000", "recording.max_file_bytes",
                "must not exceed recording.max_bytes (1048576)"
            ),
        ])
    func refused(variable: String, value: String, field: String, reason: String) {
        var environment = [variable: value]
        if variable == "PASSKEYD_RECORDING_MAX_FILE_BYTES" { environment["PASSKEYD_RECORDING_MAX_BYTES"] = "1048576" }
        let error = Self.failure(environment)
        #expect(error?.field == field, "\(String(describing: error))")
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }
}
