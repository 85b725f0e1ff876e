import Testing
@testable import GQLCore

/// Custom queries, mutations and subscriptions: variable types, arguments and selection sets.
@Suite struct CustomOperationTests {
    let builder: RequestBuilder
    init() throws { builder = TestSchemas.builder(try TestSchemas.customOperations()) }

    private func variables(_ name: String, _ assignments: [String], input: JSONValue? = nil) throws -> String {
        try variables(name, .query, assignments, input: input)
    }

    private func failure(_ name: String, _ assignments: [String], input: JSONValue? = nil, include: [String] = []) -> String? {
        failure(name, .query, assignments, input: input, include: include)
    }

    private func variables(_ name: String, _ kind: CustomOperation.Kind, _ assignments: [String], input: JSONValue? = nil) throws -> String {
        JSONValue.object(try builder.custom(name, kind: kind, arguments: RecordValues(assignments: assignments, input: input)).variables)
            .serialized()
    }

    private func failure(_ name: String, _ kind: CustomOperation.Kind, _ assignments: [String], input: JSONValue? = nil, include: [String] = []) -> String? {
        errorMessage { try builder.custom(name, kind: kind, arguments: RecordValues(assignments: assignments, input: input), include: include) }
    }

    /// The research note's rule, from Amplify codegen's `echo8`/`echo9` snapshot: `[Int!]` is isArray with
    /// isRequired true (the element) and isArrayNullable true; `[Float]!` is isRequired false, isArrayNullable false.
    @Test func variableTypesFollowCodegensRule() {
        let msg2 = ModelField(name: "msg2", type: .scalar("Int"), isArray: true, isRequired: true, isArrayNullable: true)
        let msg = ModelField(name: "msg", type: .scalar("Float"), isArray: true, isRequired: false, isArrayNullable: false)
        #expect(msg2.typeReference.description == "[Int!]")
        #expect(msg.typeReference.description == "[Float]!")
        #expect(ModelField(name: "s", type: .input("BoundsInput"), isRequired: true).typeReference.description == "BoundsInput!")
        #expect(ModelField(name: "e", type: .enumeration("PostStatus")).typeReference.description == "PostStatus")
    }

    @Test func everyDeclaredArgumentIsAVariableButOnlyGivenOnesAreSent() throws {
        let request = try builder.custom("likePost", kind: .mutation, arguments: RecordValues(assignments: ["postId=p1"]))
        #expect(request.query.hasPrefix("mutation LikePost($postId: ID!, $times: Int) {\n  likePost(postId: $postId, times: $times) {\n"))
        #expect(JSONValue.object(request.variables).serialized() == #"{"postId":"p1"}"#)
        #expect(request.operationType == .mutation)
        #expect(request.decodePath == ["likePost"])
    }

