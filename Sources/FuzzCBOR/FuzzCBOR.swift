// libFuzzer entry point (built only when PASSKEYD_FUZZ is set; recipe in ../shared/NOTES.md):
//   PASSKEYD_FUZZ=1 swift build -c release --product FuzzCBOR \
//     -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
//     -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
// Any input must give a value or a typed error; a trap or a sanitizer report is a bug.
import CBOR

/// libFuzzer's driver: parses its own flags from argv and calls `callback` once per input.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable module's entry point as `<module>_main`.
@_cdecl("FuzzCBOR_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        _ = try? CBORDecoder.decode(bytes)
        _ = try? CBORDecoder.decodePrefix(bytes[...])
        return 0
    }
}
