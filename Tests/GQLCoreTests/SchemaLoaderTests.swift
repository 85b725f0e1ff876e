import Foundation
import Testing
@testable import GQLCore

@Suite struct SchemaLoaderTests {
    /// Loads `path` and checks every relationship resolves to foreign keys that exist on the side that holds them.
    static func expectRelationshipsResolve(_ path: String) throws {
        let file = try SchemaLoader.load(path: path)
        let schema = try #require(file.schema)
        #expect(!schema.models.isEmpty)
        for model in schema.models.values {
            for field in model.fields where field.association != nil {
                let relation = try #require(schema.relationship(of: field))
                let holder = relation.keyHolder == .thisModel ? model : try #require(schema.models[relation.relatedModel])
                for key in relation.foreignKeys {
                    #expect(holder.field(named: key) != nil, "\(model.name).\(field.name): \(key) missing on \(holder.name)")
                }
            }
        }
    }

    static func load(_ name: String) throws -> ModelSchema {
        try #require(try SchemaLoader.load(path: TestPaths.projectFixture(name)).schema)
    }

    static let projectFixtures = [
        "gen1-conventions.mis.json", "gen2-conventions.mis.json", "amplify_outputs.json", "amplifyconfiguration.json",
        "aws-scalars.mis.json", "custom-operations.mis.json", "directives.mis.json", "gen1-conventions.graphql",
        "gen2-conventions.graphql", "directives.graphql", "custom-operations.graphql", "gen1-datastore.mis.json",
    ]

    @Test(arguments: projectFixtures)
    func everyProjectFixtureLoads(name: String) throws {
        try Self.expectRelationshipsResolve(TestPaths.projectFixture(name))
    }

    @Test func everyProjectFixtureFileIsCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestPaths.projectFixtures.path)
        #expect(Set(names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".graphql") }) == Set(Self.projectFixtures))
    }

    @Test func amplifyOutputsCarriesServiceSettings() throws {
        let file = try SchemaLoader.load(path: TestPaths.projectFixture("amplify_outputs.json"))
        #expect(file.format == .amplifyOutputs)
        #expect(file.service.endpoint == "https://example.appsync-api.us-east-2.amazonaws.com/graphql")
        #expect(file.service.apiKey == "da2-exampleexampleexample")
        #expect(file.service.region == "us-east-2")
        #expect(file.service.defaultAuthorizationType != nil)
        #expect(file.schema?.models["Shopper"] != nil)
    }

    @Test func legacyConfigCarriesServiceSettings() throws {
        let file = try SchemaLoader.load(path: TestPaths.projectFixture("amplifyconfiguration.json"))
        #expect(file.format == .legacyConfig)
        #expect(file.service.endpoint == "https://example.appsync-api.eu-west-1.amazonaws.com/graphql")
        #expect(file.service.apiKey == "da2-legacyexample")
        #expect(file.schema?.models["Library"] != nil)
    }

    @Test func gen1ImplicitForeignKeys() throws {
        let schema = try Self.load("gen1-conventions.mis.json")
        let shelf = try #require(schema.models["Shelf"])
        let books = try #require(shelf.field(named: "books"))
        #expect(schema.relationship(of: books) == Relationship(
            kind: .hasMany, relatedModel: "Book", keyHolder: .relatedModel, foreignKeys: ["shelfBooksId"]))
        let library = try #require(shelf.field(named: "library"))
        #expect(schema.relationship(of: library)?.foreignKeys == ["libraryShelvesId"])
        #expect(shelf.pluralName == "Shelves")
        #expect(shelf.operations.list == "listShelves")
    }

    @Test func associatedWithNamingAModelFieldFollowsItsTargetNames() throws {
        let schema = try Self.load("gen1-conventions.mis.json")
        let tracks = try #require(schema.models["Album"]?.field(named: "tracks"))
        let relation = try #require(schema.relationship(of: tracks))
        #expect(relation.keyHolder == .relatedModel)
        #expect(relation.foreignKeys == ["albumId", "albumTitle"])
    }

    @Test func compositeImplicitForeignKeys() throws {
        let schema = try Self.load("gen1-conventions.mis.json")
        let episodes = try #require(schema.models["Series"]?.field(named: "episodes"))
        #expect(schema.relationship(of: episodes) == Relationship(kind: .hasMany, relatedModel: "Episode",
            keyHolder: .relatedModel, foreignKeys: ["seriesEpisodesSeriesId", "seriesEpisodesTitle"]))
    }

    @Test func manyToManyGoesThroughTheJoinModel() throws {
        let schema = try Self.load("gen1-conventions.mis.json")
        let clubs = try #require(schema.models["Reader"]?.field(named: "clubs"))
        #expect(schema.relationship(of: clubs) == Relationship(
            kind: .hasMany, relatedModel: "ClubMembership", keyHolder: .relatedModel, foreignKeys: ["readerId"]))
        let club = try #require(schema.models["ClubMembership"]?.field(named: "club"))
        #expect(schema.relationship(of: club) == Relationship(
            kind: .belongsTo, relatedModel: "Club", keyHolder: .thisModel, foreignKeys: ["clubId"]))
    }

    @Test func gen1HasOneKeepsKeysOnTheParent() throws {
        let schema = try Self.load("gen1-conventions.mis.json")
        let profile = try #require(schema.models["Author"]?.field(named: "profile"))
        #expect(schema.relationship(of: profile) == Relationship(kind: .hasOne, relatedModel: "Profile",
            keyHolder: .thisModel, foreignKeys: ["authorProfileProfileId", "authorProfileHandle"]))
    }

    @Test func gen2HasOneKeepsKeysOnTheChild() throws {
        let schema = try Self.load("gen2-conventions.mis.json")
        let basket = try #require(schema.models["Shopper"]?.field(named: "basket"))
        #expect(schema.relationship(of: basket) == Relationship(
            kind: .hasOne, relatedModel: "Basket", keyHolder: .relatedModel, foreignKeys: ["shopperId"]))
    }

    @Test func compositeKeysReferencesAndIndexes() throws {
        let gen2 = try Self.load("gen2-conventions.mis.json")
        let store = try #require(gen2.models["Store"])
        #expect(store.primaryKey.fields == ["region", "storeId"])
        let shelves = try #require(store.field(named: "shelves"))
        #expect(gen2.relationship(of: shelves) == Relationship(
            kind: .hasMany, relatedModel: "StoreShelf", keyHolder: .relatedModel, foreignKeys: ["storeRegion", "storeStoreId"]))
        #expect(gen2.models["StoreShelf"]?.operations.list == "listStoreShelves")
        #expect(gen2.models.values.flatMap(\.indexes).compactMap(\.queryField) == ["listOrdersByStatus"])

        let gen1 = try Self.load("gen1-conventions.mis.json")
        #expect(gen1.models["Profile"]?.primaryKey.fields == ["profileId", "handle"])
        #expect(Set(gen1.models.values.flatMap(\.indexes).compactMap(\.queryField)) == ["booksByTitle"])
    }

    @Test func authRulesAndCustomOperationsAreKept() throws {
        let schema = try Self.load("gen2-conventions.mis.json")
        #expect(schema.models["Shopper"]?.authRules == [
            AuthRule(allow: "owner", provider: "userPools", operations: ["create", "update", "delete", "read"],
                     ownerField: "owner", identityClaim: "cognito:username"),
            AuthRule(allow: "public", provider: "apiKey", operations: ["create", "update", "delete", "read"]),
        ])
        #expect(schema.customOperations.map { "\($0.kind) \($0.name): \($0.result.graphQLType)" }
            == ["query priceQuote: Money", "mutation checkout: Receipt", "subscription onReceipt: Receipt"])
        #expect(schema.customOperations.first?.arguments.map { "\($0.name): \($0.graphQLType)" } == ["sku: String!", "quantity: Int"])
    }

    @Test func modelAttributeOverridesRenameAndDisable() throws {
        let json = try JSONValue.parse(#"""
        {"version":1,"enums":{},"nonModels":{},"models":{"Note":{"name":"Note","pluralName":"Notes",
          "fields":{"id":{"name":"id","type":"ID","isArray":false,"isRequired":true}},
          "attributes":[{"type":"model","properties":{"queries":{"list":"allNotes"},"mutations":{"delete":null},"subscriptions":null}}],
          "primaryKeyInfo":{"isCustomPrimaryKey":false,"primaryKeyFieldName":"id","sortKeyFieldNames":[]}}}}
        """#)
        let note = try #require(try SchemaLoader.decode(json, path: "notes.json").schema?.models["Note"])
        #expect(note.operations.list == "allNotes")
        #expect(note.operations.get == "getNote")
        #expect(note.operations.delete == nil)
        #expect(note.operations.create == "createNote")
        #expect(note.operations.onCreate == nil)
    }

    @Test func projectExamplesLoad() throws {
        for name in ["blog.json", "tags.json", "inventory.json"] {
            let file = try SchemaLoader.load(path: TestPaths.example(name))
            #expect(file.schema?.models.isEmpty == false)
        }
    }
}

@Suite struct MalformedSchemaTests {
    private func error(_ text: String) -> String? {
        do {
            _ = try SchemaLoader.load(bytes: Array(text.utf8), path: "blog.json")
            return nil
        } catch {
            return error.description
        }
    }

    private let postWithTitleType = { (type: String) in
        #"{"version":1,"models":{"Post":{"name":"Post","pluralName":"Posts","fields":{"id":{"name":"id","type":"ID"},"title":{"name":"title","type":"# + type + #"}}}},"enums":{},"nonModels":{}}"#
    }

    @Test func wrongFieldTypeNamesTheJSONPath() {
        #expect(error(postWithTitleType("12")) == "blog.json: models.Post.fields.title.type: expected a string or an object, found a number")
        #expect(error(postWithTitleType("{}")) == "blog.json: models.Post.fields.title.type: expected one of the keys 'model', 'enum', 'nonModel' or 'input'")
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        #expect(error("{\n  \"models\": {,}\n}") == "blog.json: 2:14: unexpected character ','; expected a string key in double quotes")
        #expect(error("{\"models\": ") == "blog.json: 1:12: unexpected end of input; expected a value")
    }

    @Test func unknownReferencesSuggestAName() {
        let text = #"{"models":{"Post":{"fields":{"id":{"type":"ID"},"status":{"type":{"enum":"PostStatsu"}}}}},"enums":{"PostStatus":{"name":"PostStatus","values":["A"]}}}"#
        #expect(error(text) == "blog.json: models.Post.fields.status.type.enum: unknown enum 'PostStatsu'; did you mean 'PostStatus'?")
    }

    @Test func missingKeysAndWrongShapes() {
        #expect(error("[]") == "blog.json: expected a JSON object at the top level, found an array")
        #expect(error("{}") == "blog.json: not a model schema or Amplify config: expected 'models', 'data.model_introspection' or 'modelIntrospection'")
        #expect(error(#"{"models":{"Post":{"name":"Post"}}}"#) == "blog.json: models.Post.fields: missing required key")
        #expect(error(#"{"models":{"Post":{"fields":{"title":{"type":"String"}}}}}"#)
            == "blog.json: models.Post: model Post has no primaryKeyInfo and no 'id' field, so its key is unknown")
        #expect(error(#"{"models":[]}"#) == "blog.json: models: expected an object, found an array")
        #expect(error(#"{"version":2,"models":{}}"#) == "blog.json: version: unsupported model introspection version 2; gqlc reads version 1")
        #expect(error(#"{"data":{"model_introspection":{"models":{"A":{"fields":{"id":{"type":"ID","isArray":"no"}}}}}}}"#)
            == "blog.json: data.model_introspection.models.A.fields.id.isArray: expected true or false, found a string")
    }

    @Test func keyFieldsMustExist() {
        let text = #"{"models":{"Post":{"fields":{"id":{"type":"ID"}},"primaryKeyInfo":{"primaryKeyFieldName":"postId","sortKeyFieldNames":[]}}}}"#
        #expect(error(text) == "blog.json: models.Post.primaryKeyInfo: key field 'postId' is not a field of Post")
    }

    @Test func embeddedTypeCyclesAreRejected() {
        let text = #"{"models":{},"nonModels":{"A":{"fields":{"b":{"type":{"nonModel":"B"}}}},"B":{"fields":{"a":{"type":{"nonModel":"A"}}}}}}"#
        #expect(error(text) == "blog.json: nonModels.B: embedded types form a cycle (A → B → A), which cannot be selected")
    }

    @Test func missingFileIsOneLine() {
        do {
            _ = try SchemaLoader.load(path: "/nonexistent/blog.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/blog.json: no such file")
        }
    }
}

/// The loader over the real Amplify files in the shared fixtures; runs only when they are there.
@Suite(.enabled(if: TestPaths.hasSharedFixtures, "the shared Amplify fixtures are not beside this checkout"))
struct SharedFixtureLoaderTests {
    @Test(arguments: [
        "gen1-blog-hasmany-belongsto.mis.json", "gen1-cpk-hasone-hasmany-manytomany.mis.json",
        "gen2-amplify-data-modeled.mis.json", "gen2-amplify-data-modeled.amplifyconfiguration.json",
        "gen2-cart-customer.amplify_outputs.json", "gen2-references-cpk-hasmany.mis.json",
    ])
    func everySharedFixtureLoads(name: String) throws {
        try SchemaLoaderTests.expectRelationshipsResolve(TestPaths.fixture(name))
    }

    @Test func everySharedFixtureFileIsCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestPaths.sharedFixtures.path)
        let loadable = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix("ModelIntrospectionSchema") }
        #expect(loadable.count == 6)
    }

    @Test func amplifyOutputsCarriesServiceSettings() throws {
        let file = try SchemaLoader.load(path: TestPaths.fixture("gen2-cart-customer.amplify_outputs.json"))
        #expect(file.format == .amplifyOutputs)
        #expect(file.service.endpoint?.hasSuffix("/graphql") == true)
        #expect(file.service.apiKey != nil)
        #expect(file.service.region != nil)
        #expect(file.service.defaultAuthorizationType != nil)
    }

    @Test func legacyConfigCarriesServiceSettings() throws {
        let file = try SchemaLoader.load(path: TestPaths.fixture("gen2-amplify-data-modeled.amplifyconfiguration.json"))
        #expect(file.format == .legacyConfig)
        #expect(file.service.endpoint != nil)
        #expect(file.service.apiKey != nil)
        #expect(file.schema?.models["Post"] != nil)
    }

    @Test func gen1ImplicitForeignKeys() throws {
        let schema = try #require(try SchemaLoader.load(path: TestPaths.fixture("gen1-blog-hasmany-belongsto.mis.json")).schema)
        let post = try #require(schema.models["Post"])
        let comments = try #require(post.field(named: "comments"))
        #expect(schema.relationship(of: comments) == Relationship(
            kind: .hasMany, relatedModel: "Comment", keyHolder: .relatedModel, foreignKeys: ["postCommentsId"]))
        let blog = try #require(post.field(named: "blog"))
        #expect(schema.relationship(of: blog)?.foreignKeys == ["blogPostsId"])
        #expect(post.operations.list == "listPosts")
    }

    @Test func associatedWithNamingAModelFieldFollowsItsTargetNames() throws {
        let schema = try #require(try SchemaLoader.load(path: TestPaths.fixture("gen1-cpk-hasone-hasmany-manytomany.mis.json")).schema)
        let post3 = try #require(schema.models["Post3"])
        let comments = try #require(post3.field(named: "comments"))
        let relation = try #require(schema.relationship(of: comments))
        #expect(relation.keyHolder == .relatedModel)
        #expect(relation.foreignKeys == ["postId", "postTitle"])
    }

    @Test func gen1HasOneKeepsKeysOnTheParent() throws {
        let schema = try #require(try SchemaLoader.load(path: TestPaths.fixture("gen1-cpk-hasone-hasmany-manytomany.mis.json")).schema)
        let project = try #require(schema.models["Project1"])
        let team = try #require(project.field(named: "team"))
        #expect(schema.relationship(of: team) == Relationship(
            kind: .hasOne, relatedModel: "Team1", keyHolder: .thisModel, foreignKeys: ["project1TeamTeamId", "project1TeamName"]))
    }

    @Test func gen2HasOneKeepsKeysOnTheChild() throws {
        let schema = try #require(try SchemaLoader.load(path: TestPaths.fixture("gen2-cart-customer.amplify_outputs.json")).schema)
        let customer = try #require(schema.models["Customer"])
        let cart = try #require(customer.field(named: "activeCart"))
        #expect(schema.relationship(of: cart) == Relationship(
            kind: .hasOne, relatedModel: "Cart", keyHolder: .relatedModel, foreignKeys: ["customerId"]))
    }

    @Test func compositeKeysAndIndexes() throws {
        let schema = try #require(try SchemaLoader.load(path: TestPaths.fixture("gen2-references-cpk-hasmany.mis.json")).schema)
        let primary = try #require(schema.models["Primary"])
        #expect(primary.primaryKey.fields == ["tenantId", "instanceId", "recordId"])
        #expect(primary.pluralName == "Primaries")
        #expect(primary.operations.list == "listPrimaries")

        let modeled = try #require(try SchemaLoader.load(path: TestPaths.fixture("gen2-amplify-data-modeled.mis.json")).schema)
        let queryable = modeled.models.values.flatMap(\.indexes).compactMap(\.queryField)
        #expect(queryable.contains("listByTitle"))
    }
}
