import Testing
@testable import GQLCore

/// What gqlc refuses before sending: required fields, empty ranges, dotted paths; and what it reads for the user.
@Suite struct LocalValidationTests {
    let blog = TestSchemas.builder(try! TestSchemas.blog())

    @Test func createNamesEveryMissingRequiredFieldInOneLine() throws {
        #expect(errorMessage { try blog.create("Comment", values: RecordValues(assignments: ["author=ann"])) }
            == "create Comment: missing required field 'content' (String!)")
        // id (generated), createdAt/updatedAt (read-only) and optional fields are never asked for.
        #expect(errorMessage { try blog.create("Post", values: RecordValues()) }
            == "create Post: missing required field 'title' (String!)")
        var schema = try TestSchemas.blog()
        if let index = schema.models["Post"]?.fields.firstIndex(where: { $0.name == "tags" }) {
            schema.models["Post"]?.fields[index].isArrayNullable = false
        }
        #expect(errorMessage { try TestSchemas.builder(schema).create("Post", values: RecordValues(assignments: ["status=DRAFT"])) }
            == "create Post: missing required fields 'title' (String!), 'tags' ([String!]!)")
        // null is not a value for a required field.
        #expect(errorMessage { try blog.create("Post", values: RecordValues(assignments: ["title=null", "tags:=[]"])) }
            == "create Post: missing required field 'title' (String!)")
        _ = try blog.create("Post", values: RecordValues(assignments: ["title=T", "tags:=[]"]))
    }

    @Test func aRequiredBelongsToIsSatisfiedByItsForeignKey() throws {
        let gen1 = TestSchemas.builder(try TestSchemas.gen1Conventions())
        #expect(errorMessage { try gen1.create("ClubMembership", values: RecordValues(assignments: ["reader=r1"])) }
            == "create ClubMembership: missing required field 'club' (Club!: give club=ID or clubId)")
        _ = try gen1.create("ClubMembership", values: RecordValues(assignments: ["reader=r1", "clubId=c1"]))
    }

    @Test func ownerFieldsAndDefaultsAreFilledByTheServer() throws {
        var schema = try TestSchemas.blog()
        schema.models["Comment"]?.fields.append(ModelField(name: "owner", type: .scalar("String"), isRequired: true))
        schema.models["Comment"]?.authRules = [AuthRule(allow: "owner")]
        if let index = schema.models["Comment"]?.fields.firstIndex(where: { $0.name == "content" }) {
            schema.models["Comment"]?.fields[index].hasDefault = true
        }
        _ = try TestSchemas.builder(schema).create("Comment", values: RecordValues())
    }

    @Test func updateNeverRequiresMoreThanTheKey() throws {
        let request = try blog.update("Post", key: .id("p1"), values: RecordValues(assignments: ["rating=3"]))
        #expect(request.variables["input"]?.serialized() == #"{"id":"p1","rating":3}"#)
    }

    @Test func formatsAreCheckedOnEveryPath() {
        #expect(errorMessage { try blog.create("Post", values: RecordValues(assignments: ["title=T", "tags:=[]", "publishedOn=31/01/2025"])) }
            == "'publishedOn=31/01/2025': '31/01/2025' is not a valid AWSDate for 'publishedOn'; for example 2025-01-31")
        #expect(errorMessage { try blog.create("Post", values: RecordValues(input: ["title": "T", "tags": [], "publishedOn": "2025"])) }
            == "input: '2025' is not a valid AWSDate for 'publishedOn'; for example 2025-01-31")
        #expect(errorMessage { try blog.list("Post", filter: FilterInput(where: ["publishedOn>=soon"])) }
            == "filter 'publishedOn>=soon': 'soon' is not a valid AWSDate for 'publishedOn'; relative dates are not supported, give 2025-01-31 or 2025-01-31Z")
        #expect(errorMessage { try blog.update("Post", key: .id("p1"), values: RecordValues(), condition: FilterInput(where: ["publishedOn=x"])) }
            == "condition 'publishedOn=x': 'x' is not a valid AWSDate for 'publishedOn'; for example 2025-01-31")
        // A prefix or a part is not a whole value.
        #expect((try? blog.list("Post", filter: FilterInput(where: ["publishedOn^=2025-01", "publishedOn*=-01-"]))) != nil)
    }

    @Test func keysAreCheckedToo() throws {
        let day = Model(name: "Day", pluralName: "Days", fields: [ModelField(name: "on", type: .scalar("AWSDate"), isRequired: true)],
                        primaryKey: PrimaryKey(partitionKey: "on"))
        let builder = TestSchemas.builder(ModelSchema(models: ["Day": day]))
        #expect(errorMessage { try builder.get("Day", key: .id("monday")) }
            == "id 'monday': 'monday' is not a valid AWSDate for 'on'; relative dates are not supported, give 2025-01-31 or 2025-01-31Z")
        #expect(errorMessage { try builder.delete("Day", key: .fields(["on=2025-13-01"])) }
            == "key 'on=2025-13-01': '2025-13-01' is not a valid AWSDate for 'on'; for example 2025-01-31")
        #expect(try builder.get("Day", key: .id("2025-01-31")).variables["on"] == "2025-01-31")
    }

    @Test func aDateOnADateTimeFieldIsTheStartOfThatDayInUTC() throws {
        let request = try blog.list("Post", filter: FilterInput(where: ["createdAt>2025-01-01", "updatedAt=2025-01-01..2025-02-01"]))
        #expect(request.variables["filter"]?.serialized()
            == #"{"and":[{"createdAt":{"gt":"2025-01-01T00:00:00.000Z"}},{"updatedAt":{"between":["2025-01-01T00:00:00.000Z","2025-02-01T00:00:00.000Z"]}}]}"#)
        let filter = FilterBuilder(schema: try TestSchemas.blog(), model: try #require(try TestSchemas.blog().models["Post"]))
        #expect(filter.notes(FilterInput(where: ["createdAt>2025-01-01", "rating>1"]))
            == ["'createdAt>2025-01-01': 2025-01-01 as 2025-01-01T00:00:00.000Z (start of day, UTC)"])
        // `=` would match only midnight: a date alone is refused there, with the accepted forms.
        #expect(errorMessage { try blog.list("Post", filter: FilterInput(where: ["createdAt=yesterday"])) }?
            .contains("relative dates are not supported") == true)
        #expect(errorMessage { try blog.list("Post", filter: FilterInput(where: ["createdAt=2025-01-01"])) }
            == "filter 'createdAt=2025-01-01': '2025-01-01' is not a valid AWSDateTime for 'createdAt'; give a time and zone too, "
                + "for example 2025-01-01T00:00:00Z (in a filter a date alone stands for the start of that day with <, <=, >, >= and ranges)")
        // A date-time without its zone: the two ways to give one.
        #expect(errorMessage { try blog.list("Post", filter: FilterInput(where: ["createdAt>2025-01-01T09:30"])) }
            == "filter 'createdAt>2025-01-01T09:30': '2025-01-01T09:30' is not a valid AWSDateTime for 'createdAt'; the zone is required: "
                + "2025-01-01T09:30Z for UTC, or an offset such as 2025-01-01T09:30+02:00")
    }

    @Test func rangesWithLowAboveHighAreRefused() throws {
        #expect(errorMessage { try blog.list("Post", filter: FilterInput(where: ["views=5..1"])) }
            == "filter 'views=5..1': '5..1' on 'views' is an empty range: LOW must not be above HIGH (numbers compare by value, strings byte by byte)")
        #expect(errorMessage { try blog.list("Post", filter: FilterInput(where: ["score=10..9.5"])) } != nil)
        // Strings compare byte by byte, as DynamoDB does: "Z" (0x5A) sorts before "a" (0x61).
        #expect(errorMessage { try blog.list("Post", filter: FilterInput(where: ["title=a..Z"])) } != nil)
        _ = try blog.list("Post", filter: FilterInput(where: ["title=Z..a", "views=1..1", "views=-5..-1", "score=9.5..10"]))
    }

    @Test func dottedPathsNameTheForeignKeyToUse() {
        #expect(errorMessage { try blog.list("Post", filter: FilterInput(where: ["blog.name=x"])) }
            == "filter 'blog.name=x': filters apply to Post's own fields and its foreign keys, not to fields of related records "
            + "('blog.…'); match the related record by key: blog=ID (the foreign key blogId)")
        #expect(errorMessage { try blog.list("Post", filter: FilterInput(where: ["title.x=1"])) }
            == "filter 'title.x=1': filters apply to Post's own fields and its foreign keys, not to fields of related records ('title.…')")
    }
}

