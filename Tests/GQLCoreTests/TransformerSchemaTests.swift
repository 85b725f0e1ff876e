import Foundation
import Testing
@testable import GQLCore

/// The `@model` SDL read into the same models as the model-introspection file of the same app.
@Suite struct TransformerSchemaTests {
    static func read(_ text: String, path: String = "schema.graphql") throws -> ModelSchema {
        try TransformerSchemaReader.read(text: text, path: path)
    }

    static func expectError(_ text: String, _ expected: String) {
        do {
            _ = try read(text)
            Issue.record("expected an error: \(expected)")
        } catch {
            #expect(String(describing: error) == expected)
        }
    }

    /// Pairs of our own: each SDL beside the MIS written by hand from the transformer's rules.
    @Test(arguments: [
        ("gen1-conventions.graphql", "gen1-conventions.mis.json"),
        ("gen2-conventions.graphql", "gen2-conventions.mis.json"),
        ("directives.graphql", "directives.mis.json"),
        ("custom-operations.graphql", "custom-operations.mis.json"),
    ])
    func sdlGivesTheModelsOfItsIntrospectionFile(sdl: String, mis: String) throws {
        let fromSDL = try SchemaLoader.load(path: TestPaths.projectFixture(sdl))
        let fromMIS = try SchemaLoader.load(path: TestPaths.projectFixture(mis))
        #expect(fromSDL.format == .transformerSDL)
        let derived = try #require(fromSDL.schema)
        let expected = try #require(fromMIS.schema)
        #expect(derived.modelNames == expected.modelNames)
        for name in expected.modelNames {
            // Model introspection does not record @default; only the SDL knows a field has one.
            var model = derived.models[name]
            for index in model?.fields.indices ?? 0..<0 { model?.fields[index].hasDefault = false }
            #expect(model == expected.models[name], "model \(name)")
        }
        #expect(derived.enums == expected.enums)
        #expect(derived.nonModels == expected.nonModels)
        #expect(derived.customOperations == expected.customOperations)
        #expect(derived.inputs == expected.inputs)
    }

    @Test func implicitForeignKeysFollowTheTransformerNaming() throws {
        let schema = try Self.read("""
            type Team @model { teamId: ID! @primaryKey(sortKeyFields: ["name"]) name: String! members: [Member] @hasMany }
            type Member @model { id: ID! team: Team @belongsTo }
            """)
        let member = try #require(schema.models["Member"])
        #expect(member.fields.map(\.name) == ["id", "team", "createdAt", "updatedAt", "teamMembersTeamId", "teamMembersName"])
        #expect(member.field(named: "teamMembersName")?.type == .scalar("String"))
        #expect(member.field(named: "team")?.association == .belongsTo(targetNames: ["teamMembersTeamId", "teamMembersName"]))
    }

    @Test func pluralsFollowThePluralizeRules() {
        let cases = [
            ("Blog", "Blogs"), ("Library", "Libraries"), ("Shelf", "Shelves"), ("Series", "Series"), ("Person", "People"),
            ("SalesPerson", "SalesPeople"), ("Child", "Children"), ("SSN", "SSNS"), ("Primary", "Primaries"),
            ("TodoMetadata", "TodoMetadata"), ("PostTags", "PostTags"), ("Address", "Addresses"), ("Box", "Boxes"),
            ("Status", "Statuses"), ("Wife", "Wives"), ("Day", "Days"), ("Analysis", "Analyses"), ("Match", "Matches"),
        ]
        for (singular, plural) in cases {
            #expect(Pluralizer.plural(singular) == plural, "\(singular)")
        }
    }

    @Test func unknownDirectiveIsLocatedWithASuggestion() {
        Self.expectError(
            "type Post @model {\n  id: ID!\n  blog: Blog @hasmany\n}\ntype Blog @model { id: ID! }",
            "schema.graphql: 3:14: unknown directive '@hasmany'; did you mean '@hasMany'?")
    }

    @Test func declaredDirectivesAreAccepted() throws {
        let schema = try Self.read("directive @custom on OBJECT\ntype Post @model @custom { id: ID! }")
        #expect(schema.modelNames == ["Post"])
    }

