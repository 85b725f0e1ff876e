import Testing
@testable import GQLCore

/// The replay rules of Amplify's observeQuery: subscriptions open first, what they deliver while the listing pages
/// is queued and replayed at its end (insert if absent, replace, remove, matched by primary key).
@Suite struct ObservedListTests {
    static func post(_ id: String, _ title: String, _ blog: String = "b1") -> JSONValue {
        ["id": .string(id), "blogID": .string(blog), "title": .string(title)]
    }

    @Test func changesBeforeTheEndOfTheListingAreQueuedThenReplayed() {
        var list = ObservedList(keyFields: ["id"])
        #expect(list.receive(.create, Self.post("p3", "new")) == nil)
        #expect(list.listed([Self.post("p1", "a"), Self.post("p2", "b")]) == [.item(Self.post("p1", "a")), .item(Self.post("p2", "b"))])
        #expect(list.receive(.update, Self.post("p1", "a2")) == nil)
        let end = list.finishListing()
        #expect(end == [.synced(count: 2), .change(.create, Self.post("p3", "new")), .change(.update, Self.post("p1", "a2"))])
        #expect(list.records == [Self.post("p1", "a2"), Self.post("p2", "b"), Self.post("p3", "new")])
    }

    @Test func aQueuedChangeTheListingAlreadyShowsIsNotReportedTwice() {
        var list = ObservedList(keyFields: ["id"])
        // Created while the listing paged, and read by its last page.
        _ = list.receive(.create, Self.post("p3", "new"))
        _ = list.listed([Self.post("p1", "a"), Self.post("p3", "new")])
        // Deleted before the listing read it: the delete of an absent record changes nothing.
        _ = list.receive(.delete, Self.post("p9", "gone"))
        #expect(list.finishListing() == [.synced(count: 2)])
    }

    @Test func aCreateThenDeleteDuringTheListingIsReplayedInOrder() {
        var list = ObservedList(keyFields: ["id"])
        _ = list.receive(.create, Self.post("p5", "brief"))
        _ = list.receive(.delete, Self.post("p5", "brief"))
        _ = list.listed([])
        #expect(list.finishListing() == [.synced(count: 0), .change(.create, Self.post("p5", "brief")), .change(.delete, Self.post("p5", "brief"))])
        #expect(list.records.isEmpty)
    }

    @Test func afterTheListingChangesAreReportedAsTheyCome() {
        var list = ObservedList(keyFields: ["id"])
        _ = list.listed([Self.post("p1", "a")])
        _ = list.finishListing()
        #expect(list.receive(.update, Self.post("p1", "b")) == .change(.update, Self.post("p1", "b")))
        #expect(list.receive(.delete, Self.post("p1", "b")) == .change(.delete, Self.post("p1", "b")))
        #expect(list.receive(.delete, Self.post("p1", "b")) == nil)
        #expect(list.count == 0)
    }

    @Test func compositeKeysMatchOnEveryKeyField() {
        var list = ObservedList(keyFields: ["blogID", "id"])
        _ = list.listed([Self.post("p1", "a", "b1"), Self.post("p1", "a", "b2")])
        _ = list.finishListing()
        #expect(list.receive(.delete, Self.post("p1", "a", "b2")) == .change(.delete, Self.post("p1", "a", "b2")))
        #expect(list.records == [Self.post("p1", "a", "b1")])
    }

    @Test func anEventWithFewerFieldsThanTheListingIsAChangeOnlyWhenAValueDiffers() {
        var list = ObservedList(keyFields: ["id"])
        let listed: JSONValue = ["id": "p1", "title": "a", "rating": 4]
        _ = list.listed([listed])
        _ = list.finishListing()
        #expect(list.receive(.update, ["id": "p1", "title": "a"]) == nil)
        #expect(list.receive(.update, ["id": "p1", "title": "b"]) == .change(.update, ["id": "p1", "title": "b"]))
    }

    @Test func aFreshListingReportsWhatChangedSince() {
        var list = ObservedList(keyFields: ["id"])
        _ = list.listed([Self.post("p1", "a"), Self.post("p2", "b")])
        _ = list.finishListing()
        let events = list.relisted([Self.post("p2", "b2"), Self.post("p3", "c")])
        #expect(events == [.change(.update, Self.post("p2", "b2")), .change(.create, Self.post("p3", "c")), .change(.delete, Self.post("p1", "a"))])
        #expect(list.relisted([Self.post("p2", "b2"), Self.post("p3", "c")]).isEmpty)
    }

    @Test func envelopesAreTheDocumentedLines() {
        var writer = JSONWriter(style: .compact)
        writer.write(WatchEvent.synced(count: 3).envelope)
        #expect(writer.text == #"{"event":"synced","count":3}"#)
        writer = JSONWriter(style: .compact)
        writer.write(WatchEvent.change(.delete, ["id": "p1"]).envelope)
        #expect(writer.text == #"{"event":"delete","item":{"id":"p1"}}"#)
    }
}
