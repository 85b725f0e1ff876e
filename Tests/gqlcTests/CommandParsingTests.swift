import GQLCore
import Testing

@testable import gqlc

/// Each command's command line becomes the expected typed invocation.
@Suite struct CommandParsingTests {
    func command(_ arguments: [String]) throws -> ParsedCommand {
        try invocation(arguments).command
    }

    @Test func getById() throws {
        #expect(
            try command(["get", "Post", "--id", "p1", "--include", "comments", "--include=blog"])
                == .get(GetInvocation(
                    model: "Post", record: .id("p1"),
                    includes: ["comments", "blog"],
                    followIncludedLists: true)))
    }

    @Test func customQueryAndMutation() throws {
        #expect(
            try command(["query", "echo", "a=1", "b:=[2]", "--input", "args.json", "--include", "comments", "--no-follow"])
                == .query(CustomOperationInvocation(
                    kind: .query, name: "echo", assignments: ["a=1", "b:=[2]"], input: .file("args.json"),
                    includes: ["comments"], followIncludedLists: false)))
        #expect(
            try command(["mutate", "likePost", "postId=p1", "--input", "-"])
                == .mutate(CustomOperationInvocation(
                    kind: .mutation, name: "likePost", assignments: ["postId=p1"], input: .standardInput,
                    includes: [], followIncludedLists: true)))
        #expect(throws: UsageError("invalid query name 'a-b': expected a GraphQL field name such as 'echo'")) {
            try command(["query", "a-b"])
        }
    }

    @Test func getByCompositeKeyWithoutFollowing() throws {
        let parsed = try command([
            "get", "InventoryItem", "--key", "sku=A1", "--key=warehouseId=W1", "--key", "bin=3", "--no-follow",
        ])
        #expect(
            parsed == .get(GetInvocation(
                model: "InventoryItem",
                record: .key(["sku=A1", "warehouseId=W1", "bin=3"]),
                includes: [], followIncludedLists: false)))
    }

    @Test func optionsMayComeBeforeTheModel() throws {
        #expect(try command(["get", "--id", "p1", "Post"]) == command(["get", "Post", "--id", "p1"]))
    }

    @Test func listWithEverything() throws {
        let parsed = try command([
            "list", "Post", "--where", "status=PUBLISHED", "--where", "rating>=4", "--filter", #"{"views": {"gt": 10}}"#,
            "--limit", "5", "--page-size", "50", "--next-token", "abc==", "--include", "comments",
        ])
        guard let list = parsed.invocation(as: ListInvocation.self) else {
            Issue.record("expected list, got \(parsed)")
            return
        }
        #expect(list.model == "Post")
        #expect(list.conditions == ["status=PUBLISHED", "rating>=4"])
        #expect(list.filter == .json(try JSONValue.parse(#"{"views": {"gt": 10}}"#)))
        #expect(list.limit == 5)
        #expect(list.pageSize == 50)
        #expect(list.nextToken == "abc==")
        #expect(list.includes == ["comments"])
        #expect(list.followIncludedLists)
    }

    @Test func listNoFollowKeepsTheFirstPageOfIncludedLists() throws {
        guard let list = try command(["list", "Post", "--include", "comments", "--no-follow"]).invocation(as: ListInvocation.self) else {
            Issue.record("expected a list invocation")
            return
        }
        #expect(!list.followIncludedLists)
    }

    @Test func listDefaults() throws {
        #expect(
            try command(["list", "Comment"])
                == .list(ListInvocation(
                    model: "Comment", index: nil, sort: nil, conditions: [], filter: nil, limit: nil, pageSize: 1000, nextToken: nil,
                    includes: [], followIncludedLists: true)))
    }

    @Test func listThroughAnIndex() throws {
        guard let list = try command(
            ["list", "Comment", "--index", "commentsByPostId", "--sort", "DESC", "--where", "post=p1"]
        ).invocation(as: ListInvocation.self) else {
            Issue.record("expected a list invocation")
            return
        }
        #expect(list.index == "commentsByPostId")
        #expect(list.sort == .desc)
        #expect(list.conditions == ["post=p1"])
    }

    @Test func listFilterFromFileOrStandardInput() throws {
        guard let fromFile = try command(["list", "Post", "--filter", "@filter.json"]).invocation(as: ListInvocation.self),
              let fromInput = try command(["list", "Post", "--filter=@-"]).invocation(as: ListInvocation.self)
        else {
            Issue.record("expected list invocations")
            return
        }
        #expect(fromFile.filter == .file(.file("filter.json")))
        #expect(fromInput.filter == .file(.standardInput))
    }

    @Test func createWithTextAndJSONFields() throws {
        #expect(
            try command(["create", "Post", "title=Hello", "status=DRAFT", #"tags:=["a","b"]"#])
                == .create(CreateInvocation(
                    model: "Post", assignments: ["title=Hello", "status=DRAFT", #"tags:=["a","b"]"#], input: nil)))
        #expect(
            try command(["create", "Post", "--input", "-"])
                == .create(CreateInvocation(model: "Post", assignments: [], input: .standardInput)))
    }

    @Test func fieldValuesStartingWithDashFollowDoubleDash() throws {
        guard let create = try command(["create", "Post", "--", "title=-x-"]).invocation(as: CreateInvocation.self) else {
            Issue.record("expected create")
            return
        }
        #expect(create.input == nil)
        #expect(create.assignments == ["title=-x-"])
    }

    @Test func updateWithConditions() throws {
        let parsed = try command(["update", "Post", "--id", "p1", "status=PUBLISHED", "--if", "status=DRAFT", "--if", "rating?"])
        #expect(
            parsed == .update(UpdateInvocation(
                model: "Post", record: .id("p1"), assignments: ["status=PUBLISHED"], input: nil,
                conditions: ["status=DRAFT", "rating?"])))
        guard let fromFile = try command(["update", "Post", "--key", "id=p1", "--input", "changes.json"]).invocation(as: UpdateInvocation.self) else {
            Issue.record("expected update")
            return
        }
        #expect(fromFile.input == .file("changes.json"))
        #expect(fromFile.record == .key(["id=p1"]))
    }

    @Test func deleteWithCondition() throws {
        #expect(
            try command(["delete", "Post", "--id", "p1", "--if", "status=DRAFT"])
                == .delete(DeleteInvocation(
                    model: "Post", record: .id("p1"), conditions: ["status=DRAFT"])))
    }

    @Test func models() throws {
        #expect(try command(["models"]) == .models(ModelsInvocation(model: nil)))
        #expect(try command(["models", "Post"]) == .models(ModelsInvocation(model: "Post")))
    }

    @Test func rawFromFileWithVariables() throws {
        #expect(
            try command([
                "raw", "query.graphql", "--vars", "vars.json", "--var", "id=p1", "--var", "limit:=5",
                "--operation-name", "GetPost", "--decode-path", "getPost.comments",
            ])
                == .raw(RawInvocation(
                    document: .file(.file("query.graphql")), variablesFile: .file("vars.json"),
                    variables: ["id=p1", "limit:=5"],
                    operationName: "GetPost", decodePath: ["getPost", "comments"])))
    }

    @Test func rawFromStandardInputOrQueryText() throws {
        guard let fromInput = try command(["raw", "-"]).invocation(as: RawInvocation.self),
              let inline = try command(["raw", "--query", "{ __typename }", "--vars", "-"]).invocation(as: RawInvocation.self)
        else {
            Issue.record("expected raw invocations")
            return
        }
        #expect(fromInput.document == .file(.standardInput))
        #expect(inline.document == .text("{ __typename }"))
        #expect(inline.variablesFile == .standardInput)
        #expect(inline.decodePath == [])
    }
}

