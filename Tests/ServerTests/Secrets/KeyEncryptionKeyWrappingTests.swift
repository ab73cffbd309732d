import Crypto
import Foundation
import PKCS11Signer
import TestSupport
import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// The key-encryption key kept wrapped by an HSM's AES key (`encryption_at_rest.pkcs11`, SoftHSM2 here): the
/// `encryption-key wrap` command, the start that unwraps, and the refusals. Each test holds the token
/// (`SoftHSM.exclusively`): a wrong-PIN test elsewhere in this process must not find a session logged in.
@Suite(
    "encryption_at_rest.pkcs11: the key-encryption key wrapped by an HSM key",
    .enabled(if: SoftHSM.isInstalled, "SoftHSM2 or pkcs11-tool is not installed"))
struct KeyEncryptionKeyWrappingTests {
    /// A configuration whose key file holds `key` unwrapped (and `opening` as a decryption key file), with
    /// `encryption_at_rest.pkcs11` naming the token's AES key and a PIN file holding `pin`.
    static func configuration(
        key: [UInt8], opening: [UInt8]? = nil, pin: String = SoftHSM.pin, keyLabel: String = SoftHSM.aesLabel
    ) throws -> ServerConfiguration {
        _ = try SoftHSM.directory.get()
        var configuration = try TestConfiguration.make([:])
        configuration.encryptionAtRest.keyFile = try SecretEncryptionTests.keyFile(bytes: key)
        configuration.encryptionAtRest.decryptionKeyFiles =
            try opening.map {
                [try SecretEncryptionTests.keyFile(bytes: $0)]
            } ?? []
        let pinFile = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-pin-\(UUID())").path
        #expect(FileManager.default.createFile(atPath: pinFile, contents: Data((pin + "\n").utf8)))
        configuration.encryptionAtRest.pkcs11 = PKCS11Settings(
            module: SoftHSM.module, tokenLabel: SoftHSM.tokenLabel, keyLabel: keyLabel, pinFile: pinFile)
        return configuration
    }

    /// Whether a node opens the keys of `configuration`, loaded with `environment` (which the PIN `pin_env` names is
    /// taken from, as `ConfigurationLoader` takes it).
    static func failure(_ configuration: ServerConfiguration, environment: [String: String] = [:]) -> String {
        var configuration = configuration
        configuration.readPINs(from: environment)
        return switch SecretEncryptionKeys.configured(configuration) {
        case .success: "opened"
        case .failure(let error): error.description
        }
    }

    @Test(
        "wrapped in place: the keys and their fingerprints stay, the files no longer hold them, a second run leaves them, and what the unwrapped key sealed still opens"
    )
    func wrapsInPlace() async throws {
        try await SoftHSM.exclusively {
            let key = try SecureRandom.bytes(count: 32)
            let older = try SecureRandom.bytes(count: 32)
            var configuration = try Self.configuration(key: key, opening: older)
            let sealing = try SecretEncryption(key: key)
            let sealed = try sealing.seal(Array("a signing key".utf8), context: Array("kid-1".utf8))
            let sealedByOlder = try SecretEncryption(key: older).seal(Array("older".utf8), context: [])
            // Before wrapping, with pkcs11 set, a node refuses the unwrapped files: that is what pkcs11 prevents.
            #expect(Self.failure(configuration).contains("passkeyd encryption-key wrap"))

            // Root's file readable by the server's group (README, "Installing as a service") keeps its group and
            // mode through the replacement.
            let olderFile = try #require(configuration.encryptionAtRest.decryptionKeyFiles.first)
            let asRoot = geteuid() == 0
            if asRoot {
                #expect(chown(olderFile, 0, 4_242) == 0 && chmod(olderFile, 0o640) == 0)
            }
            // A file a run that stopped half-way left beside the key file does not stop the next run.
            let keyPath = try #require(configuration.encryptionAtRest.keyFile)
            #expect(FileManager.default.createFile(atPath: keyPath + ".wrapping", contents: Data("partial".utf8)))
            let outcomes = try KeyEncryptionKeyWrapping.run(configuration)
            #expect(!FileManager.default.fileExists(atPath: keyPath + ".wrapping"))
            #expect(outcomes.map(\.wrappedNow) == [true, true])
            #expect(
                outcomes.map(\.fingerprint) == [
                    sealing.fingerprintText, try SecretEncryption(key: older).fingerprintText,
                ])
            let keyFile = try #require(configuration.encryptionAtRest.keyFile)
            let contents = try #require(FileManager.default.contents(atPath: keyFile))
            #expect(String(decoding: contents, as: UTF8.self).hasPrefix(KeyEncryptionKeyFile.wrappedPrefix))
            #expect(contents.range(of: Data(key)) == nil)
            let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            if asRoot {
                let older = try FileManager.default.attributesOfItem(atPath: olderFile)
                #expect(older[.groupOwnerAccountID] as? Int == 4_242)
                #expect(older[.posixPermissions] as? Int == 0o640)
            }
            #expect(
                try KeyEncryptionKeyWrapping.run(configuration).map(\.description)
                    == outcomes.map {
                        "already wrapped \($0.path) (key-encryption key \($0.fingerprint))"
                    })

