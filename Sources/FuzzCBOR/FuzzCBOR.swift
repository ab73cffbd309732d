// libFuzzer target: the CBOR decoder, whole-input and prefix forms, and the in-place integer map against it
// (scripts/fuzz.sh builds and runs it).
import CBOR
import FuzzDriver

/// SwiftPM links an executable module's entry point as `<module>_main`.
@_cdecl("FuzzCBOR_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv) { data, size in
        let bytes = FuzzDriver.bytes(data, size)
        let decoded = try? CBORDecoder.decode(bytes)
        _ = try? CBORDecoder.decodePrefix(bytes[...])
        // CBORIntegerMap accepts only what the decoder reads to the same map (COSEKey relies on it).
        if let map = CBORIntegerMap.decode(bytes) {
            guard let entries = decoded?.mapEntries, entries.count == map.count else {
                fatalError("CBORIntegerMap accepted an input the decoder reads differently")
            }
            for entry in entries {
                guard let key = entry.key.intValue, let value = map[key] else {
                    fatalError("CBORIntegerMap lacks a key the decoder read")
                }
                switch value {
                case .integer(let number) where entry.value.intValue == number: continue
                case .bytes(let range) where entry.value.bytesValue == Array(bytes[range]): continue
                default: fatalError("CBORIntegerMap read a value the decoder reads differently")
                }
            }
        }
        return 0
    }
}
