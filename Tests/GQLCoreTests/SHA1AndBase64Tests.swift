import Testing
@testable import GQLCore

/// SHA-1 against the FIPS 180 / NIST examples; base64 against RFC 4648 §10.
@Suite struct SHA1AndBase64Tests {
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "a49b2446a02c645bf419f995b67091253a04a259"),
    ])
    func nistExamples(message: String, digest: String) {
        #expect(SHA1.hash(message).hexString == digest)
    }

    @Test func oneMillionAs() {
        #expect(SHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)).hexString
            == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(input: String, encoded: String) {
        #expect(Base64.encode(Array(input.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(input.utf8))
    }

    /// Only the canonical spelling decodes: padding as asked, no stray characters, no spare bits set.
    @Test func decodingRefusesNonCanonicalText() {
        for bad in ["Zg", "Zg=", "Zh==", "Z===", "Zm9v!", "-_-_", "Zm 9v"] { #expect(Base64.decode(bad) == nil, "\(bad)") }
        #expect(Base64.decode("-_-_", alphabet: .url) == [0xFB, 0xFF, 0xBF])
        #expect(Base64.decode("Zm8=", alphabet: .url, padded: false) == nil)
    }

    /// The URL alphabet swaps `+/` for `-_`; unpadded output drops the `=`.
    @Test func urlAlphabetWithoutPadding() {
        #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
        #expect(Base64.encode([0xFB, 0xFF, 0xBF], alphabet: .url) == "-_-_")
        #expect(Base64.encode(Array("{\"a\":1}".utf8), alphabet: .url, padded: false) == "eyJhIjoxfQ")
        #expect(Base64.encode(Array("fo".utf8), alphabet: .url, padded: false) == "Zm8")
    }
}
