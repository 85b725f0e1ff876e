/// Word-at-a-time scanning shared by the parser and the writer: both need to find the next byte
/// in a string that is a quote, a backslash or a control character.
enum JSONByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// True when any of the 8 bytes in `word` is `"`, `\` or below 0x20 (exact, no false positives).
    @inline(__always)
    static func hasSpecialByte(_ word: UInt64) -> Bool {
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        // A byte is zero (or below n) when subtracting 1 (or n) borrows into its high bit,
        // and the high bit was not set before.
        let zeroQuote = (quotes &- ones) & ~quotes
        let zeroBackslash = (backslashes &- ones) & ~backslashes
        let control = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | control) & highBits != 0
    }

    /// True for `"`, `\` and control characters: the bytes a JSON string cannot hold as they are.
    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The index of the first special byte in `start..<end` of `base`, or `end`.
    @inline(__always)
    static func firstSpecial(in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        while index + 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if hasSpecialByte(word) { break }
            index += 8
        }
        while index < end, !isSpecial(base[index]) { index += 1 }
        return index
    }
}

extension JSONByteScan {
    /// True when no byte of `bits` (an OR of scanned words or bytes) has its high bit set.
    @inline(__always)
    static func isASCII(_ bits: UInt64) -> Bool { bits & highBits == 0 }

    /// The offset of the first byte in `start..<end` that does not begin a well-formed UTF-8 sequence
    /// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or nil when all is valid.
    static func firstInvalidUTF8(in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            // Skip ASCII a word at a time.
            if index + 8 <= end, isASCII(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; secondRange = 0xA0...0xBF
            case 0xED: length = 3; secondRange = 0x80...0x9F
            case 0xE1...0xEF: length = 3
            case 0xF0: length = 4; secondRange = 0x90...0xBF
            case 0xF4: length = 4; secondRange = 0x80...0x8F
            case 0xF1...0xF3: length = 4
            default: return index
            }
            guard index + length <= end, secondRange.contains(base[index + 1]) else { return index }
            for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }
}
