/// An unsigned integer of any size: what SRP needs (hex and bytes in and out, compare, add, subtract,
/// multiply, remainder, and modular exponentiation by an odd modulus with Montgomery multiplication).
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
        for (i, a) in lhs.limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, b) in rhs.limbs.enumerated() {
                (carry, result[i + j]) = multiplyAdd(a, b, result[i + j], carry)
            }
            result[i + rhs.limbs.count] = carry
        }
        return BigUInt(limbs: result)
    }

    /// The remainder of dividing by `modulus` (not zero), by shift-and-subtract: used outside hot loops only.
    public static func % (lhs: BigUInt, modulus: BigUInt) -> BigUInt {
        precondition(!modulus.isZero, "BigUInt remainder by zero")
        if lhs < modulus { return lhs }
        var remainder: [UInt64] = []
        for index in stride(from: lhs.bitWidth - 1, through: 0, by: -1) {
            shiftLeftOne(&remainder, carryIn: lhs.bit(index))
            if compare(remainder, modulus.limbs) >= 0 { subtract(&remainder, modulus.limbs) }
        }
        return BigUInt(limbs: remainder)
    }

    /// `self ^ exponent mod modulus` for an odd modulus above 1 (Montgomery multiplication, square and multiply).
    public func power(_ exponent: BigUInt, modulo modulus: BigUInt) -> BigUInt {
        precondition(modulus.limbs.first.map { $0 & 1 == 1 } == true && modulus > BigUInt(1), "odd modulus above 1 expected")
        let context = Montgomery(modulus: modulus)
        var result = context.one
        let base = context.enter(self % modulus)
        for index in stride(from: exponent.bitWidth - 1, through: 0, by: -1) {
            result = context.multiply(result, result)
            if exponent.bit(index) { result = context.multiply(result, base) }
        }
        return BigUInt(limbs: context.leave(result))
    }

    // MARK: - Limb arithmetic

    private mutating func normalize() {
        while limbs.last == 0 { limbs.removeLast() }
    }

    /// `(high, low)` of `a * b + c + d`, which always fits in 128 bits.
    @inline(__always)
    static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (UInt64, UInt64) {
        let (high, low) = a.multipliedFullWidth(by: b)
        let (sum1, overflow1) = low.addingReportingOverflow(c)
        let (sum2, overflow2) = sum1.addingReportingOverflow(d)
        return (high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0), sum2)
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

    /// `target = target * 2 + carryIn`, normalised.
    private static func shiftLeftOne(_ target: inout [UInt64], carryIn: Bool) {
        var carry: UInt64 = carryIn ? 1 : 0
        for index in target.indices {
            let next = target[index] >> 63
            target[index] = target[index] << 1 | carry
            carry = next
        }
        if carry != 0 { target.append(carry) }
    }
}

/// Montgomery arithmetic modulo an odd `modulus`: values are fixed-width limb arrays in Montgomery form (x·R mod N,
/// R = 2^(64·n)).
struct Montgomery {
    let modulus: [UInt64]
    /// -N⁻¹ mod 2^64.
    let inverse: UInt64
    /// R² mod N, to enter Montgomery form.
    let rSquared: [UInt64]

    init(modulus: BigUInt) {
        self.modulus = modulus.limbs
        // Newton's iteration for N⁻¹ mod 2^64: each step doubles the correct low bits (N·N ≡ 1 mod 8 to start).
        var inverse = modulus.limbs[0]
        for _ in 0..<5 { inverse = inverse &* (2 &- modulus.limbs[0] &* inverse) }
        self.inverse = 0 &- inverse
        let r2 = BigUInt(limbs: [UInt64](repeating: 0, count: 2 * modulus.limbs.count) + [1]) % modulus
        rSquared = Self.widen(r2.limbs, to: modulus.limbs.count)
    }

    /// 1 in Montgomery form (R mod N).
    var one: [UInt64] { multiply(rSquared, Self.widen([1], to: modulus.count)) }

    /// `value` (below N) in Montgomery form.
    func enter(_ value: BigUInt) -> [UInt64] { multiply(Self.widen(value.limbs, to: modulus.count), rSquared) }

    /// Back from Montgomery form.
    func leave(_ value: [UInt64]) -> [UInt64] { multiply(value, Self.widen([1], to: modulus.count)) }

    /// a·b·R⁻¹ mod N (CIOS), for a and b below N.
    func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let n = modulus.count
        var t = [UInt64](repeating: 0, count: n + 2)
        for i in 0..<n {
            var carry: UInt64 = 0
            for j in 0..<n { (carry, t[j]) = BigUInt.multiplyAdd(a[j], b[i], t[j], carry) }
            var overflow: Bool
            (t[n], overflow) = t[n].addingReportingOverflow(carry)
            t[n + 1] = overflow ? 1 : 0
            let m = t[0] &* inverse
            (carry, _) = BigUInt.multiplyAdd(m, modulus[0], t[0], 0)
            for j in 1..<n { (carry, t[j - 1]) = BigUInt.multiplyAdd(m, modulus[j], t[j], carry) }
            (t[n - 1], overflow) = t[n].addingReportingOverflow(carry)
            t[n] = t[n + 1] &+ (overflow ? 1 : 0)
        }
        var result = Array(t[0...n])
        if result[n] != 0 || BigUInt.compare(BigUInt(limbs: result).limbs, modulus) >= 0 {
            BigUInt.subtract(&result, modulus)
        }
        return Self.widen(Array(result.prefix(n)), to: n)
    }

    private static func widen(_ limbs: [UInt64], to count: Int) -> [UInt64] {
        limbs + [UInt64](repeating: 0, count: max(0, count - limbs.count))
    }
}