/// Every command-level mistake is one line on standard error with status 2.
@Suite struct CommandUsageErrorTests {
    @Test(arguments: [
        (["get"], "gqlc: missing MODEL for 'get'; usage: gqlc get MODEL (--id VALUE | --key FIELD=VALUE...) [--include PATH]... [--fields A,B,…] [--no-follow] [--include-deleted]"),
        (["get", "Post"], "gqlc: 'get' needs --id VALUE or --key FIELD=VALUE to pick the record"),
        (["get", "Post", "--id", "p1", "--key", "id=p1"], "gqlc: options '--id' and '--key' cannot be used together"),
        (["get", "Post", "--id", ""], "gqlc: option '--id' needs a non-empty value"),
        (["get", "Post", "p2", "--id", "p1"], "gqlc: unexpected argument 'p2'; usage: gqlc get MODEL (--id VALUE | --key FIELD=VALUE...) [--include PATH]... [--fields A,B,…] [--no-follow] [--include-deleted]"),
        (["get", "Po-st", "--id", "p1"], "gqlc: invalid model name 'Po-st': expected a GraphQL type name such as 'Post'"),
        (["get", "Post", "--id", "p1", "--limit", "3"], "gqlc: unknown option '--limit' for 'get'; run 'gqlc get --help' for its options"),
        (["list", "Post", "--sort", "desc"], "gqlc: option '--sort' needs '--index': only an index query is ordered by a sort key"),
        (["list", "Post", "--index", "postsByBlogId", "--sort", "down"],
         "gqlc: invalid value 'down' for '--sort': expected asc or desc"),
        (["list", "Post", "--limt", "3"], "gqlc: unknown option '--limt'; did you mean '--limit'?"),
        (["list", "Post", "--limit", "abc"], "gqlc: invalid value 'abc' for '--limit': expected a whole number of at least 1"),
        (["list", "Post", "--limit", "-2"], "gqlc: invalid value '-2' for '--limit': expected a whole number of at least 1"),
        (["list", "Post", "--limit", "0"], "gqlc: invalid value '0' for '--limit': expected a whole number of at least 1"),
        (["list", "Post", "--page-size", "0"], "gqlc: invalid value '0' for '--page-size': expected a whole number of at least 1"),
        (["list", "Post", "--limit"], "gqlc: option '--limit' needs a value (--limit N)"),
        (["list", "Post", "--next-token", ""], "gqlc: option '--next-token' needs a non-empty value"),
        (["list", "Post", "--filter", "[1]"], "gqlc: invalid value for '--filter': expected a JSON object such as '{\"rating\": {\"ge\": 4}}'"),
        (["list", "Post", "--filter", "{"], "gqlc: invalid JSON for '--filter': unexpected end of input; expected a string key in double quotes at column 2; use @FILE to read a file"),
        (["list", "Post", "--filter", "@"], "gqlc: option '--filter' needs a file name after '@'"),
        (["list", "Post", "Comment"], "gqlc: unexpected argument 'Comment'; usage: gqlc list MODEL [--index QUERYFIELD [--sort asc|desc]] [--where EXPR]... [--filter JSON|@FILE] [--limit N] [--page-size N] [--next-token TOKEN] [--include PATH]... [--fields A,B,…] [--no-follow] [--include-deleted]"),
        (["create", "Post", "--input"], "gqlc: option '--input' needs a value (--input FILE|-)"),
        (["update", "Post", "--id", "p1"], "gqlc: nothing to update: give FIELD=VALUE arguments or --input FILE"),
        (["update", "Post", "status=DRAFT"], "gqlc: 'update' needs --id VALUE or --key FIELD=VALUE to pick the record"),
        (["delete", "Post", "--id", "p1", "title=x"], "gqlc: unexpected argument 'title=x'; usage: gqlc delete MODEL (--id VALUE | --key FIELD=VALUE...) [--if EXPR]... [--expected-version N] [--cascade [--yes]]"),
        (["delete", "Post", "--id", "p1", "--include", "x"], "gqlc: unknown option '--include' for 'delete'; run 'gqlc delete --help' for its options"),
        (["models", "Post", "Comment"], "gqlc: unexpected argument 'Comment'; usage: gqlc models [MODEL]"),
        (["raw", "--vars", "-"], "gqlc: 'raw' needs a document: a FILE, '-' for standard input (or a pipe), or --query TEXT"),
        (["raw", "q.graphql", "--query", "{ a }"], "gqlc: give the document once: a FILE argument or --query, not both"),
        (["raw", "--query", " "], "gqlc: option '--query' needs a non-empty GraphQL document"),
        (["raw", "-", "--vars", "-"], "gqlc: standard input can be read once: '-' is given for both the document and --vars"),
        (["raw", "--query", "{ a }", "--operation-name", "a-b"], "gqlc: invalid value 'a-b' for '--operation-name': expected a GraphQL name such as ListPosts"),
        (["raw", "--query", "{ a }", "--decode-path", "a..b"], "gqlc: invalid value 'a..b' for '--decode-path': expected field names joined by dots, e.g. listPosts.items"),
        (["raw", "a.graphql", "b.graphql"], "gqlc: unexpected argument 'b.graphql'; usage: gqlc raw [FILE|-] [--query TEXT] [--vars FILE|-] [--var NAME=VALUE]... [--var NAME:=JSON]... [--operation-name NAME] [--decode-path A.B]"),
        (["lsit", "Post"], "gqlc: unknown command 'lsit'; did you mean 'list'?"),
        (["fetch", "Post"], "gqlc: unknown command 'fetch'; run 'gqlc help' for the list of commands"),
        (["help", "lsit"], "gqlc: unknown command 'lsit'; did you mean 'list'?"),
        (["help", "list", "get"], "gqlc: unexpected argument 'get'; usage: gqlc help [COMMAND | options]"),
        (["-v"], "gqlc: missing command; run 'gqlc help' for the list of commands"),
        (["--limit", "5", "list", "Post"], "gqlc: option '--limit' belongs after the command, as in 'gqlc list --limit N'"),
    ])
    func reportsOneLineAndExitsWithTwo(arguments: [String], message: String) {
        let result = runGQLC(arguments)
        #expect(result.code == .usage)
        #expect(result.error == message + "\n")
        #expect(result.output.isEmpty)
    }
}
