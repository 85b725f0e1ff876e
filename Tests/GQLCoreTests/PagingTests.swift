import Foundation
import Testing
@testable import GQLCore

/// The JSON body of one list page.
private func pageBody(_ ids: [String], next: String?) -> String {
    let items = ids.map { #"{"id":"\#($0)"}"# }.joined(separator: ",")
    let token = next.map { "\"\($0)\"" } ?? "null"
    return #"{"data":{"listPosts":{"items":[\#(items)],"nextToken":\#(token)}}}"#
}

private func listRequest(limit: Int, nextToken: String?) -> GraphQLRequest {
    var variables: JSONObject = ["limit": .number(JSONNumber(limit))]
    if let nextToken { variables["nextToken"] = .string(nextToken) }
    return GraphQLRequest(query: "query ListPosts($limit: Int, $nextToken: String) { … }", variables: variables,
                          operationType: .query, decodePath: ["listPosts"])
}

/// The (limit, nextToken) of every request sent.
private func sentPages(_ transport: FakeTransport) -> [(Int, String?)] {
    transport.sentBodies.map { body in
        (body["variables"]?["limit"]?.numberText.flatMap { Int($0) } ?? -1, body["variables"]?["nextToken"]?.stringValue)
    }
}

/// Serves `pages[token]`; an unknown token is a test failure.
private func server(_ pages: [String: FakeTransport.Reply], first: FakeTransport.Reply) -> FakeTransport {
    FakeTransport { request, _ in
        let token = (try? JSONValue.parse(request.body))?["variables"]?["nextToken"]?.stringValue
        guard let token else { return first }
        return pages[token] ?? .success(HTTPResponse(status: 400, text: "unknown token \(token)"))
    }
}

/// A server over items p0…p(total-1) that honours the request's limit; token `tN` starts at item N.
private func sliceServer(total: Int) -> FakeTransport {
    FakeTransport { request, _ in
        let variables = (try? JSONValue.parse(request.body))?["variables"]
        let offset = variables?["nextToken"]?.stringValue.flatMap { Int($0.dropFirst(1)) } ?? 0
        let limit = variables?["limit"]?.numberText.flatMap { Int($0) } ?? 100
        let end = min(total, offset + limit)
        let ids = (offset..<end).map { "p\($0)" }
        return .success(HTTPResponse(status: 200, text: pageBody(ids, next: end < total ? "t\(end)" : nil)))
    }
}

private func collect(_ pager: ListPager) -> (ListResult, [String]) {
    var ids: [String] = []
    let result = pager.run { items in ids += items.compactMap { $0["id"]?.stringValue } }
    return (result, ids)
}

@Suite struct PagingTests {
    @Test func followsTokensToTheEnd() throws {
        let transport = server(["t1": Fixtures.ok(pageBody(["c", "d"], next: "t2")), "t2": Fixtures.ok(pageBody(["e"], next: nil))],
                               first: Fixtures.ok(pageBody(["a", "b"], next: "t1")))
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], makeRequest: listRequest)
        let (result, ids) = collect(pager)
        #expect(ids == ["a", "b", "c", "d", "e"])
        #expect(sentPages(transport).map(\.1) == [nil, "t1", "t2"])
        #expect(sentPages(transport).map(\.0) == [1000, 1000, 1000])
        #expect(result.resume == .complete && result.delivered == 5 && result.pages == 3)
        #expect(result.kind == .success)
        guard case .endOfList = result.stop else { Issue.record("stopped: \(result.stop)"); return }
    }

    @Test func deliversEachPageBeforeFetchingTheNext() throws {
        let log = Log()
        let transport = FakeTransport { request, index in
            log.add("request \(index)")
            return Fixtures.ok(pageBody(["x\(index)"], next: index < 2 ? "t\(index + 1)" : nil))
        }
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], makeRequest: listRequest)
        _ = pager.run { items in log.add("deliver \(items.count)") }
        #expect(log.entries == ["request 0", "deliver 1", "request 1", "deliver 1", "request 2", "deliver 1"])
    }

    @Test func walksThroughEmptyPagesThatCarryATokenAndStartsFromAGivenToken() throws {
        let transport = server([
            "s": Fixtures.ok(pageBody([], next: "e1")),
            "e1": Fixtures.ok(pageBody([], next: "e2")),
            "e2": Fixtures.ok(pageBody(["z"], next: "e3")),
            "e3": Fixtures.ok(pageBody([], next: nil)),
        ], first: Fixtures.ok(pageBody(["never"], next: nil)))
        var calls = 0
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], startToken: "s", makeRequest: listRequest)
        let result = pager.run { items in calls += 1; #expect(items == [["id": "z"]]) }
        #expect(calls == 1)
        #expect(sentPages(transport).map(\.1) == ["s", "e1", "e2", "e3"])
        #expect(result.delivered == 1 && result.resume == .complete)
    }

    @Test func limitAsksForWholePagesAndResumesInsideTheCutPage() throws {
        let transport = sliceServer(total: 20)
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], pageSize: 3, limit: 7, makeRequest: listRequest)
        let (result, ids) = collect(pager)
        #expect(ids == (0..<7).map { "p\($0)" })
        // The same requests as without a limit, up to the page that holds the 7th item.
        #expect(sentPages(transport).map(\.0) == [3, 3, 3])
        #expect(result.resume == .withinPage(ListPosition(token: "t6", skip: 1, pageSize: 3)))
        #expect(result.kind == .success)
        guard case .limitReached = result.stop else { Issue.record("stopped: \(result.stop)"); return }

        // Resuming from the reported position reads that page again and continues after the last delivered item.
        guard case .withinPage(let position) = result.resume else { return }
        let rest = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], pageSize: 5, start: position,
                             makeRequest: listRequest)
        #expect(collect(rest).1 == (7..<20).map { "p\($0)" })
        #expect(sentPages(transport).dropFirst(3).map(\.0) == [3, 5, 5, 5])
        #expect(sentPages(transport)[3].1 == "t6")
    }

    @Test func limitMeetingTheEndIsComplete() throws {
        let transport = sliceServer(total: 6)
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], pageSize: 4, limit: 6, makeRequest: listRequest)
        let (result, ids) = collect(pager)
        #expect(ids.count == 6 && result.resume == .complete)
        #expect(sentPages(transport).map(\.0) == [4, 4])
    }

    @Test func limitEndingOnAPageBoundaryResumesAtTheServersToken() throws {
        let transport = sliceServer(total: 20)
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], pageSize: 4, limit: 8, makeRequest: listRequest)
        let (result, _) = collect(pager)
        #expect(result.resume == .token("t8") && transport.requests.count == 2)
        #expect(result.resumeToken(listing: "k") == "t8")
    }

    @Test func shortFilteredPagesDoNotShrinkLaterRequests() throws {
        let transport = server([
            "t1": Fixtures.ok(pageBody([], next: "t2")),
            "t2": Fixtures.ok(pageBody(["c", "d", "e"], next: "t3")),
            "t3": Fixtures.ok(pageBody(["f"], next: "t4")),
        ], first: Fixtures.ok(pageBody(["a", "b"], next: "t1")))
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], pageSize: 5, limit: 6, makeRequest: listRequest)
        let (result, ids) = collect(pager)
        #expect(ids == ["a", "b", "c", "d", "e", "f"])
        #expect(sentPages(transport).map(\.0) == [5, 5, 5, 5])
        #expect(result.resume == .token("t4"))
    }

    @Test func firstPageCutResumesInsideTheFirstPage() throws {
        let transport = sliceServer(total: 10)
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], pageSize: 50, limit: 2, makeRequest: listRequest)
        let (result, _) = collect(pager)
        let position = ListPosition(token: nil, skip: 2, pageSize: 50)
        #expect(result.resume == .withinPage(position))

        // A second cut in the same page adds to the skip.
        let again = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], pageSize: 7, limit: 3, start: position,
                              makeRequest: listRequest)
        let (second, ids) = collect(again)
        #expect(ids == ["p2", "p3", "p4"])
        #expect(second.resume == .withinPage(ListPosition(token: nil, skip: 5, pageSize: 50)))
        #expect(sentPages(transport).map(\.0) == [50, 50])
    }

    @Test func aConsumerCutKeepsPartOfAPageAndResumesRightAfterIt() throws {
        let transport = sliceServer(total: 10)
        // Keeps 2 of the second page (items 4 and 5), having taken all of the first.
        var taken: [String] = []
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], pageSize: 4, makeRequest: listRequest)
        let result = pager.run { items in
            let ids = items.compactMap { $0["id"]?.stringValue }
            if taken.count >= 4 {
                taken += ids.prefix(2)
                throw ListPageCut(kept: 2)
            }
            taken += ids
        }
        #expect(taken == ["p0", "p1", "p2", "p3", "p4", "p5"])
        #expect(result.delivered == 6 && result.kind == .success)
        #expect(result.resume == .withinPage(ListPosition(token: "t4", skip: 2, pageSize: 4)))
        guard case .limitReached = result.stop else { Issue.record("stopped: \(result.stop)"); return }
        guard case .withinPage(let position) = result.resume else { return }
        let rest = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], pageSize: 4, start: position,
                             makeRequest: listRequest)
        #expect(collect(rest).1 == ["p6", "p7", "p8", "p9"])

        // A cut before a page's first item resumes at that page's start (here the listing's).
        let none = pager.run { _ in throw ListPageCut(kept: 0) }
        #expect(none.resume == .start && none.delivered == 0)
    }

    @Test func failureOnThePageReadAgainKeepsItsSkip() throws {
        let position = ListPosition(token: "t1", skip: 2, pageSize: 4)
        let transport = server(["t1": .failure(.network("connection reset"))], first: Fixtures.ok(pageBody(["never"], next: nil)))
        let pager = ListPager(client: try Fixtures.client(transport, retries: 0), connectionPath: ["listPosts"], start: position,
                              makeRequest: listRequest)
        let result = pager.run { _ in Issue.record("nothing should be delivered") }
        #expect(result.resume == .withinPage(position) && result.kind == .network)
    }

    @Test func consumerFailureOnThePageReadAgainKeepsItsSkip() throws {
        struct BrokenPipe: Error {}
        let position = ListPosition(token: "t4", skip: 1, pageSize: 4)
        let pager = ListPager(client: try Fixtures.client(sliceServer(total: 10)), connectionPath: ["listPosts"], start: position,
                              makeRequest: listRequest)
        var seen: [JSONValue] = []
        let result = pager.run { items in
            seen = items
            throw BrokenPipe()
        }
        #expect(seen == [["id": "p5"], ["id": "p6"], ["id": "p7"]])
        #expect(result.resume == .withinPage(position))
    }

    @Test func pageShorterThanItsSkipIsSkippedWhole() throws {
        let position = ListPosition(token: "t8", skip: 5, pageSize: 4)
        let pager = ListPager(client: try Fixtures.client(sliceServer(total: 10)), connectionPath: ["listPosts"], start: position,
                              makeRequest: listRequest)
        let (result, ids) = collect(pager)
        #expect(ids.isEmpty && result.resume == .complete)
    }

    @Test func zeroLimitSendsNothing() throws {
        let transport = sliceServer(total: 3)
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], limit: 0, startToken: "t1", makeRequest: listRequest)
        let result = pager.run { _ in Issue.record("nothing should be delivered") }
        #expect(transport.requests.isEmpty && result.resume == .token("t1"))
    }

    @Test func repeatedTokenStopsWithAnError() throws {
        let transport = server(["t1": Fixtures.ok(pageBody(["b"], next: "t2")), "t2": Fixtures.ok(pageBody(["c"], next: "t1"))],
                               first: Fixtures.ok(pageBody(["a"], next: "t1")))
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], makeRequest: listRequest)
        let (result, ids) = collect(pager)
        #expect(ids == ["a", "b", "c"])
        #expect(transport.requests.count == 3)
        #expect(result.resume == .unavailable && result.kind == .httpError)
        guard case .failed(.invalidResponse(.repeatedToken("t1"))) = result.stop else { Issue.record("stopped: \(result.stop)"); return }
    }

    @Test func startTokenComingBackIsARepeat() throws {
        let transport = server(["s": Fixtures.ok(pageBody(["a"], next: "s"))], first: Fixtures.ok(pageBody([], next: nil)))
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], startToken: "s", makeRequest: listRequest)
        #expect(pager.run { _ in }.resume == .unavailable)
        #expect(transport.requests.count == 1)
    }

    @Test func graphQLErrorsStopAtThePageThatFailed() throws {
        let failing = #"{"data":{"listPosts":null},"errors":[{"message":"Not Authorized to access listPosts on type Query","errorType":"Unauthorized"}]}"#
        let transport = server(["t1": Fixtures.ok(failing)], first: Fixtures.ok(pageBody(["a"], next: "t1")))
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], makeRequest: listRequest)
        let (result, ids) = collect(pager)
        #expect(ids == ["a"])
        #expect(result.resume == .token("t1") && result.kind == .graphQLErrors)
        guard case .graphQLErrors(let errors) = result.stop else { Issue.record("stopped: \(result.stop)"); return }
        #expect(errors.map(\.errorType) == ["Unauthorized"])
    }

    @Test func firstPageFailingResumesFromTheStart() throws {
        let transport = FakeTransport([Fixtures.ok(#"{"data":null,"errors":[{"message":"boom"}]}"#)])
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], makeRequest: listRequest)
        #expect(pager.run { _ in }.resume == .start)
    }

    @Test func partialPageIsDeliveredThenStops() throws {
        let partial = #"{"data":{"listPosts":{"items":[{"id":"b"},null],"nextToken":"t2"}},"errors":[{"message":"item failed","path":["listPosts","items",1]}]}"#
        let transport = server(["t1": Fixtures.ok(partial)], first: Fixtures.ok(pageBody(["a"], next: "t1")))
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], makeRequest: listRequest)
        var delivered: [JSONValue] = []
        let result = pager.run { delivered += $0 }
        #expect(delivered == [["id": "a"], ["id": "b"], nil])
        #expect(transport.requests.count == 2)
        #expect(result.resume == .token("t2") && result.kind == .partial)
        guard case .partial(let errors) = result.stop else { Issue.record("stopped: \(result.stop)"); return }
        #expect(errors.first?.description == "item failed (path: listPosts.items[1])")
    }

    @Test func networkFailureAfterRetriesResumesAtTheFailedPage() throws {
        let transport = server(["t1": .failure(.network("connection reset"))], first: Fixtures.ok(pageBody(["a"], next: "t1")))
        let pager = ListPager(client: try Fixtures.client(transport, retries: 2), connectionPath: ["listPosts"], makeRequest: listRequest)
        let result = pager.run { _ in }
        #expect(transport.requests.count == 4)
        #expect(result.resume == .token("t1") && result.kind == .network)
    }

    @Test func cancellationBetweenPagesReportsTheNextToken() throws {
        let flag = CancellationFlag()
        let transport = sliceServer(total: 10)
        let pager = ListPager(client: try Fixtures.client(transport, cancellation: flag), connectionPath: ["listPosts"], pageSize: 4, makeRequest: listRequest)
        let result = pager.run { _ in flag.cancel() }
        #expect(transport.requests.count == 1)
        #expect(result.resume == .token("t4") && result.delivered == 4 && result.kind == .cancelled)
    }

    @Test func cancellationDuringARequestResumesAtThatPage() throws {
        let flag = CancellationFlag()
        let transport = FakeTransport { _, index in
            if index == 0 { return Fixtures.ok(pageBody(["a"], next: "t1")) }
            flag.cancel()
            return .failure(.cancelled)
        }
        let pager = ListPager(client: try Fixtures.client(transport, cancellation: flag), connectionPath: ["listPosts"], makeRequest: listRequest)
        let result = pager.run { _ in }
        #expect(result.resume == .token("t1") && result.delivered == 1)
        guard case .cancelled = result.stop else { Issue.record("stopped: \(result.stop)"); return }
    }

    @Test func consumerFailureResumesAtTheUnfinishedPage() throws {
        struct BrokenPipe: Error {}
        let transport = sliceServer(total: 10)
        let pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"], pageSize: 3, makeRequest: listRequest)
        var calls = 0
        let result = pager.run { _ in
            calls += 1
            if calls == 2 { throw BrokenPipe() }
        }
        #expect(result.resume == .token("t3") && result.delivered == 3)
        guard case .consumerFailed(let error) = result.stop else { Issue.record("stopped: \(result.stop)"); return }
        #expect(error is BrokenPipe)
    }

    @Test(arguments: [
        (#"{"data":{"listPosts":{"nextToken":null}}}"#, "has no 'items'"),
        (#"{"data":{"listPosts":{"items":{},"nextToken":null}}}"#, "items is an object"),
        (#"{"data":{"listPosts":{"items":[],"nextToken":5}}}"#, "nextToken is a number"),
        (#"{"data":{"listPosts":null}}"#, "data.listPosts is null"),
        (#"{"data":{"other":{}}}"#, "no 'listPosts'"),
    ])
    func malformedPagesFail(body: String, message: String) throws {
        let pager = ListPager(client: try Fixtures.client(FakeTransport([Fixtures.ok(body)])), connectionPath: ["listPosts"], makeRequest: listRequest)
        let result = pager.run { _ in }
        guard case .failed(let error) = result.stop else { Issue.record("stopped: \(result.stop)"); return }
        #expect(error.description.contains(message), "\(error.description)")
        #expect(result.kind == .httpError && result.resume == .start)
    }

    @Test func pagesAreTraced() throws {
        let trace = TraceRecorder()
        let transport = sliceServer(total: 3)
        let pager = ListPager(client: try Fixtures.client(transport, trace: trace), connectionPath: ["listPosts"], pageSize: 2, makeRequest: listRequest)
        _ = pager.run { _ in }
        let pages = trace.events.filter { if case .page = $0 { return true } else { return false } }
        #expect(pages == [.page(page: 1, items: 2, nextToken: true), .page(page: 2, items: 1, nextToken: false)])
    }
}

private final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    func add(_ entry: String) {
        lock.lock()
        recorded.append(entry)
        lock.unlock()
    }
    var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}