            let keys = try SecretEncryptionKeys.configured(configuration).get()
            #expect(keys.sealing?.fingerprint == sealing.fingerprint)
            #expect(try keys.open(sealed, context: Array("kid-1".utf8), what: "the key") == Array("a signing key".utf8))
            #expect(try keys.open(sealedByOlder, context: [], what: "the older key's") == Array("older".utf8))

            // The wrapped file alone opens nothing, and a node without pkcs11 says what to set.
            configuration.encryptionAtRest.pkcs11 = nil
            #expect(Self.failure(configuration).contains("set encryption_at_rest.pkcs11"))
        }
    }

    @Test(
        "a start with the wrapped key seals the stored secrets under it and says the key is wrapped by the HSM key"
    )
    func serverStarts() async throws {
        try await SoftHSM.exclusively {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-wrapped-\(UUID())")
            defer { try? FileManager.default.removeItem(at: directory) }
            var configuration = try Self.configuration(key: try SecureRandom.bytes(count: 32))
            configuration.dataDirectory = directory.path
            configuration.listen.port = 0
            _ = try KeyEncryptionKeyWrapping.run(configuration)
            let lines = PasskeyHarness.LogLines()
            let server = try await PasskeydServer.start(
                configuration: configuration, logger: Logger(sink: { lines.append($0) }))
            let fingerprint = try SecretEncryptionKeys.configured(configuration).get().sealing?
                .fingerprintText
            await server.stop()
            let started = lines.all.first { $0.contains("are encrypted") } ?? ""
            #expect(started.contains(try #require(fingerprint)), "\(started)")
            #expect(started.contains("wrapped by PKCS#11 key \(SoftHSM.aesLabel)"), "\(started)")
            #expect(
                try await SecretEncryptionStartTests.storedKeys(directory).allSatisfy {
                    SecretEncryption.isSealed($0.privateKey)
                        && SecretEncryption.sealer(of: $0.privateKey).map(Hex.encode) == fingerprint
                })
        }
    }

    @Test(
        "refused, each named: a wrong PIN, a PIN variable not set, a wrapped file altered, another AES key, and wrapping without pkcs11"
    )
    func refusals() async throws {
        try await SoftHSM.exclusively {
            let key = try SecureRandom.bytes(count: 32)
            let configuration = try Self.configuration(key: key)
            _ = try KeyEncryptionKeyWrapping.run(configuration)

            var wrongPIN = configuration
            wrongPIN.encryptionAtRest.pkcs11?.pinFile = try Self.configuration(key: key, pin: "9999").encryptionAtRest
                .pkcs11?.pinFile
            #expect(Self.failure(wrongPIN).contains("CKR_PIN_INCORRECT"))

            var fromEnvironment = configuration
            fromEnvironment.encryptionAtRest.pkcs11?.pinFile = nil
            fromEnvironment.encryptionAtRest.pkcs11?.pinEnvironmentVariable = "PASSKEYD_TEST_KEK_PIN"
            #expect(Self.failure(fromEnvironment).contains("pin_env names a variable that is not set"))
            #expect(Self.failure(fromEnvironment, environment: ["PASSKEYD_TEST_KEK_PIN": SoftHSM.pin]) == "opened")

            var otherKey = configuration
            otherKey.encryptionAtRest.pkcs11?.keyLabel = SoftHSM.otherAESLabel
            #expect(Self.failure(otherKey).contains("does not authenticate"))

            let keyFile = try #require(configuration.encryptionAtRest.keyFile)
            let text = try String(contentsOfFile: keyFile, encoding: .utf8)
            var bytes = try #require(
                Data(
                    base64Encoded: String(text.dropFirst(KeyEncryptionKeyFile.wrappedPrefix.count)).trimmingCharacters(
                        in: .newlines)))
            bytes[30] ^= 0x01
            try KeyEncryptionKeyFile.wrappedText(Array(bytes)).write(
                toFile: keyFile, atomically: false, encoding: .utf8)
            #expect(Self.failure(configuration).contains("does not authenticate"))

            // A wrapped key that is not 32 bytes (wrapped by another tool, say) is named, not used.
            let short = try PKCS11KeyWrapping.wrap(
                try SecureRandom.bytes(count: 16), at: try #require(configuration.encryptionAtRest.pkcs11).location,
                pin: SoftHSM.pin)
            try KeyEncryptionKeyFile.wrappedText(short).write(toFile: keyFile, atomically: false, encoding: .utf8)
            #expect(Self.failure(configuration).contains("holds a key of 16 bytes, not 32"))

            var withoutHSM = configuration
            withoutHSM.encryptionAtRest.pkcs11 = nil
            #expect {
                _ = try KeyEncryptionKeyWrapping.run(withoutHSM)
            } throws: { "\($0)".contains("encryption_at_rest.pkcs11 is not set") }
        }
    }
}