    @Test func syntaxErrorsHaveLineAndColumn() {
        Self.expectError("type Post @model {\n  id: ID!\n  title String\n}",
                         "schema.graphql: 3:9: unexpected name 'String'; expected ':' and a type after 'title'")
        Self.expectError("query { posts }", "schema.graphql: 1:1: unexpected name 'query'; expected a type definition "
                         + "(type, enum, input, interface, union, scalar, schema, directive or extend); this looks like an "
                         + "operation, and a schema holds type definitions")
    }

    @Test func unknownTypesAndKeysAreLocated() {
        Self.expectError("type Post @model {\n  id: ID!\n  status: Stauts\n}\nenum Status { A }",
                         "schema.graphql: 3:3: unknown type 'Stauts' for field 'status'; did you mean 'Status'?")
        Self.expectError("type Post @model {\n  id: ID! @primaryKey(sortKeyFields: [\"titel\"])\n  title: String!\n}",
                         "schema.graphql: 2:11: 'titel' is not a field of Post; did you mean 'title'?")
        Self.expectError("type Post @model {\n  id: ID!\n  blog: Blog\n}\ntype Blog @model { id: ID! }",
                         "schema.graphql: 3:3: field 'blog' of model Post has the model type Blog but no @hasMany, @hasOne, "
                         + "@belongsTo or @manyToMany")
        Self.expectError("type Post @model(timestamps: 5) { id: ID! }",
                         "schema.graphql: 1:11: @model timestamps must be an object such as {createdAt: \"createdOn\"} or null")
    }

    @Test func customOperationArgumentsOfInputTypesAreInputs() throws {
        let schema = try Self.read("""
            input Bounds { low: Int! high: Int }
            input Filter { range: Bounds tags: [String!] }
            input Unused { x: Int }
            type Query { search(filter: Filter!, limit: Int): [String] }
            """)
        let argument = try #require(schema.customOperations.first?.arguments.first)
        #expect(argument.type == .input("Filter") && argument.isRequired)
        #expect(schema.inputs["Filter"]?.fields.map(\.type) == [.input("Bounds"), .scalar("String")])
        #expect(schema.inputs.keys.sorted() == ["Bounds", "Filter", "Unused"])
        #expect(schema.nonModels.isEmpty)
    }

    @Test func argumentsOfOutputOrUnknownTypesAreLocated() {
        Self.expectError("type Range { low: Int }\ntype Query {\n  echo(range: Range): Int\n}",
                         "schema.graphql: 3:8: argument 'range' of Query.echo has the output type Range, but arguments take "
                         + "scalars, enums and input types; declare an input type (input RangeInput { … })")
        Self.expectError("input Bounds { low: Int }\ntype Query {\n  echo(range: Bound): Int\n}",
                         "schema.graphql: 3:8: unknown type 'Bound' for argument 'range' of Query.echo; did you mean 'Bounds'?")
        Self.expectError("input Bounds { low: Strng }\ntype Query { echo(range: Bounds): Int }",
                         "schema.graphql: 1:16: unknown type 'Strng' for field 'low' of input Bounds; did you mean 'String'?")
        // Of several faulty inputs the first in the file is reported, whatever order a dictionary holds them in.
        let inputs = (1...12).map { "input In\($0) { x: Nope\($0) }" }.joined(separator: "\n")
        Self.expectError(inputs + "\ntype Query { echo(a: In1): Int }",
                         "schema.graphql: 1:13: unknown type 'Nope1' for field 'x' of input In1")
    }

    @Test func embeddedCyclesAreRefused() {
        Self.expectError("type Post @model { id: ID! a: A }\ntype A { b: B }\ntype B { a: A }",
                         "schema.graphql: 3:6: embedded types form a cycle (A → B → A), which cannot be selected")
    }

    @Test func sdlIsRecognisedWithoutItsFileName() throws {
        let text = "# the API\n\ntype Post @model { id: ID! }\n"
        let file = try SchemaLoader.load(bytes: Array(text.utf8), path: "/dev/stdin")
        #expect(file.format == .transformerSDL && file.schema?.modelNames == ["Post"])
    }

    @Test func extensionsAddFields() throws {
        let schema = try Self.read("type Post @model { id: ID! }\nextend type Post { title: String }")
        #expect(schema.models["Post"]?.field(named: "title") != nil)
    }

