/// The text formats of AppSync's string-like scalars, checked before anything is sent.
///
/// Rules from AppSync's scalar reference (docs.aws.amazon.com/appsync/latest/devguide/scalars.html):
/// - `AWSDate` `YYYY-MM-DD`, `AWSTime` `hh:mm[:ss[.fraction]]`, with an optional zone offset;
///   `AWSDateTime` `YYYY-MM-DDThh:mm[:ss[.fraction]]` with a compulsory one. An offset is `Z` or
///   `±hh:mm` with optional `:ss` (seconds allowed although ISO 8601 has none); a fraction has 1 to 9 digits.
/// - `AWSEmail` `local@domain` (RFC 822): one `@`, no white space, a dot inside the domain.
/// - `AWSURL` (RFC 1738): a scheme, then `//host` when there is an authority, and no `//` in the path.
/// - `AWSPhone`: digits with an optional leading `+`, grouped by spaces, hyphens, dots or parentheses.
/// - `AWSIPAddress`: IPv4 in dotted quads or IPv6 without brackets, with an optional `/prefix`.
public enum ScalarFormat: String, Sendable, CaseIterable {
    case date = "AWSDate"
    case time = "AWSTime"
    case dateTime = "AWSDateTime"
    case email = "AWSEmail"
    case url = "AWSURL"
    case phone = "AWSPhone"
    case ipAddress = "AWSIPAddress"

    /// The format of a scalar type name; nil for scalars without one (`String`, `ID`, …).
    public init?(scalar name: String) { self.init(rawValue: name) }

    /// A valid value, for error messages.
    public var example: String {
        switch self {
        case .date: "2025-01-31"
        case .time: "09:30:00"
        case .dateTime: "2025-01-31T09:30:00Z"
        case .email: "someone@example.com"
        case .url: "https://example.com/page"
        case .phone: "+1 206-555-0100"
        case .ipAddress: "192.0.2.1 or 2001:db8::1/64"
        }
    }

    /// True when `text` is a valid value of this format.
    public func accepts(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        switch self {
        case .date: return Self.isDate(bytes[...], offset: .optional)
        case .time: return Self.isTime(bytes[...], offset: .optional)
        case .dateTime:
            guard let t = bytes.firstIndex(of: UInt8(ascii: "T")) else { return false }
            return Self.isDate(bytes[..<t], offset: .none) && Self.isTime(bytes[(t + 1)...], offset: .required)
        case .email: return Self.isEmail(text)
        case .url: return Self.isURL(text)
        case .phone: return Self.isPhone(bytes)
        case .ipAddress: return IPAddressText.isValid(bytes)
        }
    }

    // MARK: Dates and times

    private enum Offset { case none, optional, required }

