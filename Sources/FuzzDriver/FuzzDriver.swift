// The libFuzzer glue every fuzz target shares (built only when PASSKEYD_FUZZ is set; recipe in scripts/dev/fuzz.sh).

/// libFuzzer's driver: parses its own flags from argv and calls `callback` once per input.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer over `body`, which gets each input as bytes. Any input must give a value or a typed error; a
/// trap or a sanitizer report is a bug. Package access: it hands C pointers to the fuzz targets of this package and
/// is no API of anyone else's.
package enum FuzzDriver {
    /// Hands control to libFuzzer; returns its exit status.
    package static func run(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt {
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments, callback)
    }

    /// The input libFuzzer passed, copied into an array.
    package static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }
}
