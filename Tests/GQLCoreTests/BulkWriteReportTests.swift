import Foundation
import Synchronization
import Testing
@testable import GQLCore

/// A sink that keeps what is written, for the report writers' tests.
private final class Captured: OutputSink, @unchecked Sendable {
    private let text = Mutex("")
    var written: String { text.withLock { $0 } }
    var lines: [String] { written.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    func write(_ text: String) { self.text.withLock { $0 += text } }
}

/// Diagnostic lines, each kind tagged so that a test sees which the writer chose.
private final class CapturedDiagnostics: DiagnosticSink, @unchecked Sendable {
    private let said = Mutex<[String]>([])
    var lines: [String] { said.withLock { $0 } }
    func error(_ message: String) { said.withLock { $0.append(message) } }
    func error(_ failure: ExecutionError) { said.withLock { $0.append("execution: \(failure)") } }
    func error(_ failure: RequestBuildError) { said.withLock { $0.append("request: \(failure)") } }
    func graphQLErrors(_ errors: [GraphQLError]) { said.withLock { $0 += errors.map { "graphql: \($0.message)" } } }
}

/// The front end's words, made up so that a test tells them from the report's own.
private struct TestPhrasing: BulkWritePhrasing {
    var input: String { "<input>" }
    var rejects: String { "<rejects>" }
    func showCascade(model: String) -> String { "<show \(model)>" }
    func cascade(model: String) -> String { "<cascade \(model)>" }
    func check(model: String, key: JSONObject) -> String? { "<get \(model) \(key.keyText)>" }
    func message(_ error: ExecutionError) -> String { "<execution>" }
}

/// The core's report writers over injected sinks: a bulk job's lines, its rejects file, the delete reports, the words
/// of an uncertain write, and diff's report.
@Suite struct BulkWriteReportTests {
    private func item(_ line: Int, _ json: String) -> BulkInputItem {
        BulkInputItem(index: line - 1, line: line, bytes: Array(json.utf8))
    }

    private func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-rejects-\(UUID().uuidString).ndjson").path
    }

