import Foundation
import Testing
@testable import GQLCore

/// Conflict detection (Gen 1 DataStore APIs): where gqlc learns it, and what it changes in requests.
@Suite struct ConflictDetectionTests {
    static let gen1Schema = "gen1-datastore/amplify/backend/api/shop/schema.graphql"

    @Test func transformConfigSetsTheProjectHandlerAndAModelsOwn() throws {
        let schema = try #require(try SchemaLoader.load(path: TestPaths.projectFixture(Self.gen1Schema)).schema)
        let warehouse = try #require(schema.models["Warehouse"])
        let item = try #require(schema.models["StockItem"])
        #expect(warehouse.conflictDetection?.handler == .optimisticConcurrency)
        #expect(warehouse.conflictDetection?.source == "transform.conf.json (project)")
        #expect(item.conflictDetection?.handler == .automerge)
        #expect(item.conflictDetection?.source == "transform.conf.json (models.StockItem)")
        let version = try #require(item.field(named: "_version"))
        #expect(version.isReadOnly && version.isRequired)
        #expect(ConflictDetection.syncQuery(of: item) == "syncStockItems")
    }

    @Test func withoutTransformConfigNoModelHasIt() throws {
        let schema = try #require(try SchemaLoader.load(path: TestPaths.projectFixture("gen1-datastore.mis.json")).schema)
        #expect(schema.models.values.allSatisfy { $0.conflictDetection == nil && $0.field(named: "_version") == nil })
    }

    @Test func aPulledTypeWithVersionHasIt() throws {
        let mis = """
            {"version": 1, "models": {"Note": {"name": "Note", "pluralName": "Notes", "syncable": true, "attributes": [],
             "fields": {"id": {"name": "id", "type": "ID", "isRequired": true, "isArray": false},
                        "_version": {"name": "_version", "type": "Int", "isRequired": true, "isArray": false},
                        "_deleted": {"name": "_deleted", "type": "Boolean", "isRequired": false, "isArray": false}}}}}
            """
        let schema = try #require(try SchemaLoader.load(bytes: Array(mis.utf8), path: "pulled.json").schema)
        let note = try #require(schema.models["Note"])
        #expect(note.conflictDetection == ConflictDetection(handler: nil, source: "the schema has _version on the type"))
        #expect(note.fields.map(\.name) == ["id", "_version", "_deleted", "_lastChangedAt"])
        #expect(note.fields.dropFirst().allSatisfy { $0.isReadOnly })
    }

