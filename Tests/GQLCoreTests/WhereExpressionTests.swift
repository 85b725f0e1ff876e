import Testing
@testable import GQLCore

@Suite struct WhereExpressionSyntaxTests {
    struct Row: CustomStringConvertible, Sendable {
        let text: String
        let field: String
        let op: WhereOperator
        let operands: [String]
        var description: String { text }
    }

    static let rows: [Row] = [
        Row(text: "title=Hello", field: "title", op: .eq, operands: ["Hello"]),
        Row(text: "title!=Hello", field: "title", op: .ne, operands: ["Hello"]),
        Row(text: "rating<3", field: "rating", op: .lt, operands: ["3"]),
        Row(text: "rating<=3", field: "rating", op: .le, operands: ["3"]),
        Row(text: "rating>3", field: "rating", op: .gt, operands: ["3"]),
        Row(text: "rating>=3", field: "rating", op: .ge, operands: ["3"]),
        Row(text: "title^=Sw", field: "title", op: .beginsWith, operands: ["Sw"]),
        Row(text: "title*=ift", field: "title", op: .contains, operands: ["ift"]),
        Row(text: "title!*=ift", field: "title", op: .notContains, operands: ["ift"]),
        Row(text: "rating=1..5", field: "rating", op: .between, operands: ["1", "5"]),
        Row(text: "content?", field: "content", op: .exists, operands: []),
        Row(text: "content!?", field: "content", op: .notExists, operands: []),
        // Values keep everything after the operator, including `=`, spaces and lone dots.
        Row(text: "title=a=b c", field: "title", op: .eq, operands: ["a=b c"]),
        Row(text: "title=", field: "title", op: .eq, operands: [""]),
        Row(text: "title=..x", field: "title", op: .eq, operands: ["..x"]),
        Row(text: "title=x..", field: "title", op: .eq, operands: ["x.."]),
        Row(text: "score=1.5..2.5", field: "score", op: .between, operands: ["1.5", "2.5"]),
        Row(text: "title!=", field: "title", op: .ne, operands: [""]),
        Row(text: "_v2>=-1", field: "_v2", op: .ge, operands: ["-1"]),
        Row(text: "title=*star*", field: "title", op: .eq, operands: ["*star*"]),
        Row(text: "title<=>", field: "title", op: .le, operands: [">"]),
    ]

    @Test(arguments: rows)
    func parses(_ row: Row) throws {
        let expression = try WhereExpression.parse(row.text)
        #expect(expression == WhereExpression(field: row.field, op: row.op, operands: row.operands))
    }

    @Test(arguments: [
        ("=x", "expected a field name first, as in title=Hello"),
        ("9lives=1", "expected a field name first, as in title=Hello"),
        ("title", "missing operator after 'title'; operators: = != < <= > >= ^= *= !*= =LOW..HIGH ? !?"),
        ("title~=x", "unknown operator '~=' after 'title'; operators: = != < <= > >= ^= *= !*= =LOW..HIGH ? !?"),
        ("title x", "unknown operator ' ' after 'title'; operators: = != < <= > >= ^= *= !*= =LOW..HIGH ? !?"),
        ("rating=>5", "unknown operator '=>' after 'rating'; did you mean '>='? operators: = != < <= > >= ^= *= !*= =LOW..HIGH ? !?"),
        ("rating=<5", "unknown operator '=<' after 'rating'; did you mean '<='? operators: = != < <= > >= ^= *= !*= =LOW..HIGH ? !?"),
        ("title==x", "unknown operator '==' after 'title'; did you mean '='? operators: = != < <= > >= ^= *= !*= =LOW..HIGH ? !?"),
        ("content?x", "'?' takes no value, but 'x' follows it"),
        ("content!?no", "'!?' takes no value, but 'no' follows it"),
    ])
    func rejects(_ text: String, _ message: String) {
        #expect(throws: RequestBuildError.syntax(message)) { try WhereExpression.parse(text) }
    }
}

