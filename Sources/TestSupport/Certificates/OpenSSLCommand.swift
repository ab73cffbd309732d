import Crypto
import Foundation

/// Runs the `openssl` CLI in a scratch directory, for tests that need real certificates signed by a test root.
public final class OpenSSLCommand {
    /// The scratch directory, removed on deinit.
    public let directory: URL

    /// Creates a fresh scratch directory.
    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-pki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The path of `name` in the scratch directory.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `text` to `name`.
    public func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
    }

    /// Writes a PKCS#8 private key as PEM to `name`.
    public func writePrivateKey(_ name: String, pkcs8: [UInt8]) throws {
        let body = Data(pkcs8).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        try write(name, "-----BEGIN PRIVATE KEY-----\n\(body)\n-----END PRIVATE KEY-----\n")
    }

    /// The first certificate of the PEM file `name`.
    public func certificate(_ name: String) throws -> Certificate {
        try Certificate.certificates(fromPEM: String(contentsOfFile: path(name), encoding: .utf8))[0]
    }

    /// Runs `openssl arguments`; throws with its stderr when it fails.
    public func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CryptoError(.internalFailure, "openssl \(arguments.joined(separator: " ")): \(text)")
        }
    }
}