@Suite struct WholeTokenRedactionTests {
    @Test func aSecretInsideAnotherWordIsLeftAlone() {
        let redactor = Redactor(secrets: ["test"])
        #expect(redactor.scrub("testing the test key: test.") == "testing the ████ key: ████.")
        #expect(redactor.hasShortSecret)
        #expect(!Redactor(secrets: ["da2-abcdefghijklmnop"]).hasShortSecret)
    }

    @Test func longSecretsAreRedactedAsWholeValues() {
        let redactor = Redactor(secrets: ["da2-abcdefghijklmnop"])
        #expect(redactor.scrub("key=da2-abcdefghijklmnop, \"da2-abcdefghijklmnop\"") == "key=da2-…████, \"da2-…████\"")
        #expect(redactor.scrub("cut da2-abcdefghij…") == "cut da2-…████")
    }

    /// Issue 22: an echoed key glued to a letter, digit or `_` was printed in full. A secret of 8 characters or more is
    /// redacted wherever it occurs; a shorter one stays a whole-word match (see above).
    @Test(arguments: ["xda2-abcdefghijklmnop", "da2-abcdefghijklmnopabc", "_da2-abcdefghijklmnop_", "7da2-abcdefghijklmnop7"])
    func longSecretsGluedToOtherCharactersAreRedacted(text: String) {
        let scrubbed = Redactor(secrets: ["da2-abcdefghijklmnop"]).scrub(text)
        #expect(!scrubbed.contains("abcdefghijklmnop"), "\(scrubbed)")
    }

