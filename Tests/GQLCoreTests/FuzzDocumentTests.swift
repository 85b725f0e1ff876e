import Foundation
import Testing
@testable import GQLCore

/// Generative tests of the GraphQL document parser and checks: mutated documents give a document or a
/// syntax error with a one-line description and a position; what parses prints and parses back the same.
@Suite struct FuzzDocumentTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Golden")
    static let starWarsDirectory = TestPaths.starWarsQueries

    static func documents() -> [[UInt8]] {
        var texts: [[UInt8]] = []
        for directory in [goldenDirectory, starWarsDirectory] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".graphql") {
                if let data = try? Data(contentsOf: directory.appendingPathComponent(name)) { texts.append(Array(data)) }
            }
        }
        return texts
    }

    static let tokens = ["{", "}", "(", ")", "[", "]", "...", "$", "@", "!", ":", "=", "\"", "\"\"\"", "#", "query",
                         "fragment", "on", "\\u{", "\\ud800", "1e999", "-", "0x1", "\u{FEFF}", "\r"]

    @Test func mutatedDocumentsGiveADocumentOrALocatedError() throws {
        let bases = Self.documents()
        try #require(!bases.isEmpty)
        var mutator = Mutator(seed: FuzzSettings.seed &+ 10)
        for _ in 0..<FuzzSettings.iterations {
            var bytes = mutator.mutate(mutator.pick(bases))
            if mutator.chance(0.5) {
                bytes.insert(contentsOf: Array(mutator.pick(Self.tokens).utf8), at: mutator.int(0..<(bytes.count + 1)))
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let parsed: ParsedDocument
            do {
                parsed = try ParsedDocument(parsing: text, fileName: "fuzz.graphql")
            } catch {
                #expect(isOneLine(error.description), "\(error.description)")
                #expect(error.line >= 1 && error.column >= 1)
                continue
            }
            for problem in parsed.validate() { #expect(isOneLine(problem.description), "\(problem.description)") }
            let printed = parsed.document.printed()
            #expect(try Document(parsing: printed) == parsed.document, "\(printed)")
        }
    }

    @Test(arguments: [257, 100_000])
    func deepSelectionsAndValuesAreRejectedNotOverflowed(depth: Int) {
        let selections = "query " + String(repeating: "{ a ", count: depth) + String(repeating: "}", count: depth)
        let lists = "query { a(x: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + ") }"
        let objects = "query { a(x: " + String(repeating: "{b: ", count: depth) + "1" + String(repeating: "}", count: depth) + ") }"
        let types = "query($v: " + String(repeating: "[", count: depth) + "Int" + String(repeating: "]", count: depth) + ") { a }"
        for text in [selections, lists, objects, types] {
            #expect(throws: GraphQLSyntaxError.self) { try ParsedDocument(parsing: text) }
        }
    }

    @Test func hugeStringsAndNumbersPastInt64Parse() throws {
        let huge = String(repeating: "x", count: 10_000_000)
        let document = try Document(parsing: "query { a(s: \"\(huge)\", n: 123456789012345678901234567890, f: 1e400) }")
        let printed = document.printed()
        #expect(printed.contains("123456789012345678901234567890") && printed.contains("1e400"))
        #expect(printed.utf8.count > 10_000_000)
        #expect(throws: GraphQLSyntaxError.self) { try ParsedDocument(parsing: "query { a(s: \"\(huge)) }") }
    }
}
