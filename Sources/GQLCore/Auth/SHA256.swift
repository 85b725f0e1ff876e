/// SHA-256 (FIPS 180-4), written out because gqlc has no crypto dependency; SigV4 needs it for body
/// hashes, the canonical request and, through ``HMACSHA256``, the signing key.
///
/// ```swift
/// SHA256.hash(Array("abc".utf8)).hexString   // "ba7816bf…f20015ad"
/// var hasher = SHA256()
/// hasher.update(part1); hasher.update(part2)
/// let digest = hasher.finalize()
/// ```
public struct SHA256: Sendable {
    /// Bytes in one digest.
    public static let digestLength = 32
    /// Bytes in one message block; HMAC pads its key to this length.
    public static let blockLength = 64

    private var state: [UInt32] = SHA256.initialState
    /// Input not yet processed (always fewer than 64 bytes between calls).
    private var pending: [UInt8] = []
    /// Total input length in bytes.
    private var length: UInt64 = 0

    /// A hasher with no input yet.
    public init() {
        pending.reserveCapacity(Self.blockLength)
    }

    /// The digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of the UTF-8 bytes of `text`.
    public static func hash(_ text: String) -> [UInt8] {
        hash(Array(text.utf8))
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: [UInt8]) {
        length &+= UInt64(bytes.count)
        var index = 0
        if !pending.isEmpty {
            let needed = Self.blockLength - pending.count
            let taken = min(needed, bytes.count)
            pending.append(contentsOf: bytes[0..<taken])
            index = taken
            guard pending.count == Self.blockLength else { return }
            let block = pending
            pending.removeAll(keepingCapacity: true)
            block.withUnsafeBufferPointer { compress($0, at: 0) }
        }
        bytes.withUnsafeBufferPointer { buffer in
            while buffer.count - index >= Self.blockLength {
                compress(buffer, at: index)
                index += Self.blockLength
            }
        }
        if index < bytes.count { pending.append(contentsOf: bytes[index...]) }
    }

    /// The digest of everything added; the hasher should not be used afterwards.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % Self.blockLength != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                compress(buffer, at: offset)
                offset += Self.blockLength
            }
        }
        pending.removeAll()
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestLength)
        for word in state {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// Processes the 64-byte block that starts at `offset`.
    private mutating func compress(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) {
        var schedule = [UInt32](repeating: 0, count: 64)
        for t in 0..<16 {
            let base = offset + t * 4
            schedule[t] = UInt32(buffer[base]) << 24 | UInt32(buffer[base + 1]) << 16
                | UInt32(buffer[base + 2]) << 8 | UInt32(buffer[base + 3])
        }
        for t in 16..<64 {
            let s0 = rotr(schedule[t - 15], 7) ^ rotr(schedule[t - 15], 18) ^ (schedule[t - 15] >> 3)
            let s1 = rotr(schedule[t - 2], 17) ^ rotr(schedule[t - 2], 19) ^ (schedule[t - 2] >> 10)
            schedule[t] = schedule[t - 16] &+ s0 &+ schedule[t - 7] &+ s1
        }
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        for t in 0..<64 {
            let sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ sum1 &+ choice &+ Self.roundConstants[t] &+ schedule[t]
            let sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = sum0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ temp1
            d = c
            c = b
            b = a
            a = temp1 &+ temp2
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    private func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }

    /// H(0): the first 32 bits of the fractional parts of the square roots of the first 8 primes.
    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    /// K: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

/// HMAC with SHA-256 (RFC 2104), for SigV4's signing-key derivation and signature.
public enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var blockKey = key.count > SHA256.blockLength ? SHA256.hash(key) : key
        blockKey += [UInt8](repeating: 0, count: SHA256.blockLength - blockKey.count)
        var inner = SHA256()
        inner.update(blockKey.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(blockKey.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// The code of the UTF-8 bytes of `message` under `key`.
    public static func authenticationCode(key: [UInt8], message: String) -> [UInt8] {
        authenticationCode(key: key, message: Array(message.utf8))
    }
}

extension Array where Element == UInt8 {
    /// The bytes as lowercase hexadecimal, two digits each (as SigV4 writes hashes and signatures).
    public var hexString: String {
        var text: [UInt8] = []
        text.reserveCapacity(count * 2)
        for byte in self { Hex.append(byte, to: &text) }
        return String(decoding: text, as: UTF8.self)
    }
}
