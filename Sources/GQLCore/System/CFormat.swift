#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `value` formatted by the C library's `printf` rules, e.g. `formatC("%.3g", 0.25)` → `0.25`.
/// Only for numeric formats with one conversion; the result is locale-independent as gqlc never calls
/// `setlocale` (the C locale is in effect).
func formatC(_ format: String, _ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let written = withVaList([value]) { arguments in
        buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
    }
    guard written >= 0 else { return String(value) }
    let end = buffer.firstIndex(of: 0) ?? buffer.count
    return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
