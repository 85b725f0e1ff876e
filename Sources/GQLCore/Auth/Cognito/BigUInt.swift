/// An unsigned integer of any size: what SRP needs (hex and bytes in and out, compare, add, subtract,
/// multiply, remainder, and modular exponentiation by an odd modulus with Montgomery multiplication, in
/// `Montgomery`).
///
/// Limbs are 64-bit, least significant first, with no zero limbs at the top (zero has none).
/// Not constant-time: the secrets it handles belong to the user running the process.
///
/// ```swift
/// let n = BigUInt(hex: "f7")!
/// BigUInt(2).power(BigUInt(10), modulo: n).hex   // "4" (1024 mod 247)
/// ```
public struct BigUInt: Sendable, Equatable, Comparable {
    /// Least significant limb first, normalised.
    public private(set) var limbs: [UInt64]

    /// From limbs, least significant first; top zero limbs are dropped.
    public init(limbs: [UInt64]) {
        self.limbs = limbs
        normalize()
    }

    public init(_ value: UInt64) {
        self.init(limbs: [value])
    }

    /// From big-endian bytes (leading zeros allowed).
    public init(bytes: [UInt8]) {
        var limbs = [UInt64](repeating: 0, count: (bytes.count + 7) / 8)
        for (offset, byte) in bytes.reversed().enumerated() {
            limbs[offset / 8] |= UInt64(byte) << UInt64(offset % 8 * 8)
        }
        self.init(limbs: limbs)
    }