    @Test func anUnknownHandlerIsOneLineWithTheFileAndPath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-conflict-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "type Note @model { id: ID! }".write(to: directory.appendingPathComponent("schema.graphql"), atomically: true, encoding: .utf8)
        try #"{"ResolverConfig": {"project": {"ConflictDetection": "VERSION", "ConflictHandler": "AUTOMERG"}}}"#
            .write(to: directory.appendingPathComponent("transform.conf.json"), atomically: true, encoding: .utf8)
        #expect(throws: SchemaError.self) { try SchemaLoader.load(path: directory.appendingPathComponent("schema.graphql").path) }
        do {
            _ = try SchemaLoader.load(path: directory.appendingPathComponent("schema.graphql").path)
        } catch {
            #expect(error.location == "ResolverConfig.project.ConflictHandler")
            #expect(error.message.contains("unknown conflict handler AUTOMERG") && error.message.contains("did you mean 'AUTOMERGE'"))
        }
    }

    @Test func updatesAndDeletesCarryTheVersionOnlyWhenGiven() throws {
        let schema = try #require(try SchemaLoader.load(path: TestPaths.projectFixture(Self.gen1Schema)).schema)
        let builder = RequestBuilder(schema: schema)
        let key = KeyInput.fields(["sku=A-1", "warehouseId=w1"])
        let plain = try builder.delete("StockItem", key: key)
        #expect(plain.variables["input"]?.objectValue?["_version"] == nil)
        let versioned = try builder.delete("StockItem", key: key, version: 3)
        #expect(versioned.variables["input"]?.objectValue?["_version"] == .number(JSONNumber(3)))
        #expect(versioned.query == plain.query)
        #expect(plain.query.contains("_version") && plain.query.contains("_deleted") && plain.query.contains("_lastChangedAt"))
    }

    @Test func aConflictNamesTheServersVersionAndWhatDiffers() throws {
        let response = try GraphQLResponse(json: JSONValue.parse(Array("""
            {"data": {"updateStockItem": null}, "errors": [{"path": ["updateStockItem"], "errorType": "ConflictUnhandled",
             "errorInfo": null, "message": "Conflict resolver rejects mutation.",
             "data": {"sku": "A-1", "warehouseId": "w1", "quantity": 6, "note": "x", "_version": 4}}]}
            """.utf8)))
        let input: JSONObject = ["sku": "A-1", "warehouseId": "w1", "quantity": 9, "note": "x", "_version": 2]
        let conflict = try #require(VersionConflict.find(in: response.errors, input: input, keyFields: ["sku", "warehouseId"]))
        #expect(conflict.serverVersion == 4 && conflict.sentVersion == 2)
        #expect(conflict.summary == "the server has _version 4 (2 was sent); it differs in quantity (server 6, sent 9)")
        #expect(VersionConflict.find(in: [], input: input, keyFields: []) == nil)
    }

    @Test func deletedRecordsSayWhen() {
        let record: JSONValue = ["_deleted": true, "_version": 3, "_lastChangedAt": .number(JSONNumber(1_795_730_740_508))]
        #expect(ConflictDetection.deletedNote(record) == "deleted at 2026-11-26T22:05:40.508Z (_version 3)")
        #expect(ConflictDetection.deletedNote(["_deleted": false]) == nil)
    }

    @Test func settingsSayItOutright() throws {
        let schema = try #require(try SchemaLoader.load(path: TestPaths.projectFixture(Self.gen1Schema)).schema)
        let off = ConflictDetectionSetting.off.apply(to: schema, source: "test")
        #expect(off.models.values.allSatisfy { $0.conflictDetection == nil && $0.field(named: "_version") == nil })
        let on = ConflictDetectionSetting.automerge.apply(to: off, source: "test")
        #expect(on.models.values.allSatisfy { $0.conflictDetection?.handler == .automerge })
        #expect(ConflictDetectionSetting.auto.apply(to: schema, source: "test") == schema)
    }

    @Test func syncTimesAreMillisecondsOrUTCTimes() {
        #expect(ConflictDetection.syncTime("1795730740192") == 1_795_730_740_192)
        #expect(ConflictDetection.syncTime("2026-11-26T22:05:40.508Z") == 1_795_730_740_508)
        #expect(ConflictDetection.syncTime("2026-11-26T22:05:40.5Z") == 1_795_730_740_500)
        #expect(ConflictDetection.syncTime("2026-11-26T22:05Z") == 1_795_730_700_000)
        #expect(ConflictDetection.syncTime("2026-11-26") == 1_795_651_200_000)
        for bad in ["", "yesterday", "2026-11-26T22:05:40", "2026-13-01", "2026-11-26T22:05:40+02:00", "-5"] {
            #expect(ConflictDetection.syncTime(bad) == nil, "\(bad)")
        }
    }

    @Test func syncQueriesSelectStartedAtAndSendLastSync() throws {
        let schema = try #require(try SchemaLoader.load(path: TestPaths.projectFixture(Self.gen1Schema)).schema)
        let pages = try RequestBuilder(schema: schema).syncPages("StockItem", lastSync: 42)
        let first = pages.page(limit: 100, nextToken: nil)
        #expect(first.decodePath == ["syncStockItems"])
        #expect(first.query.contains("$lastSync: AWSTimestamp") && first.query.contains("lastSync: $lastSync"))
        #expect(first.query.contains("nextToken\n    startedAt\n"))
        #expect(first.variables["lastSync"] == .number(JSONNumber(42)))
        #expect(try RequestBuilder(schema: schema).syncPages("StockItem", lastSync: nil).page(limit: 1, nextToken: nil)
            .variables["lastSync"] == nil)
    }
}
