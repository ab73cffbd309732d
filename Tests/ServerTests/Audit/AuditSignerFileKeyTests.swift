import Foundation
import Testing

@testable import Service

#if canImport(Glibc)
    import Glibc
#endif

/// `audit.signer: "file"`: the audit signing key is generated once and written as every secret file is
/// (`SecretFile`).
@Suite("The audit signing key file")
struct AuditSignerFileKeyTests {
    /// A fresh directory of its own, removed by the caller.
    static func directory() throws -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("passkeyd-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test("generated once, mode 0600, and the same key read back")
    func generatedOnce() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/audit-signing.key"
        let key = try AuditSignerLoader.fileKey(path)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(try AuditSignerLoader.fileKey(path).rawRepresentation == key.rawRepresentation)
    }

    @Test("a dangling symbolic link at key_file is refused: no key is written where it points")
    func danglingLinkRefused() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/elsewhere"
        #expect(symlink(target, directory + "/audit-signing.key") == 0)
        #expect(throws: AuditSignerLoader.Failure.self) {
            try AuditSignerLoader.fileKey(directory + "/audit-signing.key")
        }
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("the key the binary generates under a umask that takes the owner's bits (0277) still has mode 0600")
    func modeWhateverTheUmask() async throws {
        let root = PasskeydBinary.repository
        let binary = try PasskeydBinary.locate()
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyFile = directory + "/audit-signing.key"
        try FileManager.default.createDirectory(atPath: directory + "/export", withIntermediateDirectories: false)
        // `audit export` loads the signer, which generates the key; a umask is the whole process's, so it is set in
        // a process of its own.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "umask 0277 && exec \"$0\" \"$@\"", binary.path, "audit", "export", "--config",
            root.appendingPathComponent("Config/passkeyd.json").path, "--data-dir", directory + "/data",
            "--out", directory + "/export",
        ]
        process.environment = [
            "PATH": "/usr/bin:/bin", "PASSKEYD_AUDIT_SIGNER": "file", "PASSKEYD_AUDIT_KEY_FILE": keyFile,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let exited = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                continuation.resume(returning: -1)
            }
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(exited == 0, "\(text)")
        var status = stat()
        #expect(stat(keyFile, &status) == 0, "\(text)")
        #expect(status.st_mode & 0o777 == 0o600, "mode \(String(status.st_mode & 0o777, radix: 8))")
        #expect(status.st_size == 32)
    }
}
