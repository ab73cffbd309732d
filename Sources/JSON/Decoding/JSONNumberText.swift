/// Exact conversions of a JSON number's text (RFC 8259 §6 grammar, checked by the parser).
enum JSONNumberText {
    /// The integer `text` denotes, when it denotes one exactly and it fits `T`: `-0`, `12.0` and `1.2e1` are
    /// integers, `1.5` and `1e-1` are not. Computed on the decimal digits, never through a `Double`, so large
    /// values are not rounded into range.
    static func exactInteger<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> T? {
        if let plain = T(text) { return plain }  // the usual spelling: -?digits
        var utf8 = Substring(text).utf8[...]
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { utf8 = utf8.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var sawPoint = false
        while let byte = utf8.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            utf8 = utf8.dropFirst()
            if byte == UInt8(ascii: ".") {
                sawPoint = true
            } else {
                digits.append(byte - UInt8(ascii: "0"))
                if sawPoint { exponent -= 1 }
            }
        }
        if !utf8.isEmpty {
            utf8 = utf8.dropFirst()  // e or E
            let negativeExponent = utf8.first == UInt8(ascii: "-")
            if negativeExponent || utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
            // Clamped: an exponent beyond any integer type's digits gives the same answer as a huge one.
            var magnitude = 0
            for byte in utf8 { magnitude = min(magnitude * 10 + Int(byte - UInt8(ascii: "0")), 100_000) }
            exponent += negativeExponent ? -magnitude : magnitude
        }
        return build(digits, exponent: exponent, negative: negative)
    }

    /// digits × 10^exponent with `negative`'s sign, when it is an integer that fits `T`.
    private static func build<T: FixedWidthInteger>(_ digits: [UInt8], exponent: Int, negative: Bool) -> T? {
        var digits = digits[...]
        while digits.first == 0 { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return 0 }  // zero, however spelled
        var exponent = exponent
        while digits.last == 0, exponent < 0 {
            digits = digits.dropLast()
            exponent += 1
        }
        guard exponent >= 0, digits.count + exponent <= 40 else { return nil }  // a fraction, or beyond UInt128
        var value: T = 0
        for digit in digits + Array(repeating: 0, count: exponent) {
            let (scaled, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) =
                negative
                ? scaled.subtractingReportingOverflow(T(digit)) : scaled.addingReportingOverflow(T(digit))
            guard !overflowA, !overflowB else { return nil }
            value = next
        }
        return value
    }
}
