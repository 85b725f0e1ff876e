import Foundation
import Testing
@testable import GQLCore

/// What a live run writes and says, against an injected sink: the watch's screen (JSON lines or the live table),
/// the notices' words, the subscription results' writer and the Events publish's report.
@Suite struct LiveOutputTests {
    /// Keeps what is written; refuses writes after `acceptedWrites` of them (a closed pipe).
    final class Recording: OutputSink, @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private var writes = 0
        let acceptedWrites: Int

        init(acceptedWrites: Int = .max) { self.acceptedWrites = acceptedWrites }

        var text: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: bytes, as: UTF8.self)
        }

        func write(_ text: String) { write(bytes: Array(text.utf8)) }

        @discardableResult func write(bytes: [UInt8]) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            writes += 1
            guard writes <= acceptedWrites else { return false }
            self.bytes += bytes
            return true
        }
    }

    /// Notices told, in order.
    final class Notices: @unchecked Sendable {
        private(set) var said: [LiveNotice] = []
        func say(_ notice: LiveNotice) { said.append(notice) }
    }

    static func ndjson(_ sink: Recording) -> ResultPrinter {
        ResultPrinter(sink: sink, format: .ndjson, style: .compact, coloured: false, width: nil)
    }

    static let p1: JSONValue = ["id": "p1", "title": "a"]
    static let p2: JSONValue = ["id": "p2", "title": "b"]

    @Test func aWatchOnLinesWritesEachChangeAndSaysTheRest() {
        let (sink, notices) = (Recording(), Notices())
        let screen = WatchScreen(.lines(Self.ndjson(sink).beginList()), model: "Post", keyFields: ["id"], say: notices.say)
        var live: [LiveNotice] = []
        #expect(screen.show(.subscribed(["onCreatePost", "onUpdatePost"])))
        #expect(screen.show(.changes([.item(Self.p1)], records: [Self.p1])))
        #expect(screen.show(.changes([.synced(count: 1)], records: [Self.p1])))
        #expect(screen.show(.changes([.change(.create, Self.p2)], records: [Self.p1, Self.p2])))
        #expect(screen.show(.relistedAfterReconnect(changes: 2)))
        screen.startPolling(every: 2.25)
        #expect(screen.show(.pollFailed))
        let shown = screen.show(.live(.completedByServer)) { event in
            if let notice = LiveNotice(event) { live.append(notice) }
        }
        #expect(shown)
        #expect(screen.listingFailure == nil)
        #expect(screen.show(.listingFailed(ListResult(stop: .cancelled, resume: .start, delivered: 0, pages: 0))))
        #expect(screen.listingFailure?.kind == .cancelled)
        screen.finish()
        #expect(
            sink.text == """
                {"event":"item","item":{"id":"p1","title":"a"}}
                {"event":"synced","count":1}
                {"event":"create","item":{"id":"p2","title":"b"}}

                """)
        #expect(notices.said == [
            .subscribed(["onCreatePost", "onUpdatePost"]), .relisted(model: "Post", changes: 2), .polling(model: "Post", every: 2.25),
            .pollFailed(model: "Post", retryIn: 2.25),
        ])
        #expect(notices.said.map(\.description) == [
            "subscribed: onCreatePost, onUpdatePost", "listed Post again after the lost connection: 2 changes",
            "watching Post by listing it every 2.3 s", "listing Post again failed; trying again in 2.3 s",
        ])
        #expect(live == [.completedByServer])
        #expect(!screen.isTable && !screen.quitByKey)
        // Once finished, the output takes nothing more.
        #expect(!screen.show(.changes([.change(.delete, Self.p2)], records: [Self.p1])))
    }

    @Test func aWatchOnATableShowsItsNewsInTheStatusLine() {
        let (sink, notices) = (Recording(), Notices())
        let table = LiveTable(
            output: sink, formatter: RecordFormatter(columns: ["id", "title"], palette: nil, width: 100), model: "Post", sort: nil,
            terminalSize: { (100, 10) })
        let screen = WatchScreen(.table(table), model: "Post", keyFields: ["id"], say: notices.say)
        #expect(screen.isTable)
        #expect(sink.text == "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
        #expect(screen.show(.subscribed(["onCreatePost"])))
        #expect(sink.text.contains("Post: 0 records · subscribed, listing… · q to quit"))
        #expect(screen.show(.changes([.item(Self.p1), .item(Self.p2)], records: [Self.p1, Self.p2])))
        #expect(sink.text.contains("Post: 2 records · subscribed, listing…"))
        #expect(sink.text.contains("p2 "))
        #expect(screen.show(.relistedAfterReconnect(changes: 3)))
        #expect(sink.text.contains("Post: 2 records · reconnected; listed again: 3 changes"))
        screen.startPolling(every: 5)
        #expect(sink.text.contains("Post: 2 records · listing every 5.0 s"))
        // Only a failed poll is said beside the table, which cannot show it for long.
        #expect(screen.show(.pollFailed))
        #expect(notices.said == [.pollFailed(model: "Post", retryIn: 5)])
        screen.finish()
        screen.finish()
        #expect(sink.text.hasSuffix("\u{1B}[J\u{1B}[?25h\u{1B}[?1049l"))
    }

    @Test func theNoticesOfASubscriptionRunAreWordedWithoutFlags() {
        let from = Timestamp(secondsSince1970: 1_700_000_000)
        let to = Timestamp(secondsSince1970: 1_700_000_003.46)
        let events: [LiveEvent] = [
            .subscribed(name: "onCreatePost"), .connectionLost(reason: "the connection was closed", attempt: 2, retryIn: 0.74),
            .resubscribed(missedFrom: from, missedTo: to), .completedByServer, .graphQLErrors([]),
            .result(name: "onCreatePost", value: .null, response: GraphQLResponse(data: nil, errors: [])),
        ]
        #expect(events.compactMap(LiveNotice.init).map(\.description) == [
            "subscribed: onCreatePost", "connection lost: the connection was closed; connecting again in 0.7 s (attempt 2)",
            "subscribed again; events between 22:13:20 and 22:13:23 UTC (3.5 s) may have been missed",
            "the server completed the subscription; no more events will come",
        ])
        #expect(events.compactMap(LiveNotice.init).map(\.isAcknowledgement) == [true, false, false, false])
        #expect(DurationText.seconds(-1) == "0.0")
        #expect(DurationText.seconds(.nan) == "0.0" && DurationText.seconds(.infinity) == "inf")
        #expect(DurationText.seconds(59.96) == "60.0")
    }

    @Test func theEventWriterWritesResultsInItsShapeUntilTheOutputCloses() {
        let sink = Recording(acceptedWrites: 2)
        var writer = LiveEventWriter(Self.ndjson(sink).beginList(), shape: .envelope(events: ["onDeletePost": .delete]))
        let ok = GraphQLResponse(data: nil, errors: [])
        let failed = GraphQLResponse(data: nil, errors: [GraphQLError(message: "denied")])
        let written = [
            writer.write(.subscribed(name: "onDeletePost")),
            writer.write(.result(name: "onDeletePost", value: Self.p1, response: ok)),
            // A result that is null because of its errors is not written (its errors are said), and the run goes on.
            writer.write(.result(name: "onDeletePost", value: .null, response: failed)),
            writer.write(.result(name: "onPostLiked", value: "p2", response: ok)),
            writer.write(.result(name: "onPostLiked", value: "p3", response: ok)),
        ]
        #expect(written == [true, true, true, true, false])
        #expect(writer.closed)
        let afterClosing = writer.write(.result(name: "onPostLiked", value: "p4", response: ok))
        #expect(!afterClosing)
        writer.finish()
        #expect(
            sink.text == """
                {"event":"delete","item":{"id":"p1","title":"a"}}
                {"event":"data","subscription":"onPostLiked","item":"p2"}

                """)
    }

    @Test func anHTTPPublishThatStopsSaysHowManyEventsWerePublished() throws {
        let transport = FakeTransport([
            Fixtures.ok(#"{"successful":[{"identifier":"e0","index":0},{"identifier":"e1","index":1},{"identifier":"e2","index":2},{"identifier":"e3","index":3}],"failed":[{"index":4,"code":"Bad","message":"too big"}]}"#),
            Fixtures.status(401, #"{"errors":[{"errorType":"UnauthorizedException","message":"You are not authorized."}]}"#),
        ])
        let operation = EventsPublishOperation(channel: "/default/room", texts: (0..<7).map { "{\"n\":\($0)}" })
        let report = operation.run(client: try Fixtures.client(transport, retries: 0))
        #expect(report.outcomes.map(\.index) == [0, 1, 2, 3, 4])
        #expect(report.summary.someFailed)
        #expect(report.summary.answer["failed"] == [["index": 4, "error": "Bad: too big"]])
        #expect(report.failure?.lines == [
            "the Events API refused the publish (HTTP 401): You are not authorized.",
            "5 of 7 events were published before this; the rest were not sent",
        ])
        #expect(report.failure?.kind == .httpError)
        #expect(transport.sentBodies.map { $0["events"]?.arrayValue?.count } == [5, 2])
        #expect(EventsInputError.invalidJSON(line: 3, JSONParseError(message: "unexpected end", line: 1, column: 5, offset: 4))
            .description(source: "events.ndjson") == "events.ndjson:3:5: invalid JSON: unexpected end")
        #expect(EventsInputError.noEvents.description(source: "-") == "-: no events in it (one JSON value per line)")
    }
}
