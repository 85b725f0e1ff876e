import GQLCore
import Testing

@testable import gqlc

@Suite struct ConditionTests {
    @Test(arguments: [
        ("status=PUBLISHED", Condition.Comparison.equal("PUBLISHED"), "eq"),
        ("status!=DRAFT", .notEqual("DRAFT"), "ne"),
        ("rating<4", .lessThan("4"), "lt"),
        ("rating<=4", .lessThanOrEqual("4"), "le"),
        ("rating>4", .greaterThan("4"), "gt"),
        ("rating>=4", .greaterThanOrEqual("4"), "ge"),
        ("title^=Hel", .beginsWith("Hel"), "beginsWith"),
        ("title*=ell", .contains("ell"), "contains"),
        ("title!*=ell", .notContains("ell"), "notContains"),
        ("rating=1..5", .between("1", "5"), "between"),
        ("publishedOn=2024-01-01..2024-12-31", .between("2024-01-01", "2024-12-31"), "between"),
        ("rating?", .exists(true), "attributeExists"),
        ("rating!?", .exists(false), "attributeExists"),
        ("title=", .equal(""), "eq"),
        ("title=a=b", .equal("a=b"), "eq"),
        ("title=<x>", .equal("<x>"), "eq"),
        ("rating=null", .equal("null"), "eq"),
        ("post=p1", .equal("p1"), "eq"),
    ])
    func parsesEveryOperator(text: String, comparison: Condition.Comparison, filterOperator: String) throws {
        let condition = try Condition.parse(text, option: "--where")
        #expect(condition.comparison == comparison)
        #expect(condition.comparison.filterOperator == filterOperator)
        #expect(condition.field == String(text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
        #expect(condition.source == text)
    }

    @Test(arguments: [
        ("=x", "invalid --where '=x': expected a field name first, e.g. 'status=PUBLISHED'"),
        ("rating", "invalid --where 'rating': missing operator after 'rating'; use one of = != < <= > >= ^= *= !*= ? !? or a..b"),
        ("rating~4", "invalid --where 'rating~4': unknown operator after 'rating'; use one of = != < <= > >= ^= *= !*= ? !? or a..b"),
        ("rating?x", "invalid --where 'rating?x': unknown operator after 'rating'; use one of = != < <= > >= ^= *= !*= ? !? or a..b"),
        ("rating=1..", "invalid --where 'rating=1..': a range needs both ends, e.g. 'rating=1..5'"),
        ("rating=..5", "invalid --where 'rating=..5': a range needs both ends, e.g. 'rating=1..5'"),
    ])
    func rejectsMalformedExpressions(text: String, message: String) {
        #expect(throws: UsageError(message)) { try Condition.parse(text, option: "--where") }
    }
}

@Suite struct AssignmentTests {
    @Test func textAndJSONValues() throws {
        #expect(try Assignment.parse("title=Hello", target: .field) == Assignment(name: "title", value: .text("Hello")))
        #expect(try Assignment.parse("title=a=b", target: .field) == Assignment(name: "title", value: .text("a=b")))
        #expect(try Assignment.parse("title=", target: .field) == Assignment(name: "title", value: .text("")))
        let tags = try Assignment.parse(#"tags:=["a","b"]"#, target: .field)
        #expect(tags == Assignment(name: "tags", value: .json(.array([.string("a"), .string("b")]))))
        #expect(try Assignment.parse("rating:=null", target: .field).value == .json(.null))
    }

    @Test func rejectsBadSyntaxAndRepeats() {
        #expect(throws: UsageError("invalid argument 'title': expected FIELD=VALUE or FIELD:=JSON")) {
            try Assignment.parse("title", target: .field)
        }
        #expect(throws: UsageError("invalid argument '=x': expected NAME=VALUE or NAME:=JSON")) {
            try Assignment.parse("=x", target: .variable)
        }
        #expect(throws: UsageError("invalid JSON for 'tags' in 'tags:=[1,': unexpected end of input; expected a value at column 4")) {
            try Assignment.parse("tags:=[1,", target: .field)
        }
        #expect(throws: UsageError("field 'title' is assigned more than once")) {
            try Assignment.parseAll(["title=a", "title:=\"b\""], target: .field)
        }
    }
}

@Suite struct SmallValueTests {
    @Test func keyFields() throws {
        #expect(try KeyField.parse("sku=A=1") == KeyField(field: "sku", value: "A=1"))
        #expect(throws: UsageError("invalid value 'sku' for '--key': expected FIELD=VALUE, e.g. --key sku=A1")) {
            try KeyField.parse("sku")
        }
    }

    @Test func includePaths() throws {
        #expect(try IncludePath.parse("post.comments").components == ["post", "comments"])
        #expect(try IncludePath.parseAll(["comments", "blog", "comments"]).map(\.components) == [["comments"], ["blog"]])
        for bad in ["", "post.", ".x", "a..b", "post-comments"] {
            #expect(throws: UsageError.self) { try IncludePath.parse(bad) }
        }
    }

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