    @Test func aRequiredFieldWithADefaultNeedNotBeGivenOnCreate() throws {
        let schema = try Self.read(#"type Todo @model { id: ID! name: String! done: Boolean! @default(value: "false") }"#)
        #expect(schema.models["Todo"]?.field(named: "done")?.hasDefault == true)
        #expect(schema.models["Todo"]?.field(named: "name")?.hasDefault == false)
        _ = try RequestBuilder(schema: schema).create("Todo", values: RecordValues(assignments: ["name=milk"]))
    }

    /// The transformer's `ModelSubscriptionMap` takes lists of names, `level: off` removes the subscriptions, and a
    /// subscription exists only while its mutation does (model-transformer's getSubscriptionFieldNames).
    @Test func subscriptionsFollowTheirMutationsAndTakeListsOfNames() throws {
        let renamed = try Self.read(#"type Post @model(subscriptions: {onCreate: ["postCreated", "postAdded"], onDelete: []}) { id: ID! }"#)
        let post = try #require(renamed.models["Post"]).operations
        #expect((post.onCreate, post.onUpdate, post.onDelete) == ("postCreated", "onUpdatePost", nil))
        let off = try #require(Self.read("type Post @model(subscriptions: {level: off}) { id: ID! }").models["Post"]).operations
        #expect((off.onCreate, off.onUpdate, off.onDelete) == (nil, nil, nil))
        let noDelete = try #require(Self.read("type Post @model(mutations: {delete: null}) { id: ID! }").models["Post"]).operations
        #expect((noDelete.onCreate, noDelete.onUpdate, noDelete.onDelete) == ("onCreatePost", "onUpdatePost", nil))
        Self.expectError(#"type Post @model(subscriptions: {onCreate: [1]}) { id: ID! }"#,
                         "schema.graphql: 1:11 @model.subscriptions.onCreate[0]: expected a string, found a number")
    }

    @Test func primaryKeysMustBeNonNullAndAnIdWithoutBangIsRequired() throws {
        Self.expectError("type Post @model {\n  slug: String @primaryKey\n}",
                         "schema.graphql: 2:16: the primary key of Post must be non-null, but 'slug' may be null; write 'slug: String!'")
        let post = try #require(Self.read("type Post @model { id: ID title: String }").models["Post"])
        #expect(post.field(named: "id")?.isRequired == true)
        #expect(post.field(named: "title")?.isRequired == false)
    }
}

/// The shared Gen 1 blog: its input schema against the model introspection codegen wrote for it.
@Suite(.enabled(if: TestPaths.hasSharedFixtures, "the shared Amplify fixtures are not beside this checkout"))
struct SharedTransformerSchemaTests {
    @Test func gen1BlogInputSchemaGivesTheCodegenModels() throws {
        let text = try String(contentsOfFile: TestPaths.fixture("gen1-blog.input-schema.graphql"), encoding: .utf8)
        let derived = try TransformerSchemaReader.read(text: text, path: "gen1-blog.input-schema.graphql")
        let expected = try #require(try SchemaLoader.load(path: TestPaths.fixture("gen1-blog-hasmany-belongsto.mis.json")).schema)
        #expect(derived == expected)
    }

    @Test func theServedSchemaIsRecognisedAndRefused() throws {
        let text = try String(contentsOfFile: TestPaths.fixture("gen1-blog.appsync-sdl.graphql"), encoding: .utf8)
        do {
            _ = try TransformerSchemaReader.read(text: text, path: "blog-sdl.graphql")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("this is the schema AppSync serves (it has ModelBlogConnection), not the @model schema"))
        }
    }
}

/// `aws-exports.js` read as data.
@Suite struct AWSExportsTests {
    static let file = """
        /* eslint-disable */
        // WARNING: DO NOT EDIT. This file is automatically generated by AWS Amplify. It will be overwritten.

        const awsmobile = {
            "aws_project_region": "us-east-1",
            "aws_appsync_graphqlEndpoint": "https://abc.appsync-api.us-east-1.amazonaws.com/graphql",
            "aws_appsync_region": "us-east-1",
            "aws_appsync_authenticationType": "API_KEY",
            "aws_appsync_apiKey": "da2-fakeApiKey00000000000000",
            "oauth": {},
            'aws_cognito_username_attributes': ['EMAIL',],
            aws_cognito_mfa_types: ["SMS"], // trailing comment
            "aws_cognito_password_protection_settings": { "passwordPolicyMinLength": 8 },
        };


        export default awsmobile;
        """

