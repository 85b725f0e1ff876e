import Foundation
import Glibc
import Testing

@testable import GQLCore

/// Standard input as a test gives it.
private struct GivenInput: InputReader {
    let text: String
    func readAll() throws(FileReadError) -> [UInt8] { Array(text.utf8) }
}

/// What a program reads from file arguments: `-` or a path, whole, as JSON or as a secret, each failure in one line.
@Suite struct InputSourceTests {
    private static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-input-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aBulkInputOpensAFileOrAGivenStandardInputReadAheadAndSaysInOneLineWhyItCannotBeUsed() throws {
        let piped = try BulkInputStream.open(.standardInput, input: GivenInput(text: "{\"id\":\"a\"}\n{\"id\":\"b\"}\n"))
        #expect(piped.name == "<stdin>" && piped.ahead.count == 2 && !piped.isSingle)
        let path = try Self.file(#"{"id":"p1"}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let one = try BulkInputStream.open(.file(path), input: GivenInput(text: ""))
        #expect(one.isSingle && one.isRegularFile)
        #expect(try one.single() == ["id": "p1"])
        let missing = thrownError { () throws(BulkInputOpenError) in try BulkInputStream.open(.file("/nonexistent/in.ndjson"), input: GivenInput(text: "")) }
        guard case .unreadable(let error)? = missing else {
            Issue.record("\(String(describing: missing))")
            return
        }
        #expect(missing?.message() == error.description && error.description.contains("/nonexistent/in.ndjson"))
        let empty = try BulkInputStream.open(.standardInput, input: GivenInput(text: ""))
        #expect(thrownError { () throws(BulkInputOpenError) in try empty.single() }?.message()
            == "<stdin>: the input is empty; expected a JSON object")
        let broken = try BulkInputStream.open(.standardInput, input: GivenInput(text: "{bad"))
        let unusable = thrownError { () throws(BulkInputOpenError) in try broken.single() }
        #expect(unusable?.message().hasPrefix("<stdin>: invalid JSON at 1:") == true)
        #expect(unusable?.message(phrase: { _ in "<phrased>" }) == "<stdin>: <phrased>")
    }

    @Test func readsJSONFromStandardInputOrAFile() throws {
        #expect(try InputSource(argument: "-").json(from: GivenInput(text: "{\"a\": [1]}")) == .object(["a": .array([1])]))
        let path = try Self.file("[true]")
        defer { unlink(path) }
        #expect(try InputSource(argument: path).json(from: GivenInput(text: "unused")) == .array([.bool(true)]))
        #expect(InputSource(argument: path).name == path && InputSource.standardInput.name == "<stdin>")
    }

    @Test func saysWhereTheJSONIsBrokenAndWhichFileIsMissing() throws {
        let broken = try #require(thrownError { () throws(InputValueError) in
            try InputSource.standardInput.json(from: GivenInput(text: "{\"a\": }"))
        })
        #expect(broken.description.hasPrefix("<stdin>: invalid JSON at 1:7: "))
        let missing = try #require(thrownError { () throws(InputValueError) in
            try InputSource(argument: "/nonexistent/vars.json").json(from: GivenInput(text: ""))
        })
        #expect(missing == .unreadable(.notFound(path: "/nonexistent/vars.json")))
        #expect(missing.description == "/nonexistent/vars.json: no such file")
    }

    @Test func aSecretIsReadFromAFileOrStandardInputTrimmedAndNeverEmpty() throws {
        #expect(try InputSource.secret("da2-plain", from: GivenInput(text: "ignored")) == "da2-plain")
        #expect(try InputSource.secret("@", from: GivenInput(text: "ignored")) == "@")
        #expect(try InputSource.secret("-", from: GivenInput(text: "  da2-piped\n")) == "da2-piped")
        let path = try Self.file("da2-from-file\n")
        defer { unlink(path) }
        #expect(try InputSource.secret("@" + path, from: GivenInput(text: "")) == "da2-from-file")
        #expect(throws: InputValueError.empty(name: "<stdin>")) { try InputSource.secret("-", from: GivenInput(text: " \n")) }
        #expect(InputValueError.empty(name: "<stdin>").description == "<stdin> is empty")
    }
}

/// The variables of a document sent as written: a file's object, then assignments, later ones winning.
@Suite struct RawVariablesTests {
    @Test func assignmentsFollowTheFileAndReplaceItsValues() throws {
        let variables = try RawOperation.variables(
            file: .object(["id": "1", "first": 2]), assignments: ["id=1000", "first:=5", "tags:=[\"a\"]"])
        #expect(variables == ["id": "1000", "first": 5, "tags": .array(["a"])])
        #expect(Array(variables.keys) == ["id", "first", "tags"])
    }

    @Test func refusesAFileThatIsNotAnObjectAndAssignmentsThatAreNeitherForm() {
        #expect(throws: RawVariablesError.notAnObject(found: JSONValue.array([]).kindDescription)) {
            try RawOperation.variables(file: .array([]), assignments: [])
        }
        #expect(throws: RawVariablesError.syntax("first")) { try RawOperation.variables(file: nil, assignments: ["first"]) }
        #expect(RawVariablesError.syntax("first").description
            == "variable 'first': expected NAME=VALUE (a string) or NAME:=JSON, e.g. variable id=1000 or variable first:=5")
        do {
            _ = try RawOperation.variables(file: nil, assignments: ["first:=[1"])
            Issue.record("invalid JSON was taken")
        } catch {
            if case .assignment("first:=[1", _) = error {} else { Issue.record("\(error)") }
        }
    }
}

