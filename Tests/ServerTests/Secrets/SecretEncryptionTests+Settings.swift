import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// The `encryption_at_rest` settings.
extension SecretEncryptionTests {
    @Test("the settings: encryption_at_rest.key_file and decryption_key_files, in the file or from the environment")
    func setting() throws {
        #expect(try TestConfiguration.make().encryptionAtRest.keyFile == nil)
        #expect(
            try TestConfiguration.make([Self.variable: "/etc/kek"]).encryptionAtRest.keyFile == "/etc/kek")
        #expect(throws: ConfigurationError.self) { try TestConfiguration.make([Self.variable: ""]) }
        let decryption = "PASSKEYD_ENCRYPTION_AT_REST_DECRYPTION_KEY_FILES"
        #expect(
            try TestConfiguration.make([Self.variable: "/k", decryption: #"["/a", "/b"]"#]).encryptionAtRest
                .decryptionKeyFiles == ["/a", "/b"])
        // Keys that only open, without one that seals, would leave the keys they open unencrypted.
        #expect(throws: ConfigurationError.self) { try TestConfiguration.make([decryption: #"["/a"]"#]) }
        #expect(throws: ConfigurationError.self) {
            try TestConfiguration.make([Self.variable: "/k", decryption: #"[""]"#])
        }
        // A relative path is taken from the data directory.
        var configuration = try TestConfiguration.make([Self.variable: "kek"])
        configuration.dataDirectory = "/nonexistent-data"
        guard case .failure(let failure) = SecretEncryptionKeys.configured(configuration) else {
            Issue.record("a missing file was accepted")
            return
        }
        #expect(failure.description.contains("/nonexistent-data/kek"))
    }

    @Test("the settings: encryption_at_rest.pkcs11, from the environment; it needs key_file and exactly one PIN source")
    func pkcs11Setting() throws {
        let prefix = "PASSKEYD_ENCRYPTION_AT_REST_PKCS11_"
        let hsm = [
            prefix + "MODULE": "/usr/lib/softhsm/libsofthsm2.so", prefix + "TOKEN_LABEL": "t",
            prefix + "KEY_LABEL": "k", prefix + "PIN_ENV": "KEK_PIN",
        ]
        let configuration = try TestConfiguration.make(hsm.merging([Self.variable: "/k"]) { $1 })
        #expect(
            configuration.encryptionAtRest.pkcs11
                == PKCS11Settings(
                    module: "/usr/lib/softhsm/libsofthsm2.so", tokenLabel: "t", keyLabel: "k",
                    pinEnvironmentVariable: "KEK_PIN"))
        func refusal(_ environment: [String: String]) -> String {
            do {
                _ = try TestConfiguration.make(environment)
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        // Nothing to unwrap without key_file; a PIN from nowhere, or from two places, is refused by name.
        #expect(refusal(hsm).contains("encryption_at_rest.pkcs11"))
        #expect(refusal(hsm.merging([Self.variable: "/k", prefix + "PIN_FILE": "/p"]) { $1 }).contains("pin_file"))
        var noPIN = hsm.merging([Self.variable: "/k"]) { $1 }
        noPIN[prefix + "PIN_ENV"] = nil
        #expect(refusal(noPIN).contains("pin_file"))
        noPIN[prefix + "MODULE"] = nil
        #expect(refusal(noPIN).contains("encryption_at_rest.pkcs11.module"))
    }
}
