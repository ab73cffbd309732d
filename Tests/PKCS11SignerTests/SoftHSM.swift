import Foundation
import Glibc

/// A throwaway SoftHSM2 token for the PKCS#11 signer's tests (../shared/NOTES.md, "PKCS#11 and SoftHSM2"), made once
/// per test process: a token directory, the configuration file SOFTHSM2_CONF names (SoftHSM2 reads it when the module
/// is initialized), and one token holding an Ed25519 and a P-256 key pair made by pkcs11-tool.
enum SoftHSM {
    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
    }

    static let module = "/usr/lib/softhsm/libsofthsm2.so"
    static let tokenLabel = "passkeyd-signer-test"
    static let pin = "1234"
    /// The Ed25519 key pair's label.
    static let ed25519Label = "audit-signing"
    /// A P-256 key pair's label: a key the signer must refuse.
    static let p256Label = "not-edwards"

    private static let tools = ["/usr/bin/softhsm2-util", "/usr/bin/pkcs11-tool"]

    /// Whether SoftHSM2 and OpenSC's pkcs11-tool are installed.
    static var isInstalled: Bool {
        FileManager.default.fileExists(atPath: module) && tools.allSatisfy(FileManager.default.isExecutableFile)
    }

    /// Whether the test command requires these tests to run rather than be skipped (scripts/test.sh, which installs
    /// the packages, sets PASSKEYD_TEST_REQUIRE_SOFTHSM=1).
    static var isRequired: Bool { ProcessInfo.processInfo.environment["PASSKEYD_TEST_REQUIRE_SOFTHSM"] == "1" }

    /// The token's directory, made on first use.
    static let directory: Result<URL, SetupFailure> = {
        do throws(SetupFailure) {
            return .success(try makeToken())
        } catch {
            return .failure(error)
        }
    }()

    /// The Ed25519 public key as pkcs11-tool reads it from the token: SubjectPublicKeyInfo DER, from its PEM.
    static func exportedEd25519PublicKey() throws -> [UInt8] {
        let root = try directory.get()
        let file = root.appendingPathComponent("ed25519.pem").path
        try run(
            "/usr/bin/pkcs11-tool",
            [
                "--module", module, "--token-label", tokenLabel, "--read-object", "--type", "pubkey", "--label",
                ed25519Label, "-o", file,
            ], in: root)
        let pem = try String(contentsOfFile: file, encoding: .utf8)
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: base64) else { throw SetupFailure(description: "pkcs11-tool wrote \(pem)") }
        return Array(der)
    }

    private static func makeToken() throws(SetupFailure) -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passkeyd-softhsm-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("tokens"), withIntermediateDirectories: true)
            let configuration = root.appendingPathComponent("softhsm2.conf").path
            try "directories.tokendir = \(root.path)/tokens\nobjectstore.backend = file\nlog.level = ERROR\n"
                .write(toFile: configuration, atomically: true, encoding: .utf8)
            // Before the module is first loaded in this process; the tools below inherit it.
            setenv("SOFTHSM2_CONF", configuration, 1)
            try run(
                "/usr/bin/softhsm2-util",
                ["--init-token", "--free", "--label", tokenLabel, "--pin", pin, "--so-pin", "12345678"], in: root)
            for (type, id, label) in [("EC:edwards25519", "01", ed25519Label), ("EC:prime256v1", "02", p256Label)] {
                try run(
                    "/usr/bin/pkcs11-tool",
                    [
                        "--module", module, "--token-label", tokenLabel, "--login", "--pin", pin, "--keypairgen",
                        "--key-type", type, "--id", id, "--label", label,
                    ], in: root)
            }
        } catch let failure as SetupFailure {
            throw failure
        } catch {
            throw SetupFailure(description: "making the SoftHSM2 token: \(error)")
        }
        return root
    }

    private static func run(_ tool: String, _ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SetupFailure(description: "\(tool) \(arguments.joined(separator: " ")): \(text)")
        }
    }
}
