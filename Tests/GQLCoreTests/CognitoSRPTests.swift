import Foundation
import Testing
@testable import GQLCore

/// The big integers against Python's own `pow`, `*`, `%` (Vectors/bigint-vectors.json, written by
/// make_bigint_vectors.py), and SRP against the research note's vector that amplify-js, pycognito and a reference
/// implementation agree on (§2.6 of cognito-auth.md).
@Suite struct CognitoSRPTests {
    static let vectors: [String: [[String: String]]] = {
        let url = TestPaths.repositoryRoot.appendingPathComponent("Tests/GQLCoreTests/Vectors/bigint-vectors.json")
        guard let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: [[String: String]]]
        else { return [:] }
        return object
    }()

    static func big(_ hex: String?) -> BigUInt {
        BigUInt(hex: hex ?? "") ?? BigUInt(0)
    }

    @Test func modularPowersMatchPython() {
        let cases = Self.vectors["powers"] ?? []
        #expect(cases.count > 150)
        for item in cases {
            let power = Self.big(item["base"]).power(Self.big(item["exponent"]), modulo: Self.big(item["modulus"]))
            #expect(power.hex == item["power"], "pow(\(item["base"]?.prefix(20) ?? ""), …, \(item["modulus"]?.prefix(20) ?? ""))")
        }
    }

    @Test func arithmeticMatchesPython() {
        let cases = Self.vectors["arithmetic"] ?? []
        #expect(cases.count > 20)
        for item in cases {
            let a = Self.big(item["a"]), b = Self.big(item["b"])
            #expect((a * b).hex == item["product"])
            #expect((a + b).hex == item["sum"])
            #expect((a % b).hex == item["remainder"])
            #expect((max(a, b) - min(a, b)).hex == item["difference"])
        }
    }

    @Test func conversions() throws {
        let value = try #require(BigUInt(hex: "00ff0000000000000001"))
        #expect(value.hex == "ff0000000000000001")
        #expect(value.bytes == [0xff, 0, 0, 0, 0, 0, 0, 0, 1])
        #expect(value.signedBytes == [0, 0xff, 0, 0, 0, 0, 0, 0, 0, 1])
        #expect(BigUInt(bytes: [0, 0, 0x7f]).signedBytes == [0x7f])
        #expect(BigUInt(0).hex == "0")
        #expect(BigUInt(hex: "xyz") == nil)
        #expect(BigUInt(hex: "") == nil)
        #expect(CognitoSRP.modulus.signedBytes.count == 385)
    }

    // MARK: - The §2.6 vector

    static let challenge = CognitoSRP.Challenge(
        userIdForSRP: "alice", salt: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf", serverPublic: serverPublic.hex,
        secretBlock: Base64.encode(Array("gqlc-test-secret-block:".utf8) + (0...255).map { UInt8($0) }))
    static let secret = BigUInt(bytes: (1...128).map { UInt8($0) })
    static let srp = CognitoSRP(poolId: "us-east-1_ExAmPlE12")
    /// B = k·g^x + g^b, as the server computes it.
    static var serverPublic: BigUInt {
        let n = CognitoSRP.modulus
        let inner = SHA256.hash("ExAmPlE12alice:Passw0rd!x")
        let salt = BigUInt(bytes: (0xa0...0xaf).map { UInt8($0) })
        let x = BigUInt(bytes: SHA256.hash(salt.signedBytes + inner))
        let v = CognitoSRP.generator.power(x, modulo: n)
        let b = BigUInt(bytes: (0x40...0x5f).map { UInt8($0) })
        return (CognitoSRP.multiplier * v + CognitoSRP.generator.power(b, modulo: n)) % n
    }

    @Test func vectorConstantsAndPublicValues() {
        #expect(CognitoSRP.multiplier.hex == "538282c4354742d7cbbde2359fcf67f9f5b3a6b08791e5011b43b8a5b66d9ee6")
        #expect(Self.srp.poolName == "ExAmPlE12")
        let a = Self.srp.publicValue(Self.secret)
        #expect(a.hex.count == 768)
        #expect(a.hex.hasPrefix("ce00119aff3d209146734fd8a5754ea0"))
        #expect(SHA256.hash(a.signedBytes).hexString == "742b9fbe8b911d0ba377225e083b83e6e6e6cb3ee36e9d882305913172110484")
        let b = Self.serverPublic
        #expect(b.hex.hasPrefix("54b69584a7c8592a7c5f4bcb4566e834"))
        #expect(SHA256.hash(b.signedBytes).hexString == "8dc2b61d770aae7789bba793fa555536c1328ad6d6c9a79301990fec62c2790b")
    }

    @Test func vectorDerivationAndSignature() throws {
        let derived = try Self.srp.derive(secret: Self.secret, password: "Passw0rd!x", challenge: Self.challenge)
        #expect(derived.u.hex == "9a8abbbb6d84d6390a378480439bcebbe45d052da53edec4c19da0b0650441ad")
        #expect(derived.x.hex == "c9f0fa622865fde31cd7bbf34c8bad3187820e9bba2616e1c3acc71e291bf678")
        #expect(SHA256.hash(derived.sharedSecret.signedBytes).hexString
            == "2acbb6394078a5e665d51301eb0488c3279aa90585d18c0c7574925074761756")
        #expect(derived.key.hexString == "8271a7c07087aecd3581d3a2825deb4a")
        let signature = try Self.srp.claimSignature(key: derived.key, challenge: Self.challenge, timestamp: "Tue Mar 5 07:08:09 UTC 2024")
        #expect(signature == "Ss9CJEuhGiTC8A7VV71NUOhA/ohxg+XAdV9iK5Dbd4c=")
    }

    @Test func wrongPasswordGivesAnotherKey() throws {
        let derived = try Self.srp.derive(secret: Self.secret, password: "Passw0rd!y", challenge: Self.challenge)
        #expect(derived.key.hexString != "8271a7c07087aecd3581d3a2825deb4a")
    }

    @Test func unusableChallengesAreRefused() {
        var zeroB = Self.challenge
        zeroB.serverPublic = CognitoSRP.modulus.hex
        #expect(throws: CognitoError.self) { try Self.srp.derive(secret: Self.secret, password: "p", challenge: zeroB) }
        var notHex = Self.challenge
        notHex.salt = "zz"
        #expect(throws: CognitoError.self) { try Self.srp.derive(secret: Self.secret, password: "p", challenge: notHex) }
    }

    @Test(arguments: [
        (1_709_622_489.0, "Tue Mar 5 07:08:09 UTC 2024"),
        (0.0, "Thu Jan 1 00:00:00 UTC 1970"),
        (1_735_603_199.0, "Mon Dec 30 23:59:59 UTC 2024"),
        (1_704_067_200.0, "Mon Jan 1 00:00:00 UTC 2024"),
    ])
    func timestamps(seconds: Double, text: String) {
        #expect(CognitoSRP.timestamp(Timestamp(secondsSince1970: seconds)) == text)
    }

    @Test func jwtClaimsAreReadWithoutVerification() throws {
        let payload = Base64.encode(Array(#"{"exp":1700000000,"username":"bob","cognito:groups":["admin"]}"#.utf8), alphabet: .url, padded: false)
        let claims = try #require(JWTClaims(token: "eyJhbGciOiJSUzI1NiJ9.\(payload).c2ln"))
        #expect(claims.string("username") == "bob")
        #expect(claims.expiry == Timestamp(secondsSince1970: 1_700_000_000))
        #expect(claims.groups == ["admin"])
        #expect(JWTClaims(token: "not a token") == nil)
    }
}