    @Test func readsTheServiceSettings() throws {
        let file = try SchemaLoader.load(bytes: Array(Self.file.utf8), path: "src/aws-exports.js")
        #expect(file.format == .awsExports)
        #expect(file.schema == nil)
        #expect(file.service == ServiceConfig(
            endpoint: "https://abc.appsync-api.us-east-1.amazonaws.com/graphql", apiKey: "da2-fakeApiKey00000000000000",
            region: "us-east-1", defaultAuthorizationType: "API_KEY"))
    }

    @Test func refusesCodeWithAPosition() {
        let text = "const awsmobile = {\n  \"aws_appsync_apiKey\": process.env.KEY,\n};\nexport default awsmobile;"
        do {
            _ = try SchemaLoader.load(bytes: Array(text.utf8), path: "aws-exports.js")
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error)
                == "aws-exports.js: 2:25: 'process.env.KEY' is not a literal value; gqlc reads aws-exports.js without running it")
        }
    }
}

/// What `schema pull` writes reads back as the same models.
@Suite struct ModelIntrospectionWriterTests {
    @Test(arguments: ["gen1-conventions.mis.json", "gen2-conventions.mis.json", "directives.mis.json", "amplify_outputs.json",
                      "custom-operations.mis.json"])
    func writtenSchemasReadBackTheSame(name: String) throws {
        let schema = try #require(try SchemaLoader.load(path: TestPaths.projectFixture(name)).schema)
        var writer = JSONWriter(style: .compact)
        writer.write(ModelIntrospectionWriter.json(schema))
        let reread = try #require(try SchemaLoader.load(bytes: writer.bytes, path: "pulled.json").schema)
        #expect(reread == schema)
    }

    @Test func cachePathsAreKeyedByEndpoint() {
        let first = SchemaDiscovery.cachePath(endpoint: "https://a.appsync-api.us-east-1.amazonaws.com/graphql", cacheDirectory: "/c")
        let second = SchemaDiscovery.cachePath(endpoint: "https://a.appsync-api.us-east-1.amazonaws.com/other", cacheDirectory: "/c")
        #expect(first.hasPrefix("/c/schema-a.appsync-api.us-east-1.amazonaws.com-") && first.hasSuffix(".json"))
        #expect(first != second)
        #expect(SchemaDiscovery.cacheDirectory(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]) == "/x/gqlc")
        #expect(SchemaDiscovery.cacheDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]) == "/h/.cache/gqlc")
    }
}

/// Gen 1 projects that split the schema into `amplify/backend/api/<name>/schema/*.graphql`.
@Suite struct SplitSchemaTests {
    static func folder(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-split-\(UUID().uuidString)").path
        for (name, text) in files {
            let path = root + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test func theFilesOfASchemaFolderAreOneDocument() throws {
        let whole = try String(contentsOfFile: TestPaths.projectFixture("custom-operations.graphql"), encoding: .utf8)
        let cut = try #require(whole.range(of: "type Range {"))
        let root = try Self.folder(["models.graphql": String(whole[..<cut.lowerBound]),
                                    "custom/operations.graphql": String(whole[cut.lowerBound...]), "notes.txt": "not read"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let split = try #require(try SchemaLoader.load(path: root).schema)
        let single = try #require(try SchemaLoader.load(path: TestPaths.projectFixture("custom-operations.graphql")).schema)
        #expect(split == single)
        #expect(SplitSchemaReader.files(in: root) == [root + "/custom/operations.graphql", root + "/models.graphql"])
    }

    @Test func errorsNameTheFileAndItsOwnLine() throws {
        let root = try Self.folder(["a.graphql": "type Blog @model {\n  id: ID!\n}\n", "b.graphql": "\ntype Post @model {\n  blog: Blgo\n}\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        do {
            _ = try SchemaLoader.load(path: root)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "\(root)/b.graphql: 3:3: unknown type 'Blgo' for field 'blog'; did you mean 'Blog'?")
        }
    }

    @Test func aProjectWithASchemaFolderIsFound() throws {
        let root = try Self.folder(["amplify/backend/api/blog/schema/Post.graphql": "type Post @model { id: ID! }\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(SchemaDiscovery.findAll(from: root + "/amplify") == [root + "/amplify/backend/api/blog/schema"])
    }
}
