/// JavaScript's Number → string conversion (ECMA-262 Number::toString), which JSON.stringify uses:
/// shortest round-trip digits, no ".0" on integers, exponent form only below 1e-6 or from 1e21.
public enum KesshoJSNumber {
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }  // also -0
        let (digits, n) = shortestDigits(abs(value))
        let sign = value < 0 ? "-" : ""
        let k = digits.count
        if k <= n && n <= 21 {
            return sign + digits + String(repeating: "0", count: n - k)
        }
        if 0 < n && n <= 21 {
            let i = digits.index(digits.startIndex, offsetBy: n)
            return sign + digits[..<i] + "." + digits[i...]
        }
        if -6 < n && n <= 0 {
            return sign + "0." + String(repeating: "0", count: -n) + digits
        }
        let e = n - 1
        let exp = (e >= 0 ? "+" : "-") + String(abs(e))
        let mantissa = k == 1 ? digits : String(digits.first!) + "." + digits.dropFirst()
        return sign + mantissa + "e" + exp
    }

    /// Shortest round-trip decimal digits d1…dk and exponent n with value = 0.d1…dk × 10^n.
    /// Swift's description is already shortest round-trip (same choice as V8); we only re-layout it.
    static func shortestDigits(_ value: Double) -> (String, Int) {
        let text = value.description  // e.g. "123.45", "1e-07", "1.5e+21", "0.001"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...])!
        }
        var intPart = mantissa
        var fracPart: Substring = ""
        if let dot = mantissa.firstIndex(of: ".") {
            intPart = mantissa[..<dot]
            fracPart = mantissa[mantissa.index(after: dot)...]
        }
        var digits = String(intPart) + fracPart
        var n = intPart.count + exponent
        // Strip leading zeros (each shifts the decimal point) and trailing zeros.
        while digits.count > 1 && digits.first == "0" { digits.removeFirst(); n -= 1 }
        while digits.count > 1 && digits.last == "0" { digits.removeLast() }
        return (digits, n)
    }
}