    private static func digits(_ bytes: ArraySlice<UInt8>, at start: Int, count: Int) -> Int? {
        guard start >= bytes.startIndex, start + count <= bytes.endIndex else { return nil }
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func isDate(_ bytes: ArraySlice<UInt8>, offset: Offset) -> Bool {
        var i = bytes.startIndex
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard let year = digits(bytes, at: i, count: 4), byte(bytes, i + 4) == UInt8(ascii: "-"),
              let month = digits(bytes, at: i + 5, count: 2), byte(bytes, i + 7) == UInt8(ascii: "-"),
              let day = digits(bytes, at: i + 8, count: 2), (1...12).contains(month)
        else { return false }
        // Year 0 counts as year 1, as the reference server's calendar has no year 0.
        guard day >= 1, day <= daysIn(month: month, year: year == 0 ? 1 : year) else { return false }
        return isOffset(bytes[(i + 10)...], offset)
    }

    private static func isTime(_ bytes: ArraySlice<UInt8>, offset: Offset) -> Bool {
        var i = bytes.startIndex
        guard let hours = digits(bytes, at: i, count: 2), hours < 24, byte(bytes, i + 2) == UInt8(ascii: ":"),
              let minutes = digits(bytes, at: i + 3, count: 2), minutes < 60
        else { return false }
        i += 5
        if byte(bytes, i) == UInt8(ascii: ":") {
            guard let seconds = digits(bytes, at: i + 1, count: 2), seconds < 60 else { return false }
            i += 3
            if byte(bytes, i) == UInt8(ascii: ".") {
                var count = 0
                i += 1
                while let next = byte(bytes, i), next >= 0x30, next <= 0x39 { count += 1; i += 1 }
                guard (1...9).contains(count) else { return false }
            }
        }
        return isOffset(bytes[i...], offset)
    }

    /// `Z` or `±hh:mm[:ss]`, or nothing where the offset is optional.
    private static func isOffset(_ bytes: ArraySlice<UInt8>, _ offset: Offset) -> Bool {
        if bytes.isEmpty { return offset != .required }
        guard offset != .none else { return false }
        let i = bytes.startIndex
        if bytes.count == 1 { return bytes[i] == UInt8(ascii: "Z") }
        guard bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-"), bytes.count == 6 || bytes.count == 9,
              let hours = digits(bytes, at: i + 1, count: 2), hours < 24, bytes[i + 3] == UInt8(ascii: ":"),
              let minutes = digits(bytes, at: i + 4, count: 2), minutes < 60
        else { return false }
        if bytes.count == 6 { return true }
        guard bytes[i + 6] == UInt8(ascii: ":"), let seconds = digits(bytes, at: i + 7, count: 2) else { return false }
        return seconds < 60
    }

    private static func byte(_ bytes: ArraySlice<UInt8>, _ index: Int) -> UInt8? {
        index >= bytes.startIndex && index < bytes.endIndex ? bytes[index] : nil
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // MARK: E-mail, URL, phone

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || (0x1C...0x1F).contains(scalar.value)
    }

    private static func isEmail(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard !scalars.contains(where: isSpace), let at = scalars.firstIndex(of: "@"),
              at > 0, !scalars[(at + 1)...].contains("@")
        else { return false }
        let domain = scalars[(at + 1)...]
        return domain.indices.contains { domain[$0] == "." && $0 > domain.startIndex && $0 < domain.endIndex - 1 }
    }

    private static func isURL(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard let colon = scalars.firstIndex(of: ":"), colon > 0, isASCIILetter(scalars[0]),
              scalars[1..<colon].allSatisfy({ isASCIILetter($0) || ("0"..."9").contains($0) || "+.-".unicodeScalars.contains($0) }),
              colon + 1 < scalars.count, !scalars.contains(where: isSpace)
        else { return false }
        var rest = String(String.UnicodeScalarView(scalars[(colon + 1)...]))
        if rest.hasPrefix("//") {
            let authority = rest.dropFirst(2)
            let slash = authority.firstIndex(of: "/") ?? authority.endIndex
            guard slash > authority.startIndex else { return false }
            rest = String(authority[slash...])
        }
        let path = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return !path.contains("//")
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isPhone(_ bytes: [UInt8]) -> Bool {
        let body = bytes.first == UInt8(ascii: "+") ? bytes.dropFirst() : bytes[...]
        guard body.count >= 3 else { return false }
        var digitCount = 0
        for byte in body {
            if byte >= 0x30 && byte <= 0x39 { digitCount += 1; continue }
            guard " ().-".utf8.contains(byte) else { return false }
        }
        return digitCount >= 3
    }
}

/// IPv4 and IPv6 addresses as AppSync's `AWSIPAddress` takes them, with an optional `/prefix`.
enum IPAddressText {
    static func isValid(_ bytes: [UInt8]) -> Bool {
        var address = bytes[...]
        var prefix: Int?
        if let slash = bytes.firstIndex(of: UInt8(ascii: "/")) {
            let digits = bytes[(slash + 1)...]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  digits.count == 1 || digits.first != UInt8(ascii: "0")
            else { return false }
            prefix = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            address = bytes[..<slash]
        }
        if address.contains(UInt8(ascii: ":")) {
            return isIPv6(address) && (prefix ?? 0) <= 128
        }
        return isIPv4(address) && (prefix ?? 0) <= 32
    }

    /// Four decimal octets 0-255, without leading zeros.
    static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { part in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  part.count == 1 || part.first != UInt8(ascii: "0")
            else { return false }
            return part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
        }
    }

    /// Eight groups of 1-4 hex digits, `::` once for a run of zero groups, an IPv4 tail for the last two.
    static func isIPv6(_ bytes: ArraySlice<UInt8>) -> Bool {
        let text = Array(bytes)
        var groups = 0
        var compressed = false
        var parts = text.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)[...]
        // "::" at either end gives two empty parts; collapse them into one.
        if text.starts(with: [58, 58]) { parts = parts.dropFirst() }
        if text.count >= 2, text.suffix(2) == [58, 58] { parts = parts.dropLast() }
        // A lone colon at either end is not a compression.
        if text.first == 58, !text.starts(with: [58, 58]) { return false }
        if text.last == 58, text.suffix(2) != [58, 58] { return false }
        for (index, part) in parts.enumerated() {
            if part.isEmpty {
                guard !compressed else { return false }
                compressed = true
                continue
            }
            if index == parts.count - 1, part.contains(UInt8(ascii: ".")) {
                guard isIPv4(part) else { return false }
                groups += 2
                continue
            }
            guard part.count <= 4, part.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || (0x61...0x66).contains($0 | 0x20) })
            else { return false }
            groups += 1
        }
        return compressed ? groups <= 7 : groups == 8
    }
}
