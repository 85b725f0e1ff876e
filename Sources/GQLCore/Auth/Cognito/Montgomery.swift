/// Montgomery arithmetic modulo an odd `modulus` N of n limbs: values are n-limb arrays in Montgomery form
/// (x·R mod N, R = 2^(64·n)), and powers are taken with a fixed 4-bit window.
///
/// The loops work on raw pointers into one workspace with wrapping operators and no helper calls, so that a debug
/// build (where array subscripts and small functions are not inlined) still signs in quickly: SRP takes three
/// 3072-bit powers per sign-in, and the end-to-end tests sign in often.
struct Montgomery: Sendable {
    let modulus: [UInt64]
    /// -N⁻¹ mod 2^64.
    let inverse: UInt64
    /// R² mod N, to enter Montgomery form.
    let rSquared: [UInt64]

    /// Window width in bits: 16 table entries per power.
    private static let windowBits = 4

    init(modulus: BigUInt) {
        self.modulus = modulus.limbs
        // Newton's iteration for N⁻¹ mod 2^64: each step doubles the correct low bits (N·N ≡ 1 mod 8 to start).
        var inverse = modulus.limbs[0]
        for _ in 0..<5 { inverse = inverse &* (2 &- modulus.limbs[0] &* inverse) }
        self.inverse = 0 &- inverse
        let r2 = BigUInt(limbs: [UInt64](repeating: 0, count: 2 * modulus.limbs.count) + [1]) % modulus
        rSquared = r2.limbs + [UInt64](repeating: 0, count: modulus.limbs.count - r2.limbs.count)
    }

    /// `base ^ exponent mod N`.
    func power(_ base: BigUInt, _ exponent: BigUInt) -> BigUInt {
        let n = modulus.count
        let entries = 1 << Self.windowBits
        // The workspace: the window table, the accumulator, the product's scratch (2n + 1), N, R², and a plain 1.
        let tableAt = 0, accumulatorAt = entries * n, scratchAt = accumulatorAt + n
        let modulusAt = scratchAt + 2 * n + 1, rSquaredAt = modulusAt + n, oneAt = rSquaredAt + n
        var workspace = [UInt64](repeating: 0, count: oneAt + n)
        let reduced = base % BigUInt(limbs: modulus)
        for (index, limb) in reduced.limbs.enumerated() { workspace[tableAt + n + index] = limb }
        for (index, limb) in modulus.enumerated() { workspace[modulusAt + index] = limb }
        for (index, limb) in rSquared.enumerated() { workspace[rSquaredAt + index] = limb }
        workspace[oneAt] = 1
        let windows = (exponent.bitWidth + Self.windowBits - 1) / Self.windowBits
        workspace.withUnsafeMutableBufferPointer { buffer in
            guard let space = buffer.baseAddress else { return }
            let table = space + tableAt, accumulator = space + accumulatorAt, scratch = space + scratchAt
            let modulus = space + modulusAt, one = space + oneAt
            func multiply(_ result: UnsafeMutablePointer<UInt64>, _ a: UnsafeMutablePointer<UInt64>, _ b: UnsafeMutablePointer<UInt64>) {
                Self.multiply(result, a, b, modulus: modulus, scratch: scratch, count: n, inverse: inverse)
            }
            // table[0] = R mod N (1), table[1] = base·R mod N, table[k] = table[k-1]·table[1].
            multiply(table, one, space + rSquaredAt)
            multiply(table + n, table + n, space + rSquaredAt)
            for entry in 2..<entries { multiply(table + entry * n, table + (entry - 1) * n, table + n) }
            Self.copy(accumulator, table, count: n)
            for window in stride(from: windows - 1, through: 0, by: -1) {
                if window != windows - 1 {
                    for _ in 0..<Self.windowBits { multiply(accumulator, accumulator, accumulator) }
                }
                let digit = exponent.window(at: window * Self.windowBits, width: Self.windowBits)
                if digit != 0 { multiply(accumulator, accumulator, table + digit * n) }
            }
            multiply(accumulator, accumulator, one)
        }
        return BigUInt(limbs: Array(workspace[accumulatorAt..<accumulatorAt + n]))
    }