    @Test func aBulkJobsEventsBecomeRecordsFailureLinesRejectsAndTheSummary() throws {
        let (output, summary) = (Captured(), Captured())
        let said = Mutex<[String]>([])
        let printer = ResultPrinter(sink: output, format: .ndjson, style: .compact, coloured: false, width: nil)
        let rejectsPath = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: rejectsPath) }
        let report = BulkWriteReport(
            sinks: BulkWriteReport.Sinks(
                output: output, outputFailed: { false }, records: BulkRecordPrinter(printer), progress: nil,
                recordsShareProgress: false, say: { line in said.withLock { $0.append(line) } }, summary: summary),
            rejects: try RejectsFile(path: rejectsPath),
            words: BulkItemWords(model: "Post", operation: .update, phrasing: TestPhrasing()), inputName: "posts.ndjson",
            dryRun: false)
        var counts = BulkCounts()
        (counts.done, counts.failed, counts.interrupted, counts.seconds) = (1, 3, 1, 1.5)
        let events: [BulkWriteEvent] = [
            .item(BulkItemResult(item: item(1, #"{"id":"p1"}"#), outcome: .done(["id": "p1", "title": "A"])), firstTime: true),
            .item(BulkItemResult(item: item(2, #"{"id":"p2"}"#), outcome: .failed(.notFound(["id": "p2"]))), firstTime: true),
            .item(
                BulkItemResult(item: item(3, #"{"id":"p3"}"#), outcome: .failed(.refusedAfterRetry(["id": "p3"])), key: ["id": "p3"]),
                firstTime: true),
            .item(BulkItemResult(item: item(4, "{bad"), outcome: .failed(.invalid("invalid JSON"))), firstTime: false),
            .item(BulkItemResult(item: item(5, #"{"id":"p5"}"#), outcome: .interrupted, key: ["id": "p5"]), firstTime: true),
            .jobEnded(counts, .cancelled),
            .repeatedFailure(RepeatedFailure(message: "invalid JSON", count: 1, lines: [4...4], unlisted: false)),
            .orphansLeft(BulkOrphans(association: "comments", model: "Comment", records: 2, deleted: 5)),
        ]
        for event in events { #expect(report.write(event)) }
        #expect(report.finish(outputFailure: nil) == BulkWriteReport.Ending(rejectsFailed: false, halted: false))
        #expect(output.lines == [#"{"id":"p1","title":"A"}"#])
        #expect(said.withLock { $0 } == [
            "posts.ndjson:2: no Post with key id=p2",
            "posts.ndjson:3: the update of Post id=p3 was refused; gqlc retried this update after an attempt without an "
                + "answer, and its own earlier attempt may have been applied (check with: <get Post id=p3>)",
            "posts.ndjson:5: interrupted in flight; it may have been applied (key id=p5)",
            "posts.ndjson: the same error on 1 more line (4): invalid JSON",
            "warning: Comment records (Post.comments) are left pointing at 2 of the 5 deleted Post records; <cascade Post>",
        ])
        #expect(summary.written == "1 updated, 3 failed, 1 interrupted in flight in 1.50 s\n")
        // Every line but the done one is in the rejects file, whole, to be run again.
        #expect(try String(contentsOfFile: rejectsPath, encoding: .utf8)
            == #"{"id":"p2"}"# + "\n" + #"{"id":"p3"}"# + "\n{bad\n" + #"{"id":"p5"}"# + "\n")
    }

    @Test func aFailedOutputIsSaidWithWhereTheRecordsNotSentAreAndTheJobCountsAsHalted() throws {
        let (output, summary) = (Captured(), Captured())
        let said = Mutex<[String]>([])
        let rejectsPath = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: rejectsPath) }
        let report = BulkWriteReport(
            sinks: BulkWriteReport.Sinks(
                output: output, outputFailed: { true },
                records: BulkRecordPrinter(ResultPrinter(sink: output, format: .ndjson, style: .compact, coloured: false, width: nil)),
                progress: nil, recordsShareProgress: false, say: { line in said.withLock { $0.append(line) } }, summary: summary),
            rejects: try RejectsFile(path: rejectsPath),
            words: BulkItemWords(model: "Post", operation: .create, phrasing: TestPhrasing()), inputName: "-", dryRun: false)
        var counts = BulkCounts()
        counts.notSent = 2
        _ = report.write(.jobEnded(counts, .halted))
        #expect(report.finish(outputFailure: "standard output was closed") == BulkWriteReport.Ending(rejectsFailed: false, halted: true))
        #expect(said.withLock { $0 } == ["standard output was closed; stopped starting records; the records not sent are in \(rejectsPath)"])
        #expect(summary.written == "0 created, 0 failed, 2 not sent in 0.00 s\n")
        #expect(output.written.isEmpty)
    }

    @Test func aRejectsFileThatCannotBeWrittenCountsTheLinesItLacks() throws {
        // /dev/full takes the open and refuses every write (ENOSPC), as a full disk does.
        let rejects = try RejectsFile(path: "/dev/full")
        #expect(rejects.failure == nil)
        #expect(!rejects.write(Array("{\"id\":\"a\"}\n".utf8), inputLine: 7))
        #expect(!rejects.write(Array("{\"id\":\"b\"}\n".utf8), inputLine: 8))
        let failure = try #require(rejects.failure)
        #expect(failure.missing == 2 && failure.firstMissingLine == 7)
        #expect(failure.message(label: "<rejects>")
            == "cannot write <rejects> file /dev/full: \(String(cString: strerror(ENOSPC))); 2 failed or unsent records are "
                + "not in it, from input line 7 on")
        #expect(throws: FileWriter.WriteError.self) { try RejectsFile(path: "/nonexistent-directory/rejects.ndjson") }
    }

    @Test func aDryRunWritesTheBodiesItWouldSendAndNoSummary() throws {
        let (output, summary) = (Captured(), Captured())
        let report = BulkWriteReport(
            sinks: BulkWriteReport.Sinks(
                output: output, outputFailed: { false },
                records: BulkRecordPrinter(ResultPrinter(sink: output, format: .ndjson, style: .compact, coloured: false, width: nil)),
                progress: nil, recordsShareProgress: false, say: { _ in }, summary: summary),
            rejects: nil, words: BulkItemWords(model: "Post", operation: .delete, phrasing: TestPhrasing()), inputName: "-",
            dryRun: true)
        let request = GraphQLRequest(query: "mutation M { x }", variables: ["input": ["id": "p1"]])
        #expect(report.write(.wouldSend(request)))
        #expect(output.written.isEmpty)  // held until the end (or 64 KiB)
        #expect(report.finish(outputFailure: nil) == BulkWriteReport.Ending(rejectsFailed: false, halted: false))
        #expect(output.written == request.body.serialized(.compact) + "\n")
        #expect(summary.written.isEmpty)
    }

    @Test func versionsThatCouldNotBeReadAreSaidInTheFrontEndsWordsWithNoSummaryAndADryRunNotesThem() {
        let (output, summary, diagnostics) = (Captured(), Captured(), CapturedDiagnostics())
        let said = Mutex<[String]>([])
        func report(dryRun: Bool) -> BulkWriteReport {
            BulkWriteReport(
                sinks: BulkWriteReport.Sinks(
                    output: output, outputFailed: { false },
                    records: BulkRecordPrinter(ResultPrinter(sink: output, format: .ndjson, style: .compact, coloured: false, width: nil)),
                    progress: nil, recordsShareProgress: false, say: { line in said.withLock { $0.append(line) } }, summary: summary,
                    diagnostics: diagnostics),
                rejects: nil, words: BulkItemWords(model: "Post", operation: .update, phrasing: TestPhrasing()), inputName: "-",
                dryRun: dryRun)
        }
        let failed = report(dryRun: false)
        #expect(failed.write(.versionsFailed(.errors([GraphQLError(message: "Not Authorized")]))))
        #expect(failed.finish(outputFailure: nil) == BulkWriteReport.Ending(rejectsFailed: false, halted: false))
        #expect(diagnostics.lines == ["graphql: Not Authorized"])
        #expect(said.withLock { $0 } == ["reading the _version of each Post record failed; nothing was changed"])
        #expect(summary.written.isEmpty)
        let interrupted = report(dryRun: false)
        _ = interrupted.write(.versionsFailed(.cancelled))
        _ = interrupted.finish(outputFailure: nil)
        #expect(said.withLock { $0.last } == "interrupted while reading the versions; nothing was changed")
        #expect(summary.written.isEmpty && diagnostics.lines.count == 1)
        _ = report(dryRun: true).write(.versionsNotRead)
        #expect(said.withLock { $0.last } == "note: Post has conflict detection: each record is sent with its _version, read in pages "
            + "of keys and versions first")
    }

    @Test func aRestoreReportSaysEachFailedRecordEachModelsSummaryAndWhyTheJobEndedEarly() {
        let notes = Captured()
        let said = Mutex<[String]>([])
        let report = RestoreReport(progress: nil, notes: notes, say: { line in said.withLock { $0.append(line) } }, phrasing: TestPhrasing())
        var counts = RestoreCounts()
        (counts.restored, counts.failed, counts.linked) = (1, 2, 1)
        let events: [RestoreEvent] = [
            .modelStarted("Post", records: 5),
            .item(model: "Post", BulkItemResult(item: item(1, "{}"), outcome: .done(["id": "p1"]), key: ["id": "p1"]), pass: .create, skipped: false),
            .item(
                model: "Post", BulkItemResult(item: item(2, "{}"), outcome: .failed(.alreadyExists(["id": "p2"], afterRetry: false)), key: ["id": "p2"]),
                pass: .create, skipped: true),
            .item(model: "Post", BulkItemResult(item: item(3, "{}"), outcome: .failed(.execution(.cancelled)), key: ["id": "p3"]), pass: .create, skipped: false),
            .item(model: "Post", BulkItemResult(item: item(4, "{}"), outcome: .failed(.notFound(["id": "p4"]))), pass: .links, skipped: false),
            .item(model: "Post", BulkItemResult(item: item(5, "{}"), outcome: .interrupted, key: ["id": "p5"]), pass: .create, skipped: false),
            .sourceFailed("Post", "HTTP 500"),
            .modelFinished("Post", counts),
        ]
        events.forEach(report.write)
        #expect(said.withLock { $0 } == [
            "Post id=p3: <execution>",
            "Post line 4: setting links: no Post with key id=p4",
            "Post id=p5: interrupted in flight; it may have been applied",
            "listing Post failed: HTTP 500; its records after that were not copied",
        ])
        #expect(notes.written == "Post: 1 restored, 0 skipped, 2 failed; 1 links set\n")

        said.withLock { $0.removeAll() }
        let cancelled = RestoreOutcome(counts: [], stop: .cancelled)
        #expect(report.finish(cancelled, interrupted: "<finish>", rejects: "<rejects>") == RestoreReport.Ending(kind: .cancelled, rejectsFailed: false))
        var rejected = RestoreOutcome(counts: [("Post", counts)], stop: .endOfInput)
        rejected.rejectsFailure = "r/Post.ndjson: disk full"
        #expect(report.finish(rejected, interrupted: "<finish>", rejects: "<rejects>") == RestoreReport.Ending(kind: .partial, rejectsFailed: true))
        let unopened = RestoreOutcome(counts: [], stop: .endOfInput, fileError: .noSnapshot("d"))
        #expect(report.finish(unopened, interrupted: "<finish>", rejects: "<rejects>") == RestoreReport.Ending(kind: .invalidInput, rejectsFailed: false))
        let unavailable = RestoreOutcome(counts: [], stop: .endOfInput, unavailable: .apiKeyMissing)
        #expect(report.finish(unavailable, interrupted: "<finish>", rejects: "<rejects>").kind == .invalidInput)
        #expect(said.withLock { $0 } == [
            "interrupted; <finish>",
            "cannot write <rejects> file r/Post.ndjson: disk full; it lacks some of the records that failed",
            SnapshotError.noSnapshot("d").description,
        ])
    }

    @Test func aMatchingDeleteListsTheKeysAsksHowManyByModelAndSaysWhenNoneMatch() throws {
        let (output, notes, diagnostics) = (Captured(), Captured(), CapturedDiagnostics())
        let listed = #"{"data":{"listPosts":{"items":[{"id":"p1"},{"id":"p2"},{"id":"p3"}],"nextToken":null}}}"#
        let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(FakeTransport([Fixtures.ok(listed)])))
        let requests = try context.builder.listPages("Post", fields: .keysOnly)
        let report = MatchingDeleteReport(model: "Post", progress: nil, output: output, notes: notes, diagnostics: diagnostics, dryRun: "<dry>")
        var asked: [MatchingDeleteReport.Question] = []
        let matching = report.run(requests, in: context, plansOnly: false) { question in
            asked.append(question)
            return .cannotAsk
        }
        guard case .stop(let kind) = matching else {
            Issue.record("\(matching)")
            return
        }
        #expect(kind == ConfirmationAnswer.cannotAsk.refusal)
        #expect(asked.map(\.question) == ["delete 3 Post records?"] && asked.map(\.unconfirmed) == ["3 Post records match"])
        #expect(MatchingDeleteReport.Question(model: "Post", count: 1).unconfirmed == "1 Post record match")
        let none = APIContext(
            schema: context.schema,
            client: try Fixtures.client(FakeTransport([Fixtures.ok(#"{"data":{"listPosts":{"items":[],"nextToken":null}}}"#)])))
        guard case .stop(.success) = report.run(requests, in: none, plansOnly: false, confirm: { _ in .yes }) else {
            Issue.record("a delete with nothing matching went on")
            return
        }
        #expect(notes.written == "no Post records match; nothing to delete\n" && output.written.isEmpty && diagnostics.lines.isEmpty)
    }

    @Test func aConsolesSinksDeferTheOutputsFailuresForAJobThatSendsButNotForADryRun() throws {
        final class Deferring: TextSink, @unchecked Sendable {
            let deferred = Mutex(false)
            func write(_ text: String) {}
            func deferFailures() { deferred.withLock { $0 = true } }
        }
        func run(dryRun: Bool) throws -> Bool {
            let output = Deferring()
            let console = Console(output: output, error: Deferring(), outputIsTerminal: false)
            let printer = ResultPrinter(sink: output, format: .ndjson, style: .compact, coloured: false, width: nil)
            let sinks = BulkWriteReport.Sinks(
                console: console, records: BulkRecordPrinter(printer), progress: nil, diagnostics: CapturedDiagnostics())
            let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(FakeTransport([Fixtures.ok()])))
            let report = BulkWriteReport(
                sinks: sinks, rejects: nil, words: BulkItemWords(model: "Post", operation: .delete, phrasing: TestPhrasing()),
                inputName: "-", dryRun: dryRun)
            let operation = BulkWriteOperation(delete: "Post", builder: context.builder)
            let none: () throws(BulkInputError) -> BulkInputItem? = { nil }
            _ = report.run(operation, in: dryRun ? nil : context, next: none, readRestWhenCancelled: true)
            return output.deferred.withLock { $0 }
        }
        #expect(try run(dryRun: false))
        #expect(try !run(dryRun: true))
    }

    @Test func aCascadeReportShowsThePlanOnADryRunAndSaysWhereItStopped() {
        let (output, notes, diagnostics) = (Captured(), Captured(), CapturedDiagnostics())
        let printer = ResultPrinter(sink: output, format: .json, style: .compact, coloured: false, width: nil)
        let plan = CascadeDelete.Node(
            model: "Post", key: ["id": "p1"], field: nil,
            children: [CascadeDelete.Node(model: "Comment", key: ["id": "c1"], field: "comments", children: [])])
        let dryRun = CascadeDeleteReport(
            printer: printer, notes: notes, diagnostics: diagnostics, dryRun: "<dry>", progress: { nil }, model: "Post",
            key: ["id": "p1"])
        dryRun.write(.planned(plan))
        #expect(output.lines == ["Post id=p1", "  comments: 1 Comment"])
        #expect(notes.lines == ["would delete 2 records; nothing was deleted (<dry>)"])
        #expect(plan.question == "delete Post id=p1 and the 1 record under it?")
        #expect(plan.unconfirmed == "1 record would be deleted with Post id=p1")
        let deleting = CascadeDeleteReport(
            printer: printer, notes: notes, diagnostics: diagnostics, dryRun: nil, progress: { nil }, model: "Post", key: ["id": "p1"])
        deleting.write(.planned(plan))
        deleting.write(.failed(.gone(model: "Comment", key: ["id": "c1"]), deleted: 1))
        #expect(notes.lines.count == 1)  // a delete shows no plan
        #expect(diagnostics.lines == [
            "no Comment with key id=c1 any more: it was deleted while the cascade ran",
            "stopped after deleting 1 records under Post id=p1",
        ])
        deleting.write(.deleted(2, byModel: [(model: "Comment", count: 1), (model: "Post", count: 1)]))
        #expect(notes.lines.last == "deleted 2 records: 1 Comment, 1 Post")
    }

    @Test func theRecordsADeleteWouldMatchAreWrittenAsKeysWithTheirCount() {
        let (output, notes, diagnostics) = (Captured(), Captured(), CapturedDiagnostics())
        let keys: [JSONObject] = [["id": "c1"], ["id": "c2"]]
        BulkWriteOperation.MatchingEvent.wouldDelete(keys)
            .write(model: "Comment", output: output, notes: notes, diagnostics: diagnostics, dryRun: "<dry>")
        BulkWriteOperation.MatchingEvent.nothingMatched
            .write(model: "Comment", output: output, notes: notes, diagnostics: diagnostics, dryRun: "<dry>")
        BulkWriteOperation.MatchingEvent.listingStopped(.cancelled)
            .write(model: "Comment", output: output, notes: notes, diagnostics: diagnostics, dryRun: "<dry>")
        #expect(output.lines == [#"{"id":"c1"}"#, #"{"id":"c2"}"#])
        #expect(notes.lines == [
            "would delete 2 Comment records; nothing was deleted (<dry>)", "no Comment records match; nothing to delete",
        ])
        #expect(diagnostics.lines == ["interrupted while listing the records to delete; nothing was deleted"])
    }

    @Test func anUncertainCreateSaysTheKeyItWasSentWith() {
        let byID = UncertainWrite(model: "Post", key: [KeyValueText(field: "id", value: "p1")], cause: .timeout, retried: false)
        #expect(byID.description == "the create may have been applied before it timed out: it was sent with id 'p1'")
        #expect(byID.isByID)
        let composite = UncertainWrite(
            model: "Item", key: [KeyValueText(field: "sku", value: "A"), KeyValueText(field: "bin", value: "3")], cause: .network,
            retried: true)
        #expect(composite.description == "the create may have been applied before the connection failed: it was sent with key sku=A, bin=3")
        #expect(UncertainWrite(model: "Post", key: [], cause: .network, retried: true).description
            == "the create may have been applied before the connection failed")
        #expect(BulkOperation.delete.appliedAfterRetryNote.hasSuffix("the record is gone, so its key is printed"))
    }

    @Test func aQuestionNobodyCanAnswerEndsWithTheRefusal() {
        // The tests' standard input is not a terminal: nothing is asked, and the refusal is said.
        let sink = Captured()
        let said = Mutex<[String]>([])
        let answer = TerminalQuestion(sink: sink, cancellation: nil)
            .confirm("delete 2 records?", undone: "deleted", refusal: "<refused>") { line in said.withLock { $0.append(line) } }
        guard !TerminalQuestion.canAsk else { return }
        #expect(answer == .cannotAsk && answer.refusal == .invalidInput)
        #expect(sink.written.isEmpty && said.withLock { $0 } == ["<refused>"])
    }

    @Test func readOnlyValuesOfAnImportedRecordAreNamedOnce() throws {
        let schema = try TestSchemas.blog()
        let post = try #require(schema.models["Post"])
        #expect(post.readOnlyValuesNote(["title": "T", "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "x"])
            == "note: createdAt, updatedAt are read-only on Post (the server sets them); the input's values are left out")
        #expect(post.readOnlyValuesNote(["title": "T", "createdAt": nil]) == nil)
    }
}