    /// From hexadecimal digits (either case, leading zeros allowed); nil when empty or not hex.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard !digits.isEmpty else { return nil }
        var limbs = [UInt64](repeating: 0, count: (digits.count + 15) / 16)
        for (offset, digit) in digits.reversed().enumerated() {
            guard let value = Hex.value(digit) else { return nil }
            limbs[offset / 16] |= UInt64(value) << UInt64(offset % 16 * 4)
        }
        self.init(limbs: limbs)
    }

    public var isZero: Bool { limbs.isEmpty }

    /// The number of significant bits (0 for zero).
    public var bitWidth: Int {
        guard let top = limbs.last else { return 0 }
        return limbs.count * 64 - top.leadingZeroBitCount
    }

    /// Lowercase hex with no leading zeros; `"0"` for zero.
    public var hex: String {
        guard let top = limbs.last else { return "0" }
        var text = String(top, radix: 16)
        for limb in limbs.dropLast().reversed() {
            let digits = String(limb, radix: 16)
            text += String(repeating: "0", count: 16 - digits.count) + digits
        }
        return text
    }

    /// The minimal big-endian bytes (none for zero).
    public var bytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(limbs.count * 8)
        for limb in limbs.reversed() {
            for shift in stride(from: 56, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift))) }
        }
        return Array(result.drop { $0 == 0 })
    }

    /// Java's `BigInteger.toByteArray()` for a non-negative value: the minimal bytes, with a `00` in front when
    /// the top bit is set (Cognito's SRP hashes these).
    public var signedBytes: [UInt8] {
        let minimal = bytes
        guard let first = minimal.first else { return [0] }
        return first & 0x80 != 0 ? [0] + minimal : minimal
    }

    public func bit(_ index: Int) -> Bool {
        let limb = index / 64
        return limb < limbs.count && limbs[limb] >> UInt64(index % 64) & 1 == 1
    }

    public static func < (lhs: BigUInt, rhs: BigUInt) -> Bool { compare(lhs.limbs, rhs.limbs) < 0 }

    public static func + (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        var result = lhs.limbs
        add(&result, rhs.limbs)
        return BigUInt(limbs: result)
    }

    /// `lhs - rhs`; `lhs` must not be smaller.
    public static func - (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        precondition(lhs >= rhs, "BigUInt subtraction below zero")
        var result = lhs.limbs
        subtract(&result, rhs.limbs)
        return BigUInt(limbs: result)
    }

    public static func * (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        guard !lhs.isZero, !rhs.isZero else { return BigUInt(limbs: []) }
        var result = [UInt64](repeating: 0, count: lhs.limbs.count + rhs.limbs.count)
        result.withUnsafeMutableBufferPointer { product in
            lhs.limbs.withUnsafeBufferPointer { left in
                rhs.limbs.withUnsafeBufferPointer { right in
                    guard let r = product.baseAddress, let a = left.baseAddress, let b = right.baseAddress else { return }
                    for i in 0..<left.count {
                        r[i + right.count] = LimbRows.addProduct(r + i, b, count: right.count, multiplier: a[i])
                    }
                }
            }
        }
        return BigUInt(limbs: result)
    }

    /// The remainder of dividing by `modulus` (not zero), by shift-and-subtract over raw limbs.
    public static func % (lhs: BigUInt, modulus: BigUInt) -> BigUInt {
        precondition(!modulus.isZero, "BigUInt remainder by zero")
        if lhs < modulus { return lhs }
        let n = modulus.limbs.count
        // One limb wider than the modulus: before the subtraction the running remainder is below 2·modulus.
        var remainder = [UInt64](repeating: 0, count: n + 1)
        remainder.withUnsafeMutableBufferPointer { remainderBuffer in
            modulus.limbs.withUnsafeBufferPointer { modulusBuffer in
                lhs.limbs.withUnsafeBufferPointer { valueBuffer in
                    guard let r = remainderBuffer.baseAddress, let d = modulusBuffer.baseAddress,
                          let x = valueBuffer.baseAddress else { return }
                    var index = lhs.bitWidth - 1
                    while index >= 0 {
                        var carry = x[index &>> 6] &>> UInt64(index & 63) & 1
                        var k = 0
                        while k <= n {
                            let next = r[k] &>> 63
                            r[k] = r[k] &<< 1 | carry
                            carry = next
                            k &+= 1
                        }
                        var atLeast = r[n] != 0
                        if !atLeast {
                            atLeast = true
                            k = n - 1
                            while k >= 0 {
                                if r[k] != d[k] { atLeast = r[k] > d[k]; break }
                                k -= 1
                            }
                        }
                        if atLeast {
                            var borrow: UInt64 = 0
                            k = 0
                            while k <= n {
                                let subtrahend = k < n ? d[k] : 0
                                let difference1 = r[k] &- subtrahend
                                let difference2 = difference1 &- borrow
                                borrow = (r[k] < subtrahend ? 1 : 0) | (difference1 < borrow ? 1 : 0)
                                r[k] = difference2
                                k &+= 1
                            }
                        }
                        index -= 1
                    }
                }
            }
        }
        return BigUInt(limbs: remainder)
    }

    /// `self ^ exponent mod modulus` for an odd modulus above 1 (Montgomery multiplication, 4-bit windows).
    public func power(_ exponent: BigUInt, modulo modulus: BigUInt) -> BigUInt {
        precondition(modulus.limbs.first.map { $0 & 1 == 1 } == true && modulus > BigUInt(1), "odd modulus above 1 expected")
        return Montgomery(modulus: modulus).power(self, exponent)
    }

    /// The `width` bits from bit `index` up, as a number (bits past the top are zero).
    func window(at index: Int, width: Int) -> Int {
        var value = 0
        for offset in stride(from: width - 1, through: 0, by: -1) { value = value << 1 | (bit(index + offset) ? 1 : 0) }
        return value
    }

    // MARK: - Limb arithmetic

    private mutating func normalize() {
        while limbs.last == 0 { limbs.removeLast() }
    }

    /// -1, 0 or 1 for normalised limb arrays.
    static func compare(_ lhs: [UInt64], _ rhs: [UInt64]) -> Int {
        if lhs.count != rhs.count { return lhs.count < rhs.count ? -1 : 1 }
        for index in stride(from: lhs.count - 1, through: 0, by: -1) where lhs[index] != rhs[index] {
            return lhs[index] < rhs[index] ? -1 : 1
        }
        return 0
    }

    static func add(_ target: inout [UInt64], _ other: [UInt64]) {
        if target.count < other.count { target += [UInt64](repeating: 0, count: other.count - target.count) }
        var carry = false
        for index in target.indices {
            let addend = index < other.count ? other[index] : 0
            if !carry && index >= other.count { break }
            let (sum1, overflow1) = target[index].addingReportingOverflow(addend)
            let (sum2, overflow2) = sum1.addingReportingOverflow(carry ? 1 : 0)
            target[index] = sum2
            carry = overflow1 || overflow2
        }
        if carry { target.append(1) }
    }

    /// `target -= other` where `target >= other`; leaves `target` normalised.
    static func subtract(_ target: inout [UInt64], _ other: [UInt64]) {
        var borrow = false
        for index in target.indices {
            let subtrahend = index < other.count ? other[index] : 0
            if !borrow && index >= other.count { break }
            let (difference1, overflow1) = target[index].subtractingReportingOverflow(subtrahend)
            let (difference2, overflow2) = difference1.subtractingReportingOverflow(borrow ? 1 : 0)
            target[index] = difference2
            borrow = overflow1 || overflow2
        }
        while target.last == 0 { target.removeLast() }
    }
}