@Suite struct FilterResolutionTests {
    let blog: ModelSchema
    init() throws { blog = try TestSchemas.blog() }

    private func filter(_ expressions: [String], model: String = "Post", purpose: FilterPurpose = .filter) throws -> String? {
        let builder = FilterBuilder(schema: blog, model: try #require(blog.models[model]), purpose: purpose)
        return try builder.build(FilterInput(where: expressions))?.serialized()
    }

    private func message(_ expressions: [String], model: String = "Post", purpose: FilterPurpose = .filter) -> String? {
        do {
            _ = try filter(expressions, model: model, purpose: purpose)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        // Every operator, each type's coercion.
        ("title=Hello", #"{"title":{"eq":"Hello"}}"#),
        ("title!=Hello", #"{"title":{"ne":"Hello"}}"#),
        ("title^=He", #"{"title":{"beginsWith":"He"}}"#),
        ("title*=ll", #"{"title":{"contains":"ll"}}"#),
        ("title!*=ll", #"{"title":{"notContains":"ll"}}"#),
        ("title=a..m", #"{"title":{"between":["a","m"]}}"#),
        ("title=", #"{"title":{"eq":""}}"#),
        ("title=null", #"{"title":{"eq":null}}"#),
        ("title!=null", #"{"title":{"ne":null}}"#),
        ("title^=null", #"{"title":{"beginsWith":"null"}}"#),
        ("content?", #"{"content":{"attributeExists":true}}"#),
        ("content!?", #"{"content":{"attributeExists":false}}"#),
        ("rating<3", #"{"rating":{"lt":3}}"#),
        ("rating<=3", #"{"rating":{"le":3}}"#),
        ("rating>-3", #"{"rating":{"gt":-3}}"#),
        ("rating>=+3", #"{"rating":{"ge":3}}"#),
        ("rating=007", #"{"rating":{"eq":7}}"#),
        ("rating=1..5", #"{"rating":{"between":[1,5]}}"#),
        ("rating=2147483647", #"{"rating":{"eq":2147483647}}"#),
        ("rating?", #"{"rating":{"attributeExists":true}}"#),
        ("score>=4.5", #"{"score":{"ge":4.5}}"#),
        ("score=1e3", #"{"score":{"eq":1e3}}"#),
        ("score=2", #"{"score":{"eq":2}}"#),
        ("featured=true", #"{"featured":{"eq":true}}"#),
        ("featured!=false", #"{"featured":{"ne":false}}"#),
        ("status=PUBLISHED", #"{"status":{"eq":"PUBLISHED"}}"#),
        ("status!=null", #"{"status":{"ne":null}}"#),
        ("id=p1", #"{"id":{"eq":"p1"}}"#),
        ("publishedOn>=2024-01-01", #"{"publishedOn":{"ge":"2024-01-01"}}"#),
        ("createdAt<2024-01-01T00:00:00Z", #"{"createdAt":{"lt":"2024-01-01T00:00:00Z"}}"#),
        ("tags*=swift", #"{"tags":{"contains":"swift"}}"#),
        ("tags!*=swift", #"{"tags":{"notContains":"swift"}}"#),
        ("blog=b1", #"{"blogId":{"eq":"b1"}}"#),
        ("blog?", #"{"blogId":{"attributeExists":true}}"#),
    ])
    func resolvesOne(_ expression: String, _ json: String) throws {
        #expect(try filter([expression]) == json)
    }

    @Test func severalAreAndedInOrder() throws {
        #expect(try filter(["rating>3", "title^=A", "featured=true"])
            == #"{"and":[{"rating":{"gt":3}},{"title":{"beginsWith":"A"}},{"featured":{"eq":true}}]}"#)
        #expect(try filter([]) == nil)
    }

    @Test func jsonFilterIsPassedAsItIsAndAndedFirst() throws {
        let builder = FilterBuilder(schema: blog, model: try #require(blog.models["Post"]))
        let json: JSONValue = ["or": [["views": ["eq": 1]]]]
        #expect(try builder.build(FilterInput(json: json)) == json)
        #expect(try builder.build(FilterInput(where: ["rating=1"], json: json))?.serialized()
            == #"{"and":[{"or":[{"views":{"eq":1}}]},{"rating":{"eq":1}}]}"#)
        // The object names only fields its input type has.
        #expect(throws: RequestBuildError.argument(
            .filterObject, text: nil, error: .unknownField("anything", type: "Post", suggestion: nil))) {
            try builder.build(FilterInput(json: ["or": [["anything": ["eq": 1]]]]))
        }
        #expect(throws: RequestBuildError.argument(.filterObject, text: nil, error: .notAnObject(found: "an array"))) {
            try builder.build(FilterInput(json: [1]))
        }
    }

    @Test(arguments: [
        ("ratng>3", "filter 'ratng>3': unknown field 'ratng' on Post; did you mean 'rating'?"),
        ("rating=abc", "filter 'rating=abc': 'abc' is not an Int"),
        ("rating=", "filter 'rating=': '' is not an Int"),
        ("rating=1.5", "filter 'rating=1.5': '1.5' is not an Int"),
        ("rating=3000000000", "filter 'rating=3000000000': '3000000000' is out of range for Int (32-bit: -2147483648 to 2147483647)"),
        ("rating=null..5", "filter 'rating=null..5': 'null' is not an Int"),
        ("score=abc", "filter 'score=abc': 'abc' is not a Float"),
        ("score=inf", "filter 'score=inf': 'inf' is not a Float"),
        ("score=.5", "filter 'score=.5': '.5' is not a Float"),
        ("featured=yes", "filter 'featured=yes': 'yes' is not a Boolean"),
        ("status=PUBLISHD", "filter 'status=PUBLISHD': 'PUBLISHD' is not a PostStatus; did you mean 'PUBLISHED'?"),
        ("status=published", "filter 'status=published': 'published' is not a PostStatus; did you mean 'PUBLISHED'?"),
        ("rating^=1", "filter 'rating^=1': operator '^=' does not apply to Int field 'rating'; use = != < <= > >= =LOW..HIGH ? !?"),
        ("featured>true", "filter 'featured>true': operator '>' does not apply to Boolean field 'featured'; use = != ? !?"),
        ("status?", "filter 'status?': operator '?' does not apply to PostStatus field 'status'; use = !="),
        ("tags=swift", "filter 'tags=swift': operator '=' does not apply to [String] field 'tags'; use *= !*= ? !?"),
        ("metadata?", "filter 'metadata?': 'metadata' on Post cannot be filtered: the server's filter input has no entry for embedded types"),
        ("comments=c1", "filter 'comments=c1': 'comments' on Post cannot be filtered: the key is stored on the Comment records; filter those on postId"),
        ("title~=x", "filter 'title~=x': unknown operator '~=' after 'title'; operators: = != < <= > >= ^= *= !*= =LOW..HIGH ? !?"),
    ])
    func rejects(_ expression: String, _ expected: String) {
        #expect(message([expression]) == expected)
    }

    @Test func conditionsCannotTestKeyFieldsAndSayIf() {
        #expect(message(["id=p1"], purpose: .condition) == "condition 'id=p1': 'id' is part of Post's key; a condition cannot test key fields")
        #expect(message(["title=x", "ratng=1"], purpose: .condition)
            == "condition 'ratng=1': unknown field 'ratng' on Post; did you mean 'rating'?")
    }

    @Test func subscriptionFiltersHaveNoAttributeExists() {
        #expect(message(["content?"], purpose: .subscription)
            == "filter 'content?': operator '?' is not in AppSync's subscription filters (they have no attributeExists); "
                + "use = != < <= > >= =LOW..HIGH ^= *= !*=")
    }

    @Test func belongsToMapsToForeignKeysOnTheFixtures() throws {
        let gen1 = try TestSchemas.gen1Conventions()
        let book = FilterBuilder(schema: gen1, model: try #require(gen1.models["Book"]))
        #expect(try book.build(FilterInput(where: ["shelf=s1"]))?.serialized() == #"{"shelfBooksId":{"eq":"s1"}}"#)

        let episode = FilterBuilder(schema: gen1, model: try #require(gen1.models["Episode"]))
        #expect(throws: RequestBuildError.argument(.filter, text: "series=s1", error: .compositeRelationship(
            field: "series", model: "Episode", foreignKeys: ["seriesEpisodesSeriesId", "seriesEpisodesTitle"]))) {
            try episode.build(FilterInput(where: ["series=s1"]))
        }
        // A Gen1 hasOne keeps its keys on the parent; a Gen2 hasOne on the child.
        let author = FilterBuilder(schema: gen1, model: try #require(gen1.models["Author"]))
        #expect(throws: RequestBuildError.self) { try author.build(FilterInput(where: ["profile=p"])) }
        let gen2 = try TestSchemas.gen2Conventions()
        let shopper = FilterBuilder(schema: gen2, model: try #require(gen2.models["Shopper"]))
        #expect(throws: RequestBuildError.argument(.filter, text: "basket=x", error: .notFilterable(
            field: "basket", model: "Shopper", reason: "the key is stored on the Basket records; filter those on shopperId"))) {
            try shopper.build(FilterInput(where: ["basket=x"]))
        }
    }

    @Test func enumKeysAndIntKeysCoerceOnInventory() throws {
        let inventory = try TestSchemas.inventory()
        let items = FilterBuilder(schema: inventory, model: try #require(inventory.models["InventoryItem"]))
        #expect(try items.build(FilterInput(where: ["bin=4", "kind=RAW"]))?.serialized()
            == #"{"and":[{"bin":{"eq":4}},{"kind":{"eq":"RAW"}}]}"#)
        #expect(throws: RequestBuildError.argument(.filter, text: "kind=RAWW", error: .invalidValue(
            "RAWW", expected: "ItemKind", suggestion: "RAW"))) {
            try items.build(FilterInput(where: ["kind=RAWW"]))
        }
    }
}

@Suite struct ValueCoercionTests {
    @Test(arguments: [
        ("x", ValueKind.string, #""x""#),
        ("null", ValueKind.string, "null"),
        ("-2147483648", ValueKind.int, "-2147483648"),
        ("1700000000000", ValueKind.long, "1700000000000"),
        ("-0.5e-3", ValueKind.float, "-0.5e-3"),
        ("false", ValueKind.boolean, "false"),
        (#"{"a":[1]}"#, ValueKind.json, #""{\"a\":[1]}""#),
        ("42", ValueKind.json, #""42""#),
    ])
    func coercesText(_ text: String, _ kind: ValueKind, _ json: String) throws {
        #expect(try ValueCoercion.coerce(text, as: kind, allowNull: true).serialized() == json)
    }

    @Test func rejectsBadText() {
        #expect(throws: RequestBuildError.outOfRange("-2147483649", type: "Int")) {
            try ValueCoercion.coerce("-2147483649", as: .int, allowNull: false)
        }
        #expect(throws: RequestBuildError.outOfRange("99999999999999999999", type: "AWSTimestamp")) {
            try ValueCoercion.coerce("99999999999999999999", as: .long, allowNull: false)
        }
        #expect(throws: RequestBuildError.invalidValue("TRUE", expected: "Boolean", suggestion: nil)) {
            try ValueCoercion.coerce("TRUE", as: .boolean, allowNull: false)
        }
        #expect(throws: RequestBuildError.self) { try ValueCoercion.coerce("{a", as: .json, allowNull: false) }
        #expect(throws: RequestBuildError.invalidValue("null", expected: "Int", suggestion: nil)) {
            try ValueCoercion.coerce("null", as: .int, allowNull: false)
        }
    }
}