    @Test func argumentsAreConvertedByTheirTypes() throws {
        #expect(try variables("echoArgs", [
            "text=7", "count=3", "ratio=1.5", "flag=false", "status=ARCHIVED", "when=2025-01-01T00:00:00Z", "meta:={\"a\": [1]}",
        ]) == #"{"count":3,"flag":false,"meta":"{\"a\":[1]}","ratio":1.5,"status":"ARCHIVED","text":"7","when":"2025-01-01T00:00:00Z"}"#)
        // AWSJSON given as text must itself be JSON, and is sent as that text.
        #expect(try variables("echoArgs", ["text=t", "meta={\"b\":true}"]) == #"{"meta":"{\"b\":true}","text":"t"}"#)
        #expect(failure("echoArgs", ["text=t", "meta={b}"])?.hasPrefix("'meta={b}': invalid JSON at 1:2") == true)
        #expect(failure("echoArgs", ["text=t", "count=3000000000"]) == "'count=3000000000': '3000000000' is out of range for Int (32-bit: -2147483648 to 2147483647)")
        #expect(failure("echoArgs", ["text=t", "status=DRAFFT"]) == "'status=DRAFFT': 'DRAFFT' is not a PostStatus; did you mean 'DRAFT'?")
        #expect(failure("echoArgs", ["text=t", "flag=yes"]) == "'flag=yes': 'yes' is not a Boolean")
    }

    @Test func aSingleValueForAListIsAListOfOneAsGraphQLCoercesIt() throws {
        #expect(try variables("tagsOf", ["tags=a"]) == #"{"tags":["a"]}"#)
        #expect(try variables("archivePosts", .mutation, ["ids=p1"]) == #"{"ids":["p1"]}"#)
        #expect(try variables("tagsOf", ["tags:=[\"a\",\"b\"]"]) == #"{"tags":["a","b"]}"#)
        #expect(failure("tagsOf", ["tags:=[1]"]) == "'tags:=[1]': tags[0]: expected a string (String), found a number")
        #expect(failure("tagsOf", ["tags:=[\"a\", null]"]) == "tags[1]: null in a list of non-null elements ([String!]!)")
    }

    @Test func inputObjectsAreCheckedFieldByField() throws {
        #expect(try variables("postStats", ["filter:={\"status\": \"DRAFT\", \"range\": {\"low\": 1}}"])
            == #"{"filter":{"status":"DRAFT","range":{"low":1}}}"#)
        #expect(failure("postStats", ["filter:={\"range\": {\"high\": 1}}"])
            == "'filter:={\"range\": {\"high\": 1}}': filter.range: missing required field of BoundsInput: 'low' (Int!)")
        #expect(failure("postStats", ["filter:={\"stauts\": \"DRAFT\"}"])
            == "'filter:={\"stauts\": \"DRAFT\"}': filter: unknown field 'stauts' on PostFilterInput; did you mean 'status'?")
        #expect(failure("postStats", ["filter:={\"status\": \"LIVE\"}"])?.contains("'LIVE' is not a PostStatus") == true)
        #expect(failure("postStats", ["filter=x"]) == "'filter=x': 'filter' is an input object (PostFilterInput); give it as JSON: filter:=…")
    }

    @Test func unknownAndMissingArgumentsAreRefusedBeforeSending() throws {
        #expect(failure("likePost", .mutation, ["postid=p1"]) == "'postid=p1': unknown argument 'postid' of likePost; did you mean 'postId'?")
        #expect(failure("likePost", .mutation, ["zzz=1"])
            == "'zzz=1': unknown argument 'zzz' of likePost; likePost takes postId: ID!, times: Int")
        #expect(failure("statuses", ["x=1"]) == "'x=1': unknown argument 'x' of statuses; statuses takes no arguments")
        #expect(failure("echoArgs", ["count=1"]) == "echoArgs: missing required argument 'text' (String!)")
        #expect(failure("echoArgs", ["text=null"]) == "echoArgs: missing required argument 'text' (String!)")
        #expect(failure("archivePosts", .mutation, []) == "archivePosts: missing required argument 'ids' ([ID!]!)")
        #expect(failure("archivePosts", .mutation, ["ids=null"]) == "archivePosts: missing required argument 'ids' ([ID!]!)")
        #expect(try variables("echoArgs", ["text=t", "tags=null", "range=null"]) == #"{"range":null,"tags":null,"text":"t"}"#)
        #expect(failure("shout", ["text"]) == "'text': expected ARG=VALUE or ARG:=JSON after 'text'")
        #expect(failure("shout", ["=x"]) == "'=x': expected ARG=VALUE or ARG:=JSON")
        // An argument whose list is nullable may be left out, even with required elements.
        #expect(throws: Never.self) { try builder.custom("echoArgs", kind: .query, arguments: RecordValues(assignments: ["text=t"])) }
    }

    @Test func inputGivesArgumentsAndAssignmentsOverrideIt() throws {
        #expect(try variables("likePost", .mutation, ["times=2"], input: ["postId": "p1", "times": 1]) == #"{"postId":"p1","times":2}"#)
        #expect(failure("likePost", .mutation, [], input: ["post": "p1"])
            == "input: unknown argument 'post' of likePost; did you mean 'postId'?")
        #expect(failure("likePost", .mutation, [], input: ["postId": 1]) == "input: postId: expected a string (ID), found a number")
        #expect(failure("likePost", .mutation, [], input: [1]) == "input: expected a JSON object, found an array")
    }

    @Test func operationsAreFoundByKindWithSuggestions() {
        #expect(failure("likePots", .mutation, []) == "unknown custom mutation 'likePots'; did you mean 'likePost'?")
        #expect(failure("nothing", .mutation, []) == "unknown custom mutation 'nothing'; custom mutations: likePost, archivePosts")
        #expect(failure("likePost", .query, []) == "'likePost' is a custom mutation, not a query")
        let empty = RequestBuilder(schema: ModelSchema())
        #expect(errorMessage { try empty.custom("x", kind: .query) } == "unknown custom query 'x'; the schema has no custom queries")
    }

    /// A model result selects exactly what `get` selects for that model; includes work the same way.
    @Test func aModelResultSelectsWhatGetSelects() throws {
        for include in [[String](), ["comments"]] {
            let custom = try builder.custom("featuredPost", kind: .query, arguments: RecordValues(assignments: ["id=p1"]), include: include)
            let get = try builder.get("Post", key: .id("p1"), include: include)
            #expect(Self.selection(custom.query) == Self.selection(get.query))
        }
        #expect(failure("shout", ["text=a"], include: ["comments"]) == "include 'comments': shout returns String, not a model, so it has no associations to include")
        #expect(failure("featuredPost", ["id=a"], include: ["coments"])?.hasPrefix("include 'coments': unknown field 'coments' on Post; did you mean 'comments'?") == true)
    }

    @Test func embeddedResultsSelectEveryFieldLevelByLevelAndScalarsNothing() throws {
        // The whole document is the golden fixture-custom-query-poststats; here, what makes it complete.
        let stats = try builder.custom("postStats", kind: .query).query
        #expect(stats.hasPrefix("query PostStats($filter: PostFilterInput) {\n  postStats(filter: $filter) {\n    byStatus {\n"))
        #expect(stats.contains("  top {\n      range {\n        high\n        low\n        __typename\n      }\n      score\n"))
        #expect(stats.components(separatedBy: "__typename").count - 1 == 4)  // Stats, StatusCount, Leader, Range
        #expect(try builder.custom("shout", kind: .query, arguments: RecordValues(assignments: ["text=a"])).query
            == "query Shout($text: String!) {\n  shout(text: $text)\n}")
        #expect(try builder.custom("statuses", kind: .query).query == "query Statuses {\n  statuses\n}")
    }

    @Test func inputsAndInputTypedArgumentsAreRead() throws {
        let schema = try TestSchemas.customOperations()
        #expect(schema.inputs["BoundsInput"]?.fields.map(\.graphQLType) == ["Int!", "Int"])
        #expect(schema.inputs["PostFilterInput"]?.fields.map(\.name) == ["status", "range", "titles"])
        let argument = schema.customOperations.first { $0.name == "echoArgs" }?.arguments.last
        #expect(argument?.type == .input("BoundsInput"))
    }

    /// The lines after the root field's opening line: its selection set.
    static func selection(_ query: String) -> [String] {
        Array(query.split(separator: "\n").dropFirst(2).map(String.init))
    }
}
