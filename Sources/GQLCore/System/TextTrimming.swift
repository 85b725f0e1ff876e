extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (line breaks are kept).
    public var trimmingSpaces: String { trimmed { $0.isWhitespace && !$0.isNewline } }

    /// The text without leading and trailing whitespace, line breaks included.
    public var trimmingWhitespace: String { trimmed(\.isWhitespace) }

    private func trimmed(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

/// Formats `value` like C's `%.3g`: three significant digits, trailing zeros dropped, an exponent
/// (`1.23e+04`, `1e-05`) outside 0.0001 ..< 1000.
func formatThreeSignificant(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    guard value != 0 else { return "0" }
    let sign = value < 0 ? "-" : ""
    let magnitude = abs(value)
    var exponent = Int((log10Approximation(magnitude)).rounded(.down))
    // Three significant digits as an integer 100...999, fixing the exponent after rounding (9.995 → 10.0).
    var digits = (magnitude / power10(exponent - 2)).rounded(.toNearestOrEven)
    if digits >= 1000 {
        exponent += 1
        digits = (magnitude / power10(exponent - 2)).rounded(.toNearestOrEven)
    } else if digits < 100 {
        exponent -= 1
        digits = (magnitude / power10(exponent - 2)).rounded(.toNearestOrEven)
    }
    var text = String(Int(digits))
    if exponent >= -4 && exponent < 3 {
        if exponent >= 0 {
            text.insert(".", at: text.index(text.startIndex, offsetBy: exponent + 1))
        } else {
            text = "0." + String(repeating: "0", count: -exponent - 1) + text
        }
        return sign + dropTrailingZeros(text)
    }
    text.insert(".", at: text.index(after: text.startIndex))
    let exponentDigits = String(abs(exponent))
    return sign + dropTrailingZeros(text) + (exponent < 0 ? "e-" : "e+")
        + (exponentDigits.count < 2 ? "0" : "") + exponentDigits
}

private func dropTrailingZeros(_ text: String) -> String {
    guard text.contains(".") else { return text }
    var result = Substring(text)
    while result.last == "0" { result.removeLast() }
    if result.last == "." { result.removeLast() }
    return String(result)
}

private func power10(_ exponent: Int) -> Double {
    var result = 1.0
    for _ in 0..<abs(exponent) { result *= 10 }
    return exponent < 0 ? 1 / result : result
}

/// floor(log10(x)) for a positive finite x, by counting powers of ten (no libm needed).
private func log10Approximation(_ value: Double) -> Double {
    var exponent = 0
    var scaled = value
    while scaled >= 10 { scaled /= 10; exponent += 1 }
    while scaled < 1 { scaled *= 10; exponent -= 1 }
    return Double(exponent)
}
