import Foundation
import Testing
@testable import GQLCore

@Suite struct FieldValueTests {
    let builder: RequestBuilder
    init() throws { builder = TestSchemas.builder(try TestSchemas.blog()) }

    /// The compact `input` variable of a create of `model` with these values.
    private func createInput(_ assignments: [String], input: JSONValue? = nil, model: String = "Post") throws -> String? {
        try builder.create(model, values: RecordValues(assignments: assignments, input: input)).variables["input"]?.serialized()
    }

    private func createError(_ assignments: [String], input: JSONValue? = nil, model: String = "Post") -> String? {
        do {
            _ = try builder.create(model, values: RecordValues(assignments: assignments, input: input))
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func parsesBothForms() throws {
        #expect(try FieldAssignment.parse("title=a=b") == FieldAssignment(field: "title", value: .text("a=b")))
        #expect(try FieldAssignment.parse("title=") == FieldAssignment(field: "title", value: .text("")))
        #expect(try FieldAssignment.parse("tags:=[1, 2]") == FieldAssignment(field: "tags", value: .json([1, 2])))
        #expect(throws: RequestBuildError.syntax("expected FIELD=VALUE or FIELD:=JSON after 'title'")) {
            try FieldAssignment.parse("title")
        }
        #expect(throws: RequestBuildError.syntax("expected FIELD=VALUE or FIELD:=JSON")) { try FieldAssignment.parse("=x") }
    }

    @Test func coercesByTypeAndGeneratesTheID() throws {
        #expect(try createInput(["title=T", "rating=4", "score=1.25", "featured=true", "status=ARCHIVED", "content=null", "views=-1"])
            == #"{"content":null,"featured":true,"id":"00000000-0000-0000-0000-000000000001","rating":4,"score":1.25,"status":"ARCHIVED","title":"T","views":-1}"#)
    }

    @Test func givenIDIsKeptAndRepeatsMustAgree() throws {
        #expect(try createInput(["id=p9", "title=A", "title=A"]) == #"{"id":"p9","title":"A"}"#)
        #expect(createError(["id=p9", "title=A", "title=B"])
            == "'title=B': 'title' is already set by 'title=A' to another value; give it once")
        // A belongs-to name and its foreign key are the same stored field.
        #expect(createError(["title=A", "blog=b1", "blogId=b2"])
            == "'blogId=b2': 'blogId' is already set by 'blog=b1' to another value; give it once")
        // Arguments still override --input.
        #expect(try createInput(["title=B"], input: ["id": "p9", "title": "A"]) == #"{"id":"p9","title":"B"}"#)
    }

    @Test func generatedIDsDifferByDefault() throws {
        let real = RequestBuilder(schema: try TestSchemas.blog())
        let first = try real.create("Post", values: RecordValues(assignments: ["title=T"])).variables["input"]?["id"]?.stringValue
        let second = try real.create("Post", values: RecordValues(assignments: ["title=T"])).variables["input"]?["id"]?.stringValue
        #expect(first?.count == 36)
        #expect(first != second)
    }

    @Test func jsonValuesAreCheckedAgainstTheirTypes() throws {
        #expect(try createInput(["id=p", "title=T", "tags:=[\"a\",null]"]) == #"{"id":"p","tags":["a",null],"title":"T"}"#)
        #expect(try createInput(["id=p", "title=T", #"metadata:={"__typename":"PostMetadata","source":{"label":"L"},"wordCount":3}"#])
            == #"{"id":"p","metadata":{"source":{"label":"L"},"wordCount":3},"title":"T"}"#)
        #expect(createError([#"metadata:={"wordcount":3}"#])
            == #"'metadata:={"wordcount":3}': metadata: unknown field 'wordcount' on PostMetadata; did you mean 'wordCount'?"#)
        #expect(createError([#"metadata:={"wordCount":"3"}"#])
            == #"'metadata:={"wordCount":"3"}': metadata.wordCount: expected an integer (Int), found a string"#)
        #expect(createError(["tags:=\"a\""]) == #"'tags:="a"': tags: expected a list, found a string"#)
        #expect(createError(["rating:=1.5"]) == "'rating:=1.5': rating: expected an integer (Int), found a number")
        #expect(createError(["status:=\"DRAF\""]) == #"'status:="DRAF"': status: 'DRAF' is not a PostStatus; did you mean 'DRAFT'?"#)
        #expect(createError(["tags:=[1,"]) == "'tags:=[1,': invalid JSON at 1:4: unexpected end of input; expected a value")
    }

    @Test func embeddedTypesNeedJSONAndOneValueIsAListOfOne() throws {
        // One value for a list is a list of one, as GraphQL coerces it and custom operations take it.
        let request = try builder.create("Post", values: RecordValues(assignments: ["title=x", "tags=a,b"]))
        #expect(JSONValue.object(request.variables).serialized().contains(#""tags":["a,b"]"#))
        #expect(createError(["metadata=x"]) == "'metadata=x': 'metadata' is an embedded PostMetadata; give it as JSON: metadata:=…")
    }

    @Test func unknownReadOnlyAndRelationshipFieldsAreErrors() {
        #expect(createError(["titel=x"]) == "'titel=x': unknown field 'titel' on Post; did you mean 'title'?")
        #expect(createError(["createdAt=2024-01-01T00:00:00Z"])
            == "'createdAt=2024-01-01T00:00:00Z': 'createdAt' on Post is read-only (set by the server)")
        #expect(createError(["comments=c1"])
            == "'comments=c1': 'comments' on Post is a relationship held by the related records; set 'postId' on the Comment record instead")
        #expect(createError(["rating=many"]) == "'rating=many': 'many' is not an Int")
    }

    @Test func belongsToSetsItsForeignKey() throws {
        #expect(try createInput(["id=c", "content=x", "post=p1"], model: "Comment") == #"{"content":"x","id":"c","postId":"p1"}"#)
        #expect(try createInput(["id=c", "content=x", "post=null"], model: "Comment") == #"{"content":"x","id":"c","postId":null}"#)
        let gen1 = TestSchemas.builder(try TestSchemas.gen1Conventions())
        #expect(throws: RequestBuildError.argument(.fieldValue, text: "series=s1", error: .compositeRelationship(
            field: "series", model: "Episode", foreignKeys: ["seriesEpisodesSeriesId", "seriesEpisodesTitle"]))) {
            try gen1.create("Episode", values: RecordValues(assignments: ["episodeId=e", "number=1", "series=s1"]))
        }
        // Gen2 hasOne: the key is on the Basket.
        let gen2 = TestSchemas.builder(try TestSchemas.gen2Conventions())
        #expect(throws: RequestBuildError.self) {
            try gen2.create("Shopper", values: RecordValues(assignments: ["email=a@example.com", "basket=b1"]))
        }
    }

    @Test func awsJSONIsSentAsAString() throws {
        let schema = ModelSchema(models: ["Doc": Model(
            name: "Doc", pluralName: "Docs",
            fields: [ModelField(name: "id", type: .scalar("ID"), isRequired: true), ModelField(name: "data", type: .scalar("AWSJSON")),
                     ModelField(name: "at", type: .scalar("AWSTimestamp"))],
            primaryKey: PrimaryKey())])
        let docs = TestSchemas.builder(schema)
        func input(_ values: RecordValues) throws -> String? {
            try docs.create("Doc", values: values).variables["input"]?.serialized()
        }
        #expect(try input(RecordValues(assignments: ["id=d", #"data={"a": 1}"#])) == #"{"data":"{\"a\": 1}","id":"d"}"#)
        #expect(try input(RecordValues(assignments: ["id=d", #"data:={"a": 1}"#])) == #"{"data":"{\"a\":1}","id":"d"}"#)
        #expect(try input(RecordValues(assignments: ["id=d", #"data:="s""#])) == #"{"data":"\"s\"","id":"d"}"#)
        #expect(try input(RecordValues(input: ["id": "d", "data": "{\"kept\":true}"])) == #"{"data":"{\"kept\":true}","id":"d"}"#)
        #expect(try input(RecordValues(input: ["id": "d", "data": ["n": 1]])) == #"{"data":"{\"n\":1}","id":"d"}"#)
        #expect(try input(RecordValues(assignments: ["id=d", "at=1700000000000"])) == #"{"at":1700000000000,"id":"d"}"#)
        #expect(throws: RequestBuildError.self) { try input(RecordValues(assignments: ["id=d", "data={a"])) }
    }

    @Test func inputFileDropsWhatGqlcPrintsButTheServerRejects() throws {
        let fetched: JSONValue = [
            "__typename": "Post", "id": "p1", "title": "T", "createdAt": "2024", "updatedAt": "2024",
            "blog": ["id": "b1", "__typename": "Blog"], "comments": ["items": [], "nextToken": nil], "rating": 2,
        ]
        let request = try builder.update("Post", key: nil, values: RecordValues(assignments: ["rating=3"], input: fetched))
        // The belongsTo as gqlc prints it (the related record's key) sets its foreign key.
        #expect(request.variables.serialized() == #"{"input":{"blogId":"b1","id":"p1","rating":3,"title":"T"}}"#)
        #expect(createError([], input: ["titel": "x"]) == "input: unknown field 'titel' on Post; did you mean 'title'?")
        #expect(createError([], input: [1]) == "input: expected a JSON object, found an array")
        #expect(createError([], input: ["title": "x", "blog": true])
            == "input: blog: expected the Blog record or its key (id), found a boolean")
        #expect(createError([], input: ["title": "x", "comments": "c1"])
            == "input: comments: expected an object (a Comment relationship), found a string")
    }
}

extension JSONObject {
    func serialized() -> String { JSONValue.object(self).serialized() }
}
