import Testing

@testable import GQLCore

/// The order a restore creates models in, and which links wait for a second pass.
@Suite struct RestorePlanTests {
    func schema(_ text: String) throws -> ModelSchema {
        let file = try SchemaLoader.load(bytes: Array(text.utf8), path: "schema.graphql")
        return try #require(file.schema)
    }

    @Test func parentsFirstAndJoinModelsLast() throws {
        let schema = try schema("""
            type Blog @model { id: ID! name: String posts: [Post] @hasMany }
            type Post @model { id: ID! title: String blogId: ID blog: Blog @belongsTo tags: [PostTag] @hasMany }
            type Tag @model { id: ID! label: String posts: [PostTag] @hasMany }
            type PostTag @model { id: ID! postId: ID post: Post @belongsTo tagId: ID tag: Tag @belongsTo }
            """)
        let plan = RestorePlan(schema: schema, models: ["PostTag", "Tag", "Post", "Blog"])
        #expect(plan.steps.map(\.model) == ["Blog", "Post", "Tag", "PostTag"])
        #expect(plan.steps.allSatisfy { $0.deferred.isEmpty })
    }

    @Test func selfAndMutualLinksAreDeferred() throws {
        let schema = try schema("""
            type Employee @model { id: ID! managerId: ID manager: Employee @belongsTo(references: ["managerId"]) reports: [Employee] @hasMany(references: ["managerId"]) }
            type Team @model { id: ID! leadId: ID lead: Lead @belongsTo(references: ["leadId"]) leads: [Lead] @hasMany(references: ["teamId"]) }
            type Lead @model { id: ID! teamId: ID team: Team @belongsTo(references: ["teamId"]) teams: [Team] @hasMany(references: ["leadId"]) }
            """)
        let plan = RestorePlan(schema: schema, models: ["Employee", "Team", "Lead"])
        #expect(plan.steps.first { $0.model == "Employee" }?.deferred == ["managerId"])
        // Of the two models pointing to each other, the first one created waits for its link; the second does not.
        #expect(plan.steps.map(\.model).suffix(2) == ["Lead", "Team"])
        #expect(plan.steps.first { $0.model == "Lead" }?.deferred == ["teamId"])
        #expect(plan.steps.first { $0.model == "Team" }?.deferred == [])
    }

    @Test func modelsNotRestoredAreNotWaitedFor() throws {
        let schema = try schema("""
            type Blog @model { id: ID! posts: [Post] @hasMany }
            type Post @model { id: ID! blogId: ID blog: Blog @belongsTo }
            """)
        #expect(RestorePlan(schema: schema, models: ["Post"]).steps == [.init(model: "Post", deferred: [])])
    }
}
