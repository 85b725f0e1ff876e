import GQLCore
import Testing

@testable import gqlc

@Suite struct SmallValueTests {
    @Test func graphQLNames() {
        #expect(GraphQLName.isValid("_Post2"))
        #expect(!GraphQLName.isValid("2Post"))
        #expect(!GraphQLName.isValid("Pöst"))
        #expect(!GraphQLName.isValid(""))
        #expect(GraphQLName.split("rating>=4").name == "rating")
        #expect(GraphQLName.split("rating>=4").rest == ">=4")
    }
}
