import Foundation
import Testing
@testable import GQLCore

/// Generative tests of the core's parsers: thousands of malformed inputs, each of which must give a value or a
/// typed error with a one-line description. That the test process survives is the proof of "no crash".
///
/// `GQLC_FUZZ_ITERATIONS` sets the cases per test (default 300, a second or so in a debug build);
/// `make fuzz` raises it. `GQLC_FUZZ_SEED` replays another seed. The GraphQL document parser has its own
/// suite, `FuzzDocumentTests`.
@Suite struct FuzzTests {
    static let blogPath = TestPaths.example("blog.json")

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func blogSchema() throws -> ModelSchema {
        try #require(try SchemaLoader.load(path: blogPath).schema)
    }

    static let validResponse = #"""
        {"data":{"getPost":{"id":"p1","title":"T","rating":3,"views":10,"score":1.5,"tags":["a","b"],
        "metadata":{"wordCount":2,"source":null},"blog":{"id":"b1"}}},
        "errors":[{"message":"m","errorType":"T","path":["getPost",0],"locations":[{"line":1,"column":2}]}]}
        """#

    // MARK: JSON

    @Test func jsonParserGivesAValueOrALocatedError() throws {
        var mutator = Mutator(seed: FuzzSettings.seed)
        let bases = [try Self.bytes(Self.blogPath), try Self.bytes(TestPaths.example("blog-seed.json")), Array(Self.validResponse.utf8)]
        for _ in 0..<FuzzSettings.iterations {
            let input = mutator.mutate(mutator.pick(bases))
            do {
                let value = try JSONValue.parse(input)
                // Whatever parses must survive a round trip through the writer unchanged.
                #expect(try JSONValue.parse(value.serialized(.compact)) == value)
            } catch {
                #expect(isOneLine(error.description), "\(error.description)")
                #expect(error.line >= 1 && error.column >= 1 && error.offset <= input.count)
            }
        }
    }

    @Test(arguments: [100_000, 513])
    func deepNestingIsRejectedNotOverflowed(depth: Int) {
        for open in ["[", "{\"a\":"] {
            let text = String(repeating: open, count: depth) + "1" + String(repeating: open == "[" ? "]" : "}", count: depth)
            #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
        }
    }

    @Test func theDeepestAcceptedDocumentRoundTrips() throws {
        let depth = JSONValue.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let value = try JSONValue.parse(text)
        #expect(value.serialized(.compact) == text)
    }

    @Test func numbersPastInt64KeepTheirLiteralText() throws {
        for literal in Mutator.bigNumbers {
            let value = try JSONValue.parse("[\(literal)]")
            #expect(value.serialized(.compact) == "[\(literal)]")
        }
    }

    @Test func tenMegabyteStringsParse() throws {
        let huge = String(repeating: "x", count: 10_000_000)
        let value = try JSONValue.parse(#"{"s":""# + huge + #""}"#)
        #expect(value["s"]?.stringValue?.utf8.count == 10_000_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#"{"s":""# + huge) }
    }

    // MARK: Schema files

    @Test func schemaLoaderGivesASchemaOrALocatedError() throws {
        var mutator = Mutator(seed: FuzzSettings.seed &+ 1)
        let bases = try ["blog.json", "tags.json", "inventory.json"].map { try Self.bytes(TestPaths.example($0)) }
        for iteration in 0..<FuzzSettings.iterations {
            let input = mutator.mutate(mutator.pick(bases))
            let file: SchemaFile
            do {
                file = try SchemaLoader.load(bytes: Array(input), path: "fuzz-\(iteration).json")
            } catch {
                #expect(isOneLine(error.description), "\(error.description)")
                #expect(error.description.hasPrefix("fuzz-\(iteration).json: "))
                continue
            }
            // A schema that loads must be usable: every model's requests build or fail with a typed error.
            guard let schema = file.schema else { continue }
            let builder = RequestBuilder(schema: schema, makeID: { "fixed-id" })
            for name in schema.modelNames {
                do { _ = try builder.list(name) } catch { #expect(isOneLine(error.description), "\(error.description)") }
                do { _ = try builder.get(name, key: .id("k")) } catch { #expect(isOneLine(error.description), "\(error.description)") }
                do {
                    _ = try builder.create(name, values: RecordValues())
                } catch {
                    #expect(isOneLine(error.description), "\(error.description)")
                }
            }
        }
    }

    @Test func schemaTruncatedAnywhereIsAnError() throws {
        let blog = try Self.bytes(Self.blogPath)
        var mutator = Mutator(seed: FuzzSettings.seed &+ 2)
        for _ in 0..<min(FuzzSettings.iterations, 200) {
            let cut = Array(blog.prefix(mutator.int(0..<blog.count)))
            #expect(throws: SchemaError.self) { try SchemaLoader.load(bytes: Array(cut), path: "cut.json") }
        }
    }

    // MARK: Command-line grammars

    static let fields = ["title", "rating", "score", "views", "featured", "status", "publishedOn", "tags", "metadata",
                         "blogId", "createdAt", "id", "blog", "comments", "nope", "Title", "", "1x", "__typename", "é"]
    static let operators = ["=", "!=", "<", "<=", ">", ">=", "^=", "*=", "!*=", "?", "!?", "==", "<>", "~=", ":="]
    static let values = ["x", "", "5", "-5", "5.5", "true", "maybe", "DRAFT", "2025-01-01", "2025-13-45", "1..5", "..",
                         "a..b..c", "null", "[1,2]", "{}", "[", String(repeating: "[", count: 5000)] + Mutator.bigNumbers

    static func randomText(_ mutator: inout Mutator) -> String {
        var text = mutator.pick(fields) + mutator.pick(operators) + mutator.pick(values)
        if mutator.chance(0.3) { text += mutator.pick(Mutator.tokens) + mutator.pick(values) }
        if mutator.chance(0.3) { text = String(decoding: mutator.mutate(Array(text.utf8)), as: UTF8.self) }
        return text
    }

    @Test func whereExpressionsGiveAFilterOrAnError() throws {
        let builder = RequestBuilder(schema: try Self.blogSchema())
        var mutator = Mutator(seed: FuzzSettings.seed &+ 3)
        for _ in 0..<FuzzSettings.iterations {
            let expressions = (0..<mutator.int(1..<4)).map { _ in Self.randomText(&mutator) }
            do {
                let request = try builder.list("Post", filter: FilterInput(where: expressions))
                #expect(request.variables["filter"] != nil)
            } catch {
                #expect(isOneLine(error.description), "\(error.description)")
            }
        }
    }

    @Test func fieldValuesGiveAnInputOrAnError() throws {
        let builder = RequestBuilder(schema: try Self.blogSchema(), makeID: { "fixed-id" })
        var mutator = Mutator(seed: FuzzSettings.seed &+ 4)
        let validInput = Array(#"{"title":"t","blogId":"b","rating":3,"metadata":{"wordCount":1}}"#.utf8)
        for _ in 0..<FuzzSettings.iterations {
            let assignments = ["title=t"] + (0..<mutator.int(1..<4)).map { _ in
                mutator.chance(0.5) ? Self.randomText(&mutator).replacingOccurrences(of: "!", with: "") : mutator.pick(Self.fields) + ":=" + mutator.pick(Self.values)
            }
            let input = mutator.chance(0.3) ? try? JSONValue.parse(mutator.mutate(validInput)) : nil
            do {
                let request = try builder.create("Post", values: RecordValues(assignments: assignments, input: input))
                #expect(request.variables["input"]?["id"] != nil)
            } catch {
                #expect(isOneLine(error.description), "\(error.description)")
            }
            do {
                _ = try builder.update("Post", key: .id("p1"), values: RecordValues(assignments: assignments, input: input),
                                       condition: FilterInput(where: [Self.randomText(&mutator)]))
            } catch {
                #expect(isOneLine(error.description), "\(error.description)")
            }
        }
    }

    // MARK: Server responses

    static let hostileBodies: [String] = [
        "", "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>", "[1,2]", "42", "\"s\"",
        #"{"status":"ok"}"#, #"{"data":[]}"#, #"{"data":"x"}"#, #"{"errors":"x"}"#, #"{"errors":[1]}"#, #"{"data":null}"#,
        #"{"errors":[{"message":"a\nb"}]}"#, #"{"errors":[{}]}"#, #"{"errors":{"message":"single"}}"#,
    ]

    @Test func responsesGiveAResultOrATypedError() throws {
        var mutator = Mutator(seed: FuzzSettings.seed &+ 5)
        let statuses = [200, 200, 200, 200, 201, 204, 301, 400, 401, 403, 404, 413, 429, 500, 502, 503, 504, 599, 99, 1000]
        var bodies = Self.hostileBodies.map { Array($0.utf8) }
        bodies.append(Array(Self.validResponse.utf8))
        for iteration in 0..<(FuzzSettings.iterations + bodies.count) {
            let body = iteration < bodies.count ? bodies[iteration] : mutator.mutate(mutator.pick(bodies))
            let headers = mutator.chance(0.3)
                ? [HTTPHeader(name: "Retry-After", value: mutator.pick(["1", "-1", "999999999999999999999", "Wed, 21 Oct 2015 07:28:00 GMT", "soon"])),
                   HTTPHeader(name: "x-amzn-ErrorType", value: mutator.pick(["", ":", "Bad:http://x", "\u{1B}[31m"]))]
                : []
            let response = HTTPResponse(status: mutator.pick(statuses), headers: headers, body: body)
            do {
                let decoded = try ResponseClassifier.classify(response)
                for path in [["getPost"], ["getPost", "metadata"], []] {
                    do {
                        _ = try decoded.outcome(decodePath: path, nullIsNotFound: true)
                    } catch {
                        #expect(isOneLine(error.description), "\(error.description)")
                    }
                }
                for error in decoded.errors { #expect(isOneLine(error.description), "\(error.description)") }
            } catch {
                #expect(isOneLine(error.description), "\(error.description)")
                #expect([ResultKind.httpError, .network].contains(error.kind))
            }
        }
    }

    @Test func hugeAndDeepResponsesAreHandled() throws {
        let deep = HTTPResponse(status: 200, body: Array(("{\"data\":" + String(repeating: "[", count: 100_000)).utf8))
        #expect(throws: ExecutionError.self) { try ResponseClassifier.classify(deep) }

        let message = String(repeating: "m", count: 10_000_000)
        let huge = HTTPResponse(status: 500, text: #"{"errors":[{"errorType":"E","message":""# + message + #""}]}"#)
        do {
            _ = try ResponseClassifier.classify(huge)
            Issue.record("a 500 was accepted")
        } catch {
            #expect(error.description.count < 1000)  // the status error keeps a short excerpt
        }

        let html = HTTPResponse(status: 200, text: "<html>" + String(repeating: "<p>x</p>\n", count: 1_000_000))
        #expect(throws: ExecutionError.self) { try ResponseClassifier.classify(html) }
    }
}

/// The AWS scalar formats under mutation: every input gives a verdict (no crash), a refusal is one line naming
/// the field, and what is accepted keeps the properties of its format. Agreement with appsync-local's checks
/// is fuzzed end to end by Tests/Fuzz/test_fuzz_scalars.py.
@Suite struct ScalarFormatFuzzTests {
    static let examples: [ScalarFormat: [String]] = [
        .date: ["1970-01-01Z", "1970-01-01-07:00", "2024-02-29"], .time: ["12:30:24.500", "12:30:24-07:00"],
        .dateTime: ["1970-01-01T12:00:00.000Z", "1930-01-01T16:00:00-07:00"], .email: ["username@example.com"],
        .url: ["https://www.amazon.com/dp/B000NZW3KC/", "mailto:example@example.com"], .phone: ["+1 206-555-0100"],
        .ipAddress: ["123.12.34.56", "1a2b:3c4b::1234:4567", "123.45.67.89/16"],
    ]

    @Test func mutatedValuesGetAVerdictAndAOneLineRefusal() throws {
        var mutator = Mutator(seed: FuzzSettings.seed)
        let schema = ModelSchema()
        for format in ScalarFormat.allCases {
            let field = ModelField(name: "f", type: .scalar(format.rawValue))
            for example in Self.examples[format] ?? [] {
                #expect(format.accepts(example), "\(format.rawValue) \(example)")
            }
            for _ in 0..<FuzzSettings.iterations {
                let text = String(decoding: mutator.mutate(Array(mutator.pick(Self.examples[format] ?? [""]).utf8)), as: UTF8.self)
                do {
                    let value = try ValueCoercion.coerce(text, for: field, schema: schema, allowNull: false)
                    #expect(value == .string(text) && format.accepts(text))
                    if format == .dateTime, let t = text.firstIndex(of: "T") {
                        #expect(ScalarFormat.date.accepts(String(text[..<t])) && ScalarFormat.time.accepts(String(text[text.index(after: t)...])))
                    }
                    if format == .email { #expect(text.filter { $0 == "@" }.count == 1) }
                } catch {
                    #expect(isOneLine(error.description), "\(error.description)")
                    #expect(error == .invalidFormat(text, field: "f", format: format))
                }
            }
        }
    }
}
