import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("audit configuration")
struct AuditConfigurationTests {
    func field(_ overrides: [String: String]) -> String? {
        do {
            _ = try TestConfiguration.make(overrides)
            return nil
        } catch {
            return (error as? ConfigurationError)?.field ?? "\(error)"
        }
    }

    @Test("defaults: no signer, origin from the RP id, 1 s checkpoints, 100 ms sequencing")
    func defaults() throws {
        let audit = try TestConfiguration.make().audit
        #expect(audit.signer == .none)
        #expect(audit.origin == "example.com/passkeyd-audit")
        #expect(audit.checkpointIntervalMilliseconds == 1_000)
        #expect(audit.sequenceIntervalMilliseconds == 100)
    }

    @Test("a file signer's key lives in the data directory unless an absolute path is given")
    func fileSigner() throws {
        let audit = try TestConfiguration.make(["PASSKEYD_AUDIT_SIGNER": "file"]).audit
        #expect(audit.signer == .file(path: "/nonexistent-test-dir/audit-signing.key"))
    }

    @Test("PKCS#11 needs module, token, key and exactly one PIN source; bad values name their field")
    func refusals() throws {
        let pkcs11 = [
            "PASSKEYD_AUDIT_SIGNER": "pkcs11", "PASSKEYD_AUDIT_PKCS11_MODULE": "/m.so",
            "PASSKEYD_AUDIT_PKCS11_TOKEN_LABEL": "t", "PASSKEYD_AUDIT_PKCS11_KEY_LABEL": "k",
        ]
        #expect(field(pkcs11) == "audit.pkcs11.pin_file")
        #expect(field(pkcs11.merging(["PASSKEYD_AUDIT_PKCS11_PIN_ENV": "PIN"]) { $1 }) == nil)
        #expect(
            field(
                pkcs11.merging(["PASSKEYD_AUDIT_PKCS11_PIN_ENV": "PIN", "PASSKEYD_AUDIT_PKCS11_PIN_FILE": "/p"]) { $1 }
            ) == "audit.pkcs11.pin_file")
        #expect(field(["PASSKEYD_AUDIT_SIGNER": "pkcs11"]) == "audit.pkcs11.module")
        #expect(field(["PASSKEYD_AUDIT_SIGNER": "software"]) == "audit.signer")
        #expect(field(["PASSKEYD_AUDIT_ORIGIN": "a+b"]) == "audit.origin")
        #expect(field(["PASSKEYD_AUDIT_CHECKPOINT_INTERVAL_MS": "5"]) == "audit.checkpoint_interval_ms")
    }

    @Test("the PIN pin_env names comes from the environment the configuration was loaded with, and never shows")
    func pinFromTheLoadersEnvironment() throws {
        let pkcs11 = [
            "PASSKEYD_AUDIT_SIGNER": "pkcs11", "PASSKEYD_AUDIT_PKCS11_MODULE": "/m.so",
            "PASSKEYD_AUDIT_PKCS11_TOKEN_LABEL": "t", "PASSKEYD_AUDIT_PKCS11_KEY_LABEL": "k",
            "PASSKEYD_AUDIT_PKCS11_PIN_ENV": "AUDIT_TEST_PIN",
        ]
        let loaded = try TestConfiguration.make(pkcs11.merging(["AUDIT_TEST_PIN": "4321"]) { $1 })
        guard case .pkcs11(let settings) = loaded.audit.signer else {
            Issue.record("no PKCS#11 signer")
            return
        }
        #expect(try settings.pin(setting: "audit.pkcs11") == "4321")
        #expect(!String(describing: loaded).contains("4321"))
        #expect(!String(reflecting: loaded).contains("4321"))
        guard case .pkcs11(let unset) = try TestConfiguration.make(pkcs11).audit.signer else {
            Issue.record("no PKCS#11 signer without the PIN's variable")
            return
        }
        #expect(throws: PKCS11Settings.PINFailure.self) { try unset.pin(setting: "audit.pkcs11") }
    }
}