    /// `result = a·b·R⁻¹ mod N` (separated operand scanning: the product, then its reduction) for a and b below N;
    /// `result` may be `a` or `b`. `scratch` holds 2n + 1 limbs.
    private static func multiply(
        _ result: UnsafeMutablePointer<UInt64>, _ a: UnsafeMutablePointer<UInt64>, _ b: UnsafeMutablePointer<UInt64>,
        modulus: UnsafeMutablePointer<UInt64>, scratch: UnsafeMutablePointer<UInt64>, count n: Int, inverse: UInt64
    ) {
        var k = 0
        while k <= 2 * n { scratch[k] = 0; k &+= 1 }
        // scratch = a·b: row i adds a·b[i] at limb i; the limb above the row is still zero.
        var i = 0
        while i < n {
            scratch[i + n] = LimbRows.addProduct(scratch + i, a, count: n, multiplier: b[i])
            i &+= 1
        }
        // Add m·N at limb i, with m chosen so that limb i becomes zero; then scratch[n...2n] = a·b·R⁻¹ (below 2N).
        i = 0
        while i < n {
            let carry = LimbRows.addProduct(scratch + i, modulus, count: n, multiplier: scratch[i] &* inverse)
            LimbRows.addCarry(scratch + i + n, carry)
            i &+= 1
        }
        let t = scratch + n
        // t < 2N: subtract N once when t ≥ N.
        var subtract = t[n] != 0
        if !subtract {
            subtract = true
            var index = n - 1
            while index >= 0 {
                if t[index] != modulus[index] { subtract = t[index] > modulus[index]; break }
                index -= 1
            }
        }
        if subtract {
            var borrow: UInt64 = 0
            var index = 0
            while index < n {
                let difference1 = t[index] &- modulus[index]
                let difference2 = difference1 &- borrow
                borrow = (t[index] < modulus[index] ? 1 : 0) | (difference1 < borrow ? 1 : 0)
                t[index] = difference2
                index &+= 1
            }
        }
        copy(result, t, count: n)
    }

    private static func copy(_ target: UnsafeMutablePointer<UInt64>, _ source: UnsafeMutablePointer<UInt64>, count: Int) {
        var index = 0
        while index < count { target[index] = source[index]; index &+= 1 }
    }
}

/// Row operations on raw limbs, shared by `BigUInt.*` and `Montgomery`. The row loop is the hot loop of SRP; it is
/// written with wrapping operators only, so that it stays fast in debug builds, where calls into the standard library
/// and array subscripts are not inlined.
enum LimbRows {
    /// `target[0..<count] += source[0..<count] · multiplier`; returns the limb carried out of the top (the caller puts
    /// it at `target[count]`).
    static func addProduct(
        _ target: UnsafeMutablePointer<UInt64>, _ source: UnsafePointer<UInt64>, count: Int, multiplier: UInt64
    ) -> UInt64 {
        var carry: UInt64 = 0
        var j = 0
        while j < count {
            let (high, low) = source[j].multipliedFullWidth(by: multiplier)
            let limb = target[j]
            let sum1 = low &+ limb
            let sum2 = sum1 &+ carry
            // Carries by bit logic (the top bit of (x∧y) ∨ ((x∨y) ∧ ¬sum)): a compare would be a branch that random
            // limbs mispredict half the time.
            let carry1 = ((low & limb) | ((low | limb) & ~sum1)) &>> 63
            let carry2 = ((sum1 & carry) | ((sum1 | carry) & ~sum2)) &>> 63
            carry = high &+ carry1 &+ carry2
            target[j] = sum2
            j &+= 1
        }
        return carry
    }

    /// `target += value`, the carry rippling up; the caller makes room for it.
    static func addCarry(_ target: UnsafeMutablePointer<UInt64>, _ value: UInt64) {
        var carry = value
        var index = 0
        while carry != 0 {
            let sum = target[index] &+ carry
            carry = sum < carry ? 1 : 0
            target[index] = sum
            index &+= 1
        }
    }
}
