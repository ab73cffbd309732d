import Foundation
import HTTP
import JSON
import Replay
import SoftwareClient
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Record mode")
struct CeremonyRecorderTests {
    /// A fresh temporary directory path (not created).
    static func temporaryPath() -> String {
        (NSTemporaryDirectory() as NSString).appendingPathComponent("passkeyd-recording-\(UUID().uuidString)")
    }

    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    static func recordings(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    @Test("each judged sign-up and login is recorded, accepted or refused, and replays with the server's outcome")
    func roundTrip() async throws {
        let directory = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = try PasskeyHarness(recording: { logger in
            try CeremonyRecorder.open(directory: directory, logger: logger)
        })
        var passkey = Passkey()
        let tokens = try await harness.signUp(&passkey)
        // A sign-up without UV (required by default), refused.
        var unverified = Passkey()
        let challenge = try await harness.registerChallenge(email: "bob@example.com").jsonValue()
        let refusedSignUp = await harness.token(
            session: try #require(challenge["auth_session"]?.stringValue),
            response: try unverified.register(
                try #require(challenge["authn_params_public_key"]),
                CeremonyTampering(flags: [.userPresent, .attestedCredentialData])))
        #expect(refusedSignUp.status == 403)
        #expect(try await harness.logIn(&passkey).status == 200)
        // Refused logins: each defect the verifier or the policy judges, including those that need the stored
        // record's user handle and backup flags (passkeyd's additions to the format).
        let defects: [CeremonyTampering] = [
            CeremonyTampering(corruptsSignature: true),
            CeremonyTampering(challenge: Array(repeating: 7, count: 32)),
            CeremonyTampering(flags: [.userPresent]),
            CeremonyTampering(signCount: 1),
            CeremonyTampering(userHandle: Array(repeating: 9, count: 16)),
            CeremonyTampering(flags: [.userPresent, .userVerified, .backupEligible]),
        ]
        var sessions: [String] = []
        for defect in defects {
            let (options, session) = try await harness.loginOptions()
            sessions.append(session)
            let answer = await harness.token(session: session, response: try passkey.assert(options, defect))
            #expect(answer.status == 403, "\(defect): \(answer.status) \(answer.bodyText)")
        }
        #expect(try await harness.logIn(&passkey).status == 200)
        await harness.context.recorder?.drain()

        let files = Self.recordings(directory)
        #expect(Self.mode(directory) == 0o700)
        #expect(files.count == 10, "\(files)")
        #expect(files.allSatisfy { Self.mode((directory as NSString).appendingPathComponent($0)) == 0o600 })
        let outcomes = files.map { $0.split(separator: "-", maxSplits: 3).last.map(String.init) ?? $0 }
        #expect(
            outcomes == [
                "ok.json", "refused-user_verification_required.json", "ok.json", "refused-bad_signature.json",
                "refused-challenge_mismatch.json", "refused-user_verification_required.json",
                "refused-counter_not_increased.json", "refused-user_handle_mismatch.json",
                "refused-backup_eligibility_changed.json", "ok.json",
            ])
        var lines: [String] = []
        #expect(ReplayCommand.run(paths: [directory]) { lines.append($0) } == 0, "\(lines)")
        #expect(lines.last == "10 passed, 0 failed", "\(lines)")
        // Nothing secret: no email, no auth_session handle, no token.
        let text = files.compactMap {
            try? String(contentsOfFile: (directory as NSString).appendingPathComponent($0), encoding: .utf8)
        }.joined()
        #expect(!text.contains("alice@example.com") && !text.contains("bob@example.com"))
        #expect(!text.contains("auth_session") && !text.contains("access_token"))
        #expect(sessions.allSatisfy { !text.contains($0) })
        for name in ["access_token", "id_token", "refresh_token"] {
            let token = try #require(tokens[name]?.stringValue)
            #expect(!text.contains(token))
        }
    }

    @Test("a recording that cannot be written is logged; the ceremony is answered as without record mode")
    func writeFailure() async throws {
        let directory = Self.temporaryPath()
        let harness = try PasskeyHarness(recording: { logger in
            try CeremonyRecorder.open(directory: directory, logger: logger)
        })
        try FileManager.default.removeItem(atPath: directory)
        var passkey = Passkey()
        _ = try await harness.signUp(&passkey)
        #expect(try await harness.logIn(&passkey).status == 200)
        await harness.context.recorder?.drain()
        let failures = harness.logLines.all.filter { $0.contains("recording not written") }
        #expect(failures.count == 2, "\(harness.logLines.all)")
    }

    @Test("the directory is created 0700; an existing one must be 0700, the server's and a directory")
    func directoryRules() throws {
        let missing = Self.temporaryPath() + "/nested"
        defer { try? FileManager.default.removeItem(atPath: (missing as NSString).deletingLastPathComponent) }
        _ = try CeremonyRecorder.open(directory: missing, logger: Logger(sink: { _ in }))
        #expect(Self.mode(missing) == 0o700)

        let loose = Self.temporaryPath()
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: loose) }
        chmod(loose, 0o750)
        let error = #expect(throws: PasskeydServer.StartError.self) {
            _ = try CeremonyRecorder.open(directory: loose, logger: Logger(sink: { _ in }))
        }
        #expect(error?.description.contains("mode 0750") == true && error?.description.contains("chmod 700") == true)
        #expect(error?.description.contains("\n") == false)

        let file = Self.temporaryPath()
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: PasskeydServer.StartError.self) {
            _ = try CeremonyRecorder.open(directory: file, logger: Logger(sink: { _ in }))
        }
    }

    @Test("file names sort by time and say the ceremony and its outcome")
    func fileNames() {
        let time = Date(timeIntervalSince1970: 1_796_184_000.25)
        #expect(
            CeremonyRecorder.fileName("authentication", refusal: .badSignature, at: time, sequence: 42)
                == "20261202T040000.250Z-000042-authentication-refused-bad_signature")
        #expect(
            CeremonyRecorder.fileName("registration", refusal: nil, at: time, sequence: 7)
                == "20261202T040000.250Z-000007-registration-ok")
    }

    @Test("record mode is off by default and set by recording.directory, its variable or serve --record")
    func configuration() throws {
        #expect(try TestConfiguration.make().recording.directory == nil)
        #expect(
            try TestConfiguration.make(["PASSKEYD_RECORDING_DIRECTORY": "/tmp/rec"]).recording.directory == "/tmp/rec")
        #expect(try TestConfiguration.make(["PASSKEYD_RECORDING_DIRECTORY": ""]).recording.directory == nil)
        let commands = CommandRegistry.passkeyd
        #expect(
            try commands.parse(["serve", "--record", "/tmp/r"]) as? ServeCommand
                == ServeCommand(configuration: .init(overrides: .init(recordDirectory: "/tmp/r"))))
        #expect(throws: UsageError.self) { try commands.parse(["keys", "rotate", "--record", "/tmp/r"]) }
        #expect(
            try commands.parse(["check-config", "--config", "c.json"]) as? CheckConfigCommand
                == CheckConfigCommand(configuration: .init(path: "c.json")))
        #expect(try commands.parse(["check-config"]) as? CheckConfigCommand == CheckConfigCommand())
        #expect(throws: UsageError.self) { try commands.parse(["check-config", "--port", "1"]) }
    }
}
