// libFuzzer target: the authenticator-data parser (scripts/dev/fuzz.sh builds and runs it).
import FuzzDriver
import WebAuthn

/// SwiftPM links an executable module's entry point as `<module>_main`.
@_cdecl("FuzzAuthenticatorData_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv) { data, size in
        _ = try? AuthenticatorData(bytes: FuzzDriver.bytes(data, size))
        return 0
    }
}
