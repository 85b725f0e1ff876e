import Testing
@testable import GQLCore

/// `list --index`: which clauses become key arguments, which stay in the filter, and the errors.
@Suite struct IndexQueryTests {
    let blog: RequestBuilder
    let inventory: RequestBuilder
    let shipments: RequestBuilder
    init() throws {
        blog = TestSchemas.builder(try TestSchemas.blog())
        inventory = TestSchemas.builder(try TestSchemas.inventory())
        shipments = TestSchemas.builder(try TestSchemas.shipments())
    }

    private func variables(_ builder: RequestBuilder, _ model: String, _ index: String, _ clauses: [String],
                           json: JSONValue? = nil) throws -> String {
        let request = try builder.indexList(model, index: index, filter: FilterInput(where: clauses, json: json))
        return JSONValue.object(request.variables).serialized(.compact)
    }

    private func header(_ request: GraphQLRequest) -> String {
        String(request.query.prefix { $0 != "{" })
    }

    @Test func partitionKeyOnlyIsAQueryWithNoFilter() throws {
        let request = try blog.indexList("Comment", index: "commentsByPostId", filter: FilterInput(where: ["postId=p1"]))
        #expect(header(request) == "query CommentsByPostId($limit: Int, $postId: ID!) ")
        #expect(request.query.contains("commentsByPostId(limit: $limit, postId: $postId) {"))
        #expect(request.decodePath == ["commentsByPostId"])
        #expect(JSONValue.object(request.variables).serialized(.compact) == #"{"limit":1000,"postId":"p1"}"#)
    }

    @Test func belongsToNamesItsForeignKeyAndTheIndexNameWorksToo() throws {
        let byField = try variables(blog, "Comment", "commentsByPostId", ["postId=p1"])
        #expect(try variables(blog, "Comment", "byPost", ["post=p1"]) == byField)
    }

