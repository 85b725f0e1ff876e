import Testing
@testable import GQLCore

@Suite struct ResumeTokenTests {
    @Test(arguments: [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
                      ("foobar", "Zm9vYmFy")])
    func base64URLMatchesRFC4648(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8), alphabet: .url, padded: false) == encoded)
        #expect(Base64.decode(encoded, alphabet: .url, padded: false) == Array(plain.utf8))
    }

    @Test func base64URLUsesTheURLAlphabetAndRefusesOtherSpellings() {
        #expect(Base64.encode([0xfb, 0xff], alphabet: .url, padded: false) == "-_8")
        #expect(Base64.decode("-_8", alphabet: .url, padded: false) == [0xfb, 0xff])
        for bad in ["+/8", "Zg==", "Zh", "Z", "Zm9v!"] { #expect(Base64.decode(bad, alphabet: .url, padded: false) == nil, "\(bad)") }
    }

    @Test func aPlainServerTokenIsUsedAsItIs() throws {
        let position = try ResumeToken.position("eyJ2ZXJzaW9uIjoy+/=", listing: "k", pageSize: 250)
        #expect(position == ListPosition(token: "eyJ2ZXJzaW9uIjoy+/=", skip: 0, pageSize: 250))
        #expect(ResumeToken.text(for: position, listing: "k") == "eyJ2ZXJzaW9uIjoy+/=")
    }

    @Test func aPositionInsideAPageRoundTrips() throws {
        for position in [ListPosition(token: "abc-_", skip: 3, pageSize: 250), ListPosition(token: nil, skip: 1, pageSize: 1000)] {
            let text = try #require(ResumeToken.text(for: position, listing: "0123456789abcdef"))
            #expect(text.hasPrefix("gqlc1:"))
            #expect(try ResumeToken.position(text, listing: "0123456789abcdef", pageSize: 7) == position)
        }
    }

    @Test func theTokenHoldsTheDocumentedFields() throws {
        let text = try #require(ResumeToken.text(for: ListPosition(token: "T", skip: 2, pageSize: 9), listing: "L"))
        let json = try #require(Base64.decode(String(text.dropFirst("gqlc1:".count)), alphabet: .url, padded: false))
        #expect(String(decoding: json, as: UTF8.self) == #"{"l":"L","p":9,"s":2,"t":"T"}"#)
    }

    @Test func theStartWithNothingDeliveredHasNoToken() {
        #expect(ResumeToken.text(for: ListPosition(token: nil, pageSize: 5), listing: "k") == nil)
    }

    @Test func anotherListingsTokenIsRefused() throws {
        let text = try #require(ResumeToken.text(for: ListPosition(token: "T", skip: 2, pageSize: 9), listing: "one"))
        #expect(throws: ResumeTokenError.otherListing) { try ResumeToken.position(text, listing: "two", pageSize: 9) }
    }

    @Test(arguments: [
        "gqlc1:", "gqlc1:!!", "gqlc1:e30",  // empty, not base64url, {}
        "gqlc1:" + Base64.encode(Array(#"{"l":"k","p":0,"s":2,"t":"T"}"#.utf8), alphabet: .url, padded: false),
        "gqlc1:" + Base64.encode(Array(#"{"l":"k","p":5,"s":0,"t":"T"}"#.utf8), alphabet: .url, padded: false),
        "gqlc1:" + Base64.encode(Array(#"{"l":"k","p":5,"s":2,"t":""}"#.utf8), alphabet: .url, padded: false),
        "gqlc1:" + Base64.encode(Array(#"{"l":"k","p":5,"s":2,"t":3}"#.utf8), alphabet: .url, padded: false),
        "gqlc1:" + Base64.encode(Array(#"{"l":"k","p":5,"s":2}"#.utf8), alphabet: .url, padded: false),
    ])
    func damagedTokensAreRefused(text: String) {
        #expect(throws: ResumeTokenError.malformed) { try ResumeToken.position(text, listing: "k", pageSize: 9) }
    }

    @Test func theListingKeyDependsOnWhatSelectsTheItemsOnly() throws {
        let builder = RequestBuilder(schema: try TestSchemas.blog())
        let plain = try builder.listPages("Comment").listingKey
        #expect(plain.count == 16)
        #expect(try builder.listPages("Comment", include: ["post"]).listingKey == plain)
        #expect(try builder.listPages("Comment", filter: FilterInput(where: ["likes>3"])).listingKey != plain)
        #expect(try builder.listPages("Post").listingKey != plain)
        let index = try builder.indexPages("Comment", index: "commentsByPostId", filter: FilterInput(where: ["post=p1"]))
        let otherPartition = try builder.indexPages("Comment", index: "commentsByPostId", filter: FilterInput(where: ["post=p2"]))
        #expect(index.listingKey != otherPartition.listingKey && index.listingKey != plain)
    }
}
