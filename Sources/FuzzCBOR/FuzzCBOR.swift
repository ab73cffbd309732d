// libFuzzer target: the CBOR decoder, whole-input and prefix forms
// (scripts/dev/fuzz.sh builds and runs it).
import CBOR
import FuzzDriver

/// SwiftPM links an executable module's entry point as `<module>_main`.
@_cdecl("FuzzCBOR_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv) { data, size in
        let bytes = FuzzDriver.bytes(data, size)
        _ = try? CBORDecoder.decode(bytes)
        _ = try? CBORDecoder.decodePrefix(bytes[...])
        return 0
    }
}
