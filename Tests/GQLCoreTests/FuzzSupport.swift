import Foundation

/// A small, seeded random number generator (SplitMix64): the same seed gives the same inputs on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Settings of the generative tests: `GQLC_FUZZ_ITERATIONS` (cases per test) and `GQLC_FUZZ_SEED`.
enum FuzzSettings {
    static var iterations: Int {
        ProcessInfo.processInfo.environment["GQLC_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 300
    }

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["GQLC_FUZZ_SEED"].flatMap { UInt64($0) } ?? 1
    }
}

/// Turns valid inputs into malformed ones: flipped bits, truncation, inserted tokens, deleted or repeated
/// spans, invalid UTF-8, numbers past Int64, values of the wrong type, and deep nesting.
struct Mutator {
    var random: SeededGenerator

    static let tokens = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "\\udc00", "null", "true", "false", "-", "0", "-0",
        "1e999", "NaN", "=", "!=", "..", "?", "!?", "^=", "*=", "!*=", ":=", "<=", ">=", "\u{0}", "\t", "\n", "\u{2028}",
        "é", "😀", "\u{FEFF}", "'", "服务器错误", "e\u{301}", "👩‍👩‍👧", "\u{202E}", "Ω≈ç", "ﬀ", "\u{10FFFF}",
    ]
    static let bigNumbers = [
        "123456789012345678901234567890", "-9223372036854775809", "9223372036854775808", "18446744073709551616",
        "1e400", "-1e400", "4.9e-325", String(repeating: "9", count: 400),
    ]
    static let invalidUTF8: [[UInt8]] = [[0xFF], [0xFE, 0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0x80], [0xF8, 0x88]]
    static let replacements = ["null", "true", "42", "\"text\"", "[]", "{}", "[{\"a\":1}]", "{\"x\":{\"y\":[null]}}"]

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    mutating func pick<T>(_ values: [T]) -> T { values[int(0..<values.count)] }

    /// One to three mutations of `bytes`.
    mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        for _ in 0..<pick([1, 1, 2, 3]) { result = mutateOnce(result) }
        return result
    }

    mutating func mutateOnce(_ bytes: [UInt8]) -> [UInt8] {
        var data = bytes
        let at = int(0..<(data.count + 1))
        switch int(0..<9) {
        case 0 where !data.isEmpty:
            let index = int(0..<data.count)
            data[index] ^= UInt8(1) << UInt8(int(0..<8))
        case 1 where !data.isEmpty:
            data.removeSubrange(int(0..<data.count)...)
        case 2:
            data.insert(contentsOf: Array(pick(Self.tokens).utf8), at: at)
        case 3 where !data.isEmpty:
            data.removeSubrange(at..<min(data.count, at + int(1..<17)))
        case 4 where !data.isEmpty:
            let end = min(data.count, at + int(1..<65))
            data.insert(contentsOf: Array(data[at..<end]), at: end)
        case 5:
            data.insert(contentsOf: pick(Self.invalidUTF8), at: at)
        case 6:
            data = replaceNumber(data, with: Array(pick(Self.bigNumbers).utf8))
        case 7:
            data = swapLiteral(data)
        default:
            data.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "["), count: pick([2, 50, 600, 5000])), at: at)
        }
        return data
    }

    /// Replaces one run of digits.
    mutating func replaceNumber(_ data: [UInt8], with number: [UInt8]) -> [UInt8] {
        let starts = data.indices.filter { isDigit(data[$0]) && ($0 == 0 || !isDigit(data[$0 - 1])) }
        guard !starts.isEmpty else { return data + number }
        let start = pick(starts)
        var end = start
        while end < data.count, isDigit(data[end]) { end += 1 }
        return Array(data[..<start]) + number + Array(data[end...])
    }

    /// Replaces one literal or string with a value of another type.
    mutating func swapLiteral(_ data: [UInt8]) -> [UInt8] {
        let starts = data.indices.filter { Array("\"tfn[{0123456789".utf8).contains(data[$0]) }
        guard !starts.isEmpty else { return data }
        let start = pick(starts)
        var end = start + 1
        if data[start] == UInt8(ascii: "\"") {
            while end < data.count, data[end] != UInt8(ascii: "\"") { end += data[end] == UInt8(ascii: "\\") ? 2 : 1 }
            end = min(end + 1, data.count)
        } else {
            while end < data.count, !Array(",}] \n".utf8).contains(data[end]) { end += 1 }
        }
        return Array(data[..<start]) + Array(pick(Self.replacements).utf8) + Array(data[end...])
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}

/// Text for a one-line message check.
func isOneLine(_ text: String) -> Bool {
    !text.isEmpty && !text.contains(where: \.isNewline)
}
