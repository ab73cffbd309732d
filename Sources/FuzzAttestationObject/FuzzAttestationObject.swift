// libFuzzer target: the attestation object — parsed, then handed to its format's verification procedure
// (packed, tpm, android-key, android-safetynet, apple, fido-u2f, none, and compound statements of them), so the statement parsers and certificate
// checks behind each format see the mutated inputs too (scripts/dev/fuzz.sh builds and runs it).
import Foundation
import FuzzDriver
import WebAuthn

/// SwiftPM links an executable module's entry point as `<module>_main`.
@_cdecl("FuzzAttestationObject_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv) { data, size in
        guard let object = try? AttestationObject(bytes: FuzzDriver.bytes(data, size)) else { return 0 }
        // The client data hash is fixed: a mutated statement must be refused with a typed error, never trap.
        _ = try? AttestationFormatRegistry.standard.verify(
            format: object.format,
            AttestationStatementInput(
                statement: object.statement, authenticatorData: object.authenticatorData,
                clientDataHash: Array(repeating: 0x5A, count: 32),
                verificationTime: Date(timeIntervalSince1970: 1_704_067_200)))
        return 0
    }
}