/// Product text the core says itself (no option of a program's in it), so that a library program gets the same words.
@Suite struct CoreMessageTests {
    @Test func operationEventsThatNameNoOptionHaveTheirWords() {
        #expect(OperationEvent.notFound(described: "Post with key 'p1'").message == "no Post with key 'p1'")
        #expect(OperationEvent.countIncomplete(counted: 7).message
            == "counted 7 records before the listing stopped; the count is incomplete")
        #expect(OperationEvent.softDeleted(described: "Post 'p1'", version: 3).message
            == "note: the delete is soft: Post 'p1' stays on the server with _deleted: true (_version 3) until its TTL expires")
        #expect(OperationEvent.writeTargetDeleted(.update, described: "Post 'p1'", note: "deleted").message
            == "Post 'p1' was deleted; there is nothing to update")
        // Records, and the events a program renders itself, have no line of their own.
        #expect(OperationEvent.records([]).message == nil)
        #expect(OperationEvent.resumePoint("t").message == nil)
    }

    @Test func contextNotesThatNameNoSettingHaveTheirWords() {
        func message(_ note: ContextNote) -> String { note.message(naming: { _ in "UNUSED" }, remedy: { _ in "UNUSED" }) }
        #expect(message(.companionConfig("src/aws-exports.js")) == "config: src/aws-exports.js (the project's aws-exports.js)")
        #expect(message(.authMode(.apiKey, .defaultType(file: "outputs.json")))
            == "auth mode: apiKey (the default authorization type of outputs.json)")
        #expect(message(.refreshingTokens) == "refreshing the user-pool tokens (REFRESH_TOKEN_AUTH)")
        #expect(message(.schemaFile("a.json", .nearestOutputs)) == "schema: a.json (the nearest amplify_outputs.json from the working directory)")
    }

    @Test func aFailedSchemaPullSaysWhyAndHowItEnded() {
        #expect(SchemaPullError.noData([]).description == "the server answered the introspection query without data")
        #expect(SchemaPullError.noData([]).kind == .graphQLErrors)
        #expect(SchemaPullError.notASchema("no __schema").description == "the introspection result is not a schema: no __schema")
        #expect(SchemaPullError.notASchema("x").kind == .httpError)
        #expect(SchemaPullError.noCacheDirectory.kind == .invalidInput)
        #expect(SchemaPullError.request(.cancelled).kind == .cancelled)
    }
}

/// A custom operation's result in the record formats: a model's columns, an embedded type's scalars, a scalar for raw.
@Suite struct CustomOperationColumnsTests {
    private let schema: ModelSchema

    init() throws { schema = try TestSchemas.customOperations() }

    private func columns(_ name: String, _ fields: [String]?, _ format: OutputFormat) throws(RecordColumnsError) -> [String] {
        let operation = schema.customOperations.first { $0.name == name }!
        return try RecordColumns.columns(of: operation, in: schema, fields: fields, format: format)
    }

    @Test func embeddedTypesTakeTheirOwnScalarsButNotTheirLists() throws {
        #expect(try columns("echoArgs", nil, .table) == ["text", "count", "ratio", "flag", "status", "when", "meta"])
        #expect(try columns("echoArgs", ["range.low"], .tsv) == ["range.low"])
        #expect(try columns("echoArgs", ["text"], .raw) == ["text"])
        #expect(throws: RecordColumnsError.rawNeedsOneField) { try columns("echoArgs", nil, .raw) }
        #expect(try columns("echoArgs", nil, .json).isEmpty)
    }

    @Test func modelsAsListedAndScalarsOnlyRaw() throws {
        #expect(try columns("featuredPost", ["title"], .table) == ["title"])
        #expect(try columns("shout", nil, .raw).isEmpty)
        #expect(throws: RecordColumnsError.notRecords(operation: "shout", type: "String", format: .table)) {
            try columns("shout", nil, .table)
        }
    }
}

/// The file-descriptor sink writes everything, and says why a write failed.
@Suite struct FileDescriptorSinkTests {
    @Test func writesWholeBytesAndReportsABadDescriptor() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        #expect(FileDescriptorSink(descriptor: ends[1]).write(bytes: Array("hello\n".utf8)))
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(ends[0], &buffer, 16) == 6)
        #expect(FileDescriptorSink.write([1], to: ends[1]) == .failed(String(cString: strerror(EBADF))))
    }
}

/// A document piped to standard input is read; a terminal, or a pipe of only whitespace, gives none.
@Suite struct PipedTextTests {
    private struct Terminal: InputReader {
        func readAll() throws(FileReadError) -> [UInt8] { Array("{ hero }".utf8) }
        var isTerminal: Bool { true }
    }

    @Test func readsAPipeButNotATerminalOrBlankInput() throws {
        #expect(try InputSource.pipedText(from: GivenInput(text: "{ hero { name } }\n")) == "{ hero { name } }\n")
        #expect(try InputSource.pipedText(from: GivenInput(text: " \n\t")) == nil)
        #expect(try InputSource.pipedText(from: Terminal()) == nil)
    }
}
