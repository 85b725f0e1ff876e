/// Cognito's SRP-6a (USER_SRP_AUTH), as the Amplify libraries compute it: the 3072-bit RFC 5054 group, g = 2,
/// SHA-256, Java-style padding in every hash, x from the pool name and USER_ID_FOR_SRP, a 16-byte HKDF
/// ("Caldera Derived Key") and the PASSWORD_CLAIM_SIGNATURE.
///
/// ```swift
/// let srp = CognitoSRP(poolId: "us-east-1_AbC123")
/// let a = CognitoSRP.randomSecret()
/// let srpA = srp.publicValue(a).hex                        // SRP_A
/// let signature = try srp.claimSignature(…)                 // PASSWORD_CLAIM_SIGNATURE
/// ```
public struct CognitoSRP: Sendable {
    /// RFC 3526 group 15 (RFC 5054's 3072-bit group).
    public static let modulus = BigUInt(hex:
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
        + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
        + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
        + "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
        + "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
        + "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
        + "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
        + "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF")
        ?? BigUInt(0)
    public static let generator = BigUInt(2)
    /// Montgomery arithmetic modulo N, set up once for every power a sign-in takes.
    static let arithmetic = Montgomery(modulus: modulus)
    /// k = H(PAD(N) ‖ PAD(g)).
    public static let multiplier = BigUInt(bytes: SHA256.hash(modulus.signedBytes + generator.signedBytes))

    /// The part of the pool id after `_` (`us-east-1_AbC123` → `AbC123`), which x and the signature use.
    public let poolName: String

    public init(poolId: String) {
        poolName = poolId.split(separator: "_", maxSplits: 1).dropFirst().first.map(String.init) ?? poolId
    }

    /// A fresh secret a: 128 random bytes, as amplify-js uses (the system generator: getrandom on Linux).
    public static func randomSecret() -> BigUInt {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 128)
        for index in bytes.indices { bytes[index] = generator.next() }
        return BigUInt(bytes: bytes)
    }

    /// A = g^a mod N, sent as `SRP_A` in lowercase hex.
    public func publicValue(_ secret: BigUInt) -> BigUInt {
        Self.arithmetic.power(Self.generator, secret)
    }

    /// The PASSWORD_VERIFIER answer's inputs, from the challenge.
    public struct Challenge: Sendable {
        public var userIdForSRP: String
        public var salt: String
        public var serverPublic: String
        public var secretBlock: String

        public init(userIdForSRP: String, salt: String, serverPublic: String, secretBlock: String) {
            self.userIdForSRP = userIdForSRP
            self.salt = salt
            self.serverPublic = serverPublic
            self.secretBlock = secretBlock
        }
    }

    /// The intermediate values, exposed for the test vector.
    public struct Derivation: Sendable {
        public var u: BigUInt
        public var x: BigUInt
        public var sharedSecret: BigUInt
        public var key: [UInt8]
    }

    /// u, x, S and the HKDF key for `password` (steps 3–6 of the protocol).
    public func derive(secret: BigUInt, password: String, challenge: Challenge) throws(CognitoError) -> Derivation {
        let n = Self.modulus
        guard let b = BigUInt(hex: challenge.serverPublic), !(b % n).isZero else {
            throw .badChallenge("SRP_B is not a usable hex number")
        }
        guard let salt = BigUInt(hex: challenge.salt) else { throw .badChallenge("SALT is not hex") }
        let a = publicValue(secret)
        let u = BigUInt(bytes: SHA256.hash(a.signedBytes + b.signedBytes))
        guard !u.isZero else { throw .badChallenge("u is zero") }
        let inner = SHA256.hash(poolName + challenge.userIdForSRP + ":" + password)
        let x = BigUInt(bytes: SHA256.hash(salt.signedBytes + inner))
        let gx = Self.arithmetic.power(Self.generator, x)
        let kgx = (Self.multiplier * gx) % n
        // B − k·g^x, brought into [0, N) without negatives.
        let base = ((b % n) + n - kgx) % n
        let shared = Self.arithmetic.power(base, secret + u * x)
        let prk = HMACSHA256.authenticationCode(key: u.signedBytes, message: shared.signedBytes)
        let okm = HMACSHA256.authenticationCode(key: prk, message: Array("Caldera Derived Key".utf8) + [1])
        return Derivation(u: u, x: x, sharedSecret: shared, key: Array(okm.prefix(16)))
    }

    /// PASSWORD_CLAIM_SIGNATURE: base64 of HMAC(key, poolName ‖ USER_ID_FOR_SRP ‖ secret block bytes ‖ timestamp).
    public func claimSignature(key: [UInt8], challenge: Challenge, timestamp: String) throws(CognitoError) -> String {
        guard let block = Self.decodeSecretBlock(challenge.secretBlock) else {
            throw .badChallenge("SECRET_BLOCK is not base64")
        }
        let message = Array(poolName.utf8) + Array(challenge.userIdForSRP.utf8) + block + Array(timestamp.utf8)
        return Base64.encode(HMACSHA256.authenticationCode(key: key, message: message))
    }

    /// Strict standard base64, else the URL-safe alphabet or missing padding (the block is echoed as received).
    static func decodeSecretBlock(_ text: String) -> [UInt8]? {
        if let bytes = Base64.decode(text) { return bytes }
        let stripped = String(text.filter { $0 != "=" })
        return Base64.decode(stripped, padded: false) ?? Base64.decode(stripped, alphabet: .url, padded: false)
    }

    /// TIMESTAMP as Cognito wants it: `Tue Mar 5 07:08:09 UTC 2024` (day not zero-padded, English names).
    public static func timestamp(_ moment: Timestamp) -> String {
        let parts = moment.civil
        let days = Timestamp.daysSinceEpoch(year: parts.year, month: parts.month, day: parts.day)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][parts.month - 1]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday) \(month) \(parts.day) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) UTC \(parts.year)"
    }
}