    @Test func aSecretRepeatedWithoutASeparatorIsRedactedTwice() {
        let scrubbed = Redactor(secrets: ["KEY12345"]).scrub("KEY12345KEY12345")
        #expect(!scrubbed.contains("KEY12345") && !scrubbed.contains("12345"), "\(scrubbed)")
    }
}

@Suite struct VariableErrorMappingTests {
    let origins = VariableOrigins(["input": "--input", "input.email": "'email=bob'", "filter.and[1]": "--where 'at>x'"])

    @Test func graphQLCoreAndGraphQLJSMessagesNameTheArgument() {
        #expect(VariableErrorMapping.rewrite(
            "Variable '$input' got invalid value 'bob' at 'input.email'; Expected type 'AWSEmail'. Invalid AWSEmail value: \"bob\"",
            origins: origins) == "'email=bob' (field 'email'): Expected type 'AWSEmail'. Invalid AWSEmail value: \"bob\"")
        // The issue's example: a missing field, named in the server's text only.
        #expect(VariableErrorMapping.rewrite(
            "Variable '$input' got invalid value {\"postCommentsId\": \"x\"}; Field 'content' of required type 'String!' was not provided.",
            origins: origins) == "--input (field 'content'): Field 'content' of required type 'String!' was not provided.")
        #expect(VariableErrorMapping.rewrite(
            "Variable '$filter' got invalid value 5 at 'filter.and[1].at.gt'; String cannot represent a non string value: 5",
            origins: origins) == "--where 'at>x' (field 'at'): String cannot represent a non string value: 5")
    }

    @Test func graphQLJavaMessagesKeepTheServersWords() {
        #expect(VariableErrorMapping.rewrite("Variable 'input' has an invalid value: Expected type 'Int' but was 'String'.",
                                             origins: origins) == "--input: Expected type 'Int' but was 'String'.")
        #expect(VariableErrorMapping.rewrite("Not authorized", origins: origins) == nil)
    }
}

@Suite struct AWSJSONDecodingTests {
    @Test func typedObjectsHaveTheirAWSJSONFieldsDecodedAtAnyDepth() throws {
        let schema = ModelSchema(
            models: ["Note": Model(name: "Note", pluralName: "Notes", fields: [
                ModelField(name: "id", type: .scalar("ID")), ModelField(name: "body", type: .scalar("AWSJSON")),
                ModelField(name: "bodies", type: .scalar("AWSJSON"), isArray: true), ModelField(name: "text", type: .scalar("String")),
            ], primaryKey: PrimaryKey())])
        let value = try JSONValue.parse(#"""
            {"items":[{"__typename":"Note","id":"n","body":"{\"a\":1}","bodies":["[1]","not json"],"text":"{\"a\":1}"}],
             "untyped":{"body":"{\"a\":1}"}}
            """#)
        #expect(AWSJSONDecoding.decode(value, schema: schema).serialized(.compact)
            == #"{"items":[{"__typename":"Note","id":"n","body":{"a":1},"bodies":[[1],"not json"],"text":"{\"a\":1}"}],"untyped":{"body":"{\"a\":1}"}}"#)
    }
}
