import GQLCore
import Testing

@testable import gqlc

@Suite struct SmallValueTests {
    @Test func secretsAndHeaderValuesNeverPrint() {
        let secret = Secret(value: "da2-abcdef")
        #expect("\(secret)" == "<redacted>")
        #expect(String(reflecting: secret) == "<redacted>")
    }

    @Test func graphQLNames() {
        #expect(GraphQLName.isValid("_Post2"))
        #expect(!GraphQLName.isValid("2Post"))
        #expect(!GraphQLName.isValid("Pöst"))
        #expect(!GraphQLName.isValid(""))
        #expect(GraphQLName.split("rating>=4").name == "rating")
        #expect(GraphQLName.split("rating>=4").rest == ">=4")
    }

    @Test func numbers() throws {
        let limit = ListCommand.limit
        #expect(try ValueParsing.positiveInteger("12", for: limit) == 12)
        for bad in ["0", "-1", "abc", "1.5", "", "+3", " 3", "99999999999999999999"] {
            #expect(throws: UsageError.self) { try ValueParsing.positiveInteger(bad, for: limit) }
        }
        #expect(try ValueParsing.nonNegativeInteger("0", for: limit) == 0)
        #expect(try ValueParsing.positiveSeconds("2.5", for: limit) == 2.5)
        for bad in ["0", "-1", "inf", "nan", "1e3", "."] {
            #expect(throws: UsageError.self) { try ValueParsing.positiveSeconds(bad, for: limit) }
        }
    }
}
