import Foundation
import Glibc

/// A throwaway SoftHSM2 token for the PKCS#11 tests (../shared/NOTES.md, "PKCS#11 and SoftHSM2"), made once per
/// test process (every test target runs in one, and SoftHSM2 reads its configuration once): a token directory, the
/// configuration file SOFTHSM2_CONF names (read when the module is initialized), and one token holding an Ed25519
/// and a P-256 key pair and two AES-256 secret keys, made by pkcs11-tool.
public enum SoftHSM {
    public struct SetupFailure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let module = "/usr/lib/softhsm/libsofthsm2.so"
    public static let tokenLabel = "passkeyd-signer-test"
    public static let pin = "1234"
    /// The Ed25519 key pair's label.
    public static let ed25519Label = "audit-signing"
    /// A P-256 key pair's label: a key the signer must refuse.
    public static let p256Label = "not-edwards"
    /// An AES-256 secret key's label (sensitive, never extractable): wraps a key-encryption key.
    public static let aesLabel = "at-rest-wrapping"
    /// Another AES-256 secret key's label: a wrapped key does not open under it.
    public static let otherAESLabel = "other-wrapping"

    /// Held by every test that opens a session on the token, in any test target. The login state is the
    /// application's, shared by all its sessions (PKCS #11 3.0 §5.6): a wrong-PIN login while another session of this
    /// process is logged in answers CKR_USER_ALREADY_LOGGED_IN, not CKR_PIN_INCORRECT.
    private static let lock = TokenLock()

    /// Runs `body` while no other test of this process uses the token (`lock`).
    public static func exclusively<T>(_ body: () async throws -> T) async rethrows -> T {
        await lock.acquire()
        do {
            let value = try await body()
            await lock.release()
            return value
        } catch {
            await lock.release()
            throw error
        }
    }

    /// A lock that waits without holding a thread (tests hold it across awaits).
    private actor TokenLock {
        private var held = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func acquire() async {
            guard held else {
                held = true
                return
            }
            await withCheckedContinuation { waiters.append($0) }
        }

        func release() {
            if waiters.isEmpty {
                held = false
            } else {
                waiters.removeFirst().resume()  // handed over: `held` stays true
            }
        }
    }

    private static let tools = ["/usr/bin/softhsm2-util", "/usr/bin/pkcs11-tool"]

    /// Whether SoftHSM2 and OpenSC's pkcs11-tool are installed.
    public static var isInstalled: Bool {
        FileManager.default.fileExists(atPath: module) && tools.allSatisfy(FileManager.default.isExecutableFile)
    }

    /// Whether the test command requires these tests to run rather than be skipped (scripts/dev/test.sh, which installs
    /// the packages, sets PASSKEYD_TEST_REQUIRE_SOFTHSM=1).
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["PASSKEYD_TEST_REQUIRE_SOFTHSM"] == "1" }

    /// The token's directory, made on first use.
    public static let directory: Result<URL, SetupFailure> = {
        do throws(SetupFailure) {
            return .success(try makeToken())
        } catch {
            return .failure(error)
        }
    }()

    /// The Ed25519 public key as pkcs11-tool reads it from the token: SubjectPublicKeyInfo DER, from its PEM.
    public static func exportedEd25519PublicKey() throws -> [UInt8] {
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
            for (id, label) in [("03", aesLabel), ("04", otherAESLabel)] {
                try run(
                    "/usr/bin/pkcs11-tool",
                    [
                        "--module", module, "--token-label", tokenLabel, "--login", "--pin", pin, "--keygen",
                        "--key-type", "AES:32", "--sensitive", "--id", id, "--label", label,
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