    @Test(arguments: [
        ("title=Hello", #"{"eq":"Hello"}"#),
        ("title<M", #"{"lt":"M"}"#),
        ("title<=M", #"{"le":"M"}"#),
        ("title>M", #"{"gt":"M"}"#),
        ("title>=M", #"{"ge":"M"}"#),
        ("title^=Sw", #"{"beginsWith":"Sw"}"#),
        ("title=A..M", #"{"between":["A","M"]}"#),
    ])
    func eachKeyOperatorOnOneSortKeyIsTheKeyCondition(_ clause: String, _ condition: String) throws {
        let request = try blog.indexList("Post", index: "postsByBlogId", filter: FilterInput(where: ["blogId=b1", clause]))
        #expect(header(request)
            == "query PostsByBlogId($blogId: ID!, $limit: Int, $title: ModelStringKeyConditionInput) ")
        #expect(JSONValue.object(request.variables).serialized(.compact)
            == #"{"blogId":"b1","limit":1000,"title":"# + condition + "}")
    }

    @Test(arguments: ["title!=x", "title*=x", "title!*=x", "title?", "title!?", "title=null"])
    func otherOperatorsOnTheSortKeyStayInTheFilter(_ clause: String) throws {
        let request = try blog.indexList("Post", index: "postsByBlogId", filter: FilterInput(where: ["blogId=b1", clause]))
        #expect(!request.query.contains("$title"))
        #expect(request.variables["filter"] == (try FilterBuilder(schema: blog.schema, model: try blog.model(named: "Post"))
            .build(FilterInput(where: [clause]))))
    }

    @Test func onlyTheFirstKeyClausesAreKeysAndTheRestKeepTheirOrderInTheFilter() throws {
        let json: JSONValue = ["views": ["gt": 10]]
        #expect(try variables(blog, "Post", "postsByBlogId", ["rating>3", "title>=B", "blogId=b1", "title<=M", "blogId=b2"], json: json)
            == #"{"blogId":"b1","filter":{"and":[{"views":{"gt":10}},{"rating":{"gt":3}},{"title":{"le":"M"}},{"blogId":{"eq":"b2"}}]},"limit":1000,"title":{"ge":"B"}}"#)
    }

    @Test func intSortKeyTakesNumbersAndAnEnumPartitionKeyKeepsItsType() throws {
        #expect(try variables(inventory, "InventoryItem", "itemsByWarehouse", ["warehouseId=w1", "quantity<5"])
            == #"{"limit":1000,"quantity":{"lt":5},"warehouseId":"w1"}"#)
        let request = try shipments.indexList(
            "Shipment", index: "shipmentsByStatus", filter: FilterInput(where: ["status=SHIPPED", "day>=2025-01-01"]))
        #expect(header(request)
            == "query ShipmentsByStatus($day: ModelStringKeyConditionInput, $limit: Int, $status: ShipmentStatus!) ")
        #expect(JSONValue.object(request.variables).serialized(.compact)
            == #"{"day":{"ge":"2025-01-01"},"limit":1000,"status":"SHIPPED"}"#)
    }

    @Test func booleanSortKeyStaysInTheFilter() throws {
        #expect(try variables(shipments, "Shipment", "shipmentsByRegionAndPriority", ["region=eu", "priority=true"])
            == #"{"filter":{"priority":{"eq":true}},"limit":1000,"region":"eu"}"#)
    }

    @Test func compositeSortKeyNarrowsByLeadingEqualitiesAndKeepsEveryClauseInTheFilter() throws {
        let request = try shipments.indexList(
            "Shipment", index: "shipmentsByCarrier", filter: FilterInput(where: ["carrier=ups", "day=2025-01-02", "region=eu"]))
        #expect(header(request) == "query ShipmentsByCarrier($carrier: String!, $filter: ModelShipmentFilterInput, $limit: Int, "
            + "$regionDay: ModelShipmentByCarrierCompositeKeyConditionInput) ")
        #expect(JSONValue.object(request.variables).serialized(.compact)
            == #"{"carrier":"ups","filter":{"and":[{"day":{"eq":"2025-01-02"}},{"region":{"eq":"eu"}}]},"limit":1000,"regionDay":{"beginsWith":{"region":"eu","day":"2025-01-02"}}}"#)
        // Only a leading run: the second field alone, or a range on the first, does not narrow the key.
        #expect(try variables(shipments, "Shipment", "byCarrier", ["carrier=ups", "day=2025-01-02"])
            == #"{"carrier":"ups","filter":{"day":{"eq":"2025-01-02"}},"limit":1000}"#)
        #expect(try variables(shipments, "Shipment", "byCarrier", ["carrier=ups", "region>eu", "day=2025-01-02"])
            == #"{"carrier":"ups","filter":{"and":[{"region":{"gt":"eu"}},{"day":{"eq":"2025-01-02"}}]},"limit":1000}"#)
        #expect(try variables(shipments, "Shipment", "byCarrier", ["carrier=ups", "region=eu", "day>2025-01-01"])
            == #"{"carrier":"ups","filter":{"and":[{"region":{"eq":"eu"}},{"day":{"gt":"2025-01-01"}}]},"limit":1000,"regionDay":{"beginsWith":{"region":"eu"}}}"#)
    }

    @Test func sortDirectionAndTokenAreVariablesAndTokenIsDeclaredOnlyWhenSent() throws {
        let pages = try blog.indexPages("Post", index: "postsByBlogId", filter: FilterInput(where: ["blog=b1"]), sortDirection: .desc)
        let first = pages.page(limit: 5, nextToken: nil)
        let next = pages.page(limit: 5, nextToken: "tok")
        #expect(!first.query.contains("nextToken: $nextToken"))
        #expect(next.query.contains("$nextToken: String"))
        #expect(JSONValue.object(next.variables).serialized(.compact)
            == #"{"blogId":"b1","limit":5,"nextToken":"tok","sortDirection":"DESC"}"#)
        #expect(header(first) == "query PostsByBlogId($blogId: ID!, $limit: Int, $sortDirection: ModelSortDirection) ")
    }

    @Test func valuesNeverReachTheDocumentText() throws {
        let hostile = "b1\") { __schema { types { name } } } #"
        let request = try blog.indexList("Post", index: "postsByBlogId", filter: FilterInput(where: ["blogId=\(hostile)", "title^=\(hostile)"]))
        #expect(!request.query.contains("__schema"))
        #expect(request.variables["blogId"] == .string(hostile))
    }

    @Test(arguments: [
        ("Comment", "commentsByPost", ["post=p1"],
         "unknown index 'commentsByPost' on Comment; did you mean 'commentsByPostId'? (queryable indexes: commentsByPostId)"),
        ("Blog", "blogsByName", ["name=x"], "unknown index 'blogsByName' on Blog; Blog has no queryable indexes"),
        ("Shipment", "byDay", ["day=2025-01-01"],
         "index 'byDay' on Shipment has no queryField, so the server has no query for it "
            + "(queryable indexes: shipmentsByCarrier, shipmentsByStatus, shipmentsByRegionAndPriority)"),
        ("Comment", "commentsByPostId", [], "index commentsByPostId needs filter postId=VALUE"),
        ("Comment", "commentsByPostId", ["postId!=p1"], "index commentsByPostId needs filter postId=VALUE"),
        ("Comment", "commentsByPostId", ["postId=null"], "index commentsByPostId needs filter postId=VALUE"),
        ("Comment", "commentsByPostId", ["postId=a..b"], "index commentsByPostId needs filter postId=VALUE"),
        ("Comment", "commentsByPostId", ["post=p1", "likez>1"],
         "filter 'likez>1': unknown field 'likez' on Comment; did you mean 'likes'?"),
        ("Post", "postsByBlogId", ["blogId=b1", "rating^=1"],
         "filter 'rating^=1': operator '^=' does not apply to Int field 'rating'; use = != < <= > >= =LOW..HIGH ? !?"),
    ] as [(String, String, [String], String)])
    func errors(_ model: String, _ index: String, _ clauses: [String], _ expected: String) {
        let builder = model == "Shipment" ? shipments : blog
        #expect(errorMessage { try builder.indexPages(model, index: index, filter: FilterInput(where: clauses)) } == expected)
    }
}
