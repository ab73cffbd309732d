/// ECMAScript `Number.prototype.toString` for doubles (ECMA-262 §6.1.6.1.20, "Number::toString"), the number
/// form RFC 8785 §3.2.2.3 requires.
///
/// Swift's `Double.description` already yields the shortest digit string that round-trips, choosing the
/// closest one on ties — the same digits `s` and length `k` ECMA-262 asks for. This type only re-lays those
/// digits out with ECMAScript's rules for where the decimal point and exponent go.
enum ECMAScriptNumber {
    /// Serialises a finite double; throws `.nonFiniteNumber` for NaN and ±Infinity.
    static func string(for value: Double) throws(JSONError) -> String {
        // RFC 8785 §3.2.2.3: NaN and Infinity MUST cause an error.
        guard value.isFinite else { throw JSONError(.nonFiniteNumber, "\(value) has no JSON form") }
        // ECMA-262 Number::toString step 2: +0 and -0 both give "0".
        if value == 0 { return "0" }
        let (digits, pointPosition) = shortestDigits(of: value.magnitude)
        let body = layout(digits: digits, n: pointPosition)
        return value < 0 ? "-" + body : body
    }

    /// Returns the decimal digits `s` (no leading or trailing zeros) and `n` such that the value is 0.s × 10^n.
    private static func shortestDigits(of magnitude: Double) -> (digits: [UInt8], n: Int) {
        // Swift prints e.g. "123.0", "0.0001", "1e-05", "2.9514790517935283e+20".
        let text = magnitude.description
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts.first ?? Substring(text)
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        var digits: [UInt8] = []
        var integerDigitCount = 0
        var seenPoint = false
        for byte in mantissa.utf8 {
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                digits.append(byte)
                if !seenPoint { integerDigitCount += 1 }
            }
        }
        var n = integerDigitCount + exponent
        // Leading zeros ("0.0001") move the point; trailing zeros ("123.0") do not.
        while let first = digits.first, first == UInt8(ascii: "0") {
            digits.removeFirst()
            n -= 1
        }
        while let last = digits.last, last == UInt8(ascii: "0") { digits.removeLast() }
        return (digits, n)
    }

    /// ECMA-262 Number::toString steps 6–10 for the digits s (length k) and point position n.
    private static func layout(digits: [UInt8], n: Int) -> String {
        let k = digits.count
        let s = String(decoding: digits, as: UTF8.self)
        if k <= n && n <= 21 {
            // Step 6: the k digits followed by n − k zeros.
            return s + String(repeating: "0", count: n - k)
        }
        if 0 < n && n <= 21 {
            // Step 7: the first n digits, a point, the remaining k − n digits.
            return String(decoding: digits[0..<n], as: UTF8.self) + "." + String(decoding: digits[n...], as: UTF8.self)
        }
        if -6 < n && n <= 0 {
            // Step 8: "0." then −n zeros then the k digits.
            return "0." + String(repeating: "0", count: -n) + s
        }
        // Steps 9–10: exponential form, e = n − 1 always carries an explicit sign.
        let e = n - 1
        let exponent = "e" + (e < 0 ? "-" : "+") + String(e.magnitude)
        guard k > 1 else { return s + exponent }
        return String(decoding: digits[0..<1], as: UTF8.self) + "." + String(decoding: digits[1...], as: UTF8.self)
            + exponent
    }
}
