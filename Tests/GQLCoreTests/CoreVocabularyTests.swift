import Foundation
import Testing

/// The core speaks no command line: no string literal in GQLCore names a flag (`--id`, `--timeout`) or a gqlc
/// command (`gqlc login`); its errors name parameters (``Parameter``) and remedies (``Remedy``), and the executable
/// phrases them with its flags and commands.
@Suite struct CoreVocabularyTests {
    /// Literals that quote another program's command line, not gqlc's.
    static let otherPrograms = ["npx ampx generate", "aws sso login --profile"]

    static var coreRoot: String {
        ProcessInfo.processInfo.environment["GQLC_CORE_SOURCES"]
            ?? TestPaths.repositoryRoot.appendingPathComponent("Sources/GQLCore").path
    }

    /// Every string literal of the core's sources, with its file.
    static func coreLiterals() throws -> [(file: String, literal: StringLiterals.Literal)] {
        let files = try FileManager.default.subpathsOfDirectory(atPath: coreRoot).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50)
        return try files.sorted().flatMap { file in
            StringLiterals.scan(try String(contentsOfFile: coreRoot + "/" + file, encoding: .utf8)).map { (file, $0) }
        }
    }

    /// The names of gqlc's commands, from the `CommandSpec(name: …)` of each command file of the executable.
    static func commandNames() throws -> Set<String> {
        let directory = TestPaths.repositoryRoot.appendingPathComponent("Sources/gqlc/Commands").path
        var names: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasSuffix(".swift") {
            let source = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            for match in source.matches(of: /CommandSpec\(\s*name: "([a-z]+)"/) { names.insert(String(match.1)) }
        }
        return names
    }

    @Test func noCoreStringLiteralNamesAFlag() throws {
        var offenders: [String] = []
        for (file, literal) in try Self.coreLiterals() where literal.text.contains(/--[a-z]/) {
            if Self.otherPrograms.contains(where: literal.text.contains) { continue }
            offenders.append("\(file):\(literal.line): \(literal.text)")
        }
        #expect(offenders.isEmpty, Comment(rawValue: "GQLCore literals that name command-line flags:\n" + offenders.joined(separator: "\n")))
    }

    /// "run gqlc login" belongs to the executable: the core says what is missing (``Remedy``).
    @Test func noCoreStringLiteralNamesAGqlcCommand() throws {
        let commands = try Self.commandNames()
        #expect(commands.isSuperset(of: ["get", "list", "raw", "login", "env", "schema"]), "found \(commands.sorted())")
        var offenders: [String] = []
        for (file, literal) in try Self.coreLiterals() {
            for match in literal.text.matches(of: /\bgqlc ([a-z]+)\b/) where commands.contains(String(match.1)) {
                offenders.append("\(file):\(literal.line): \(literal.text)")
            }
        }
        #expect(offenders.isEmpty, Comment(rawValue: "GQLCore literals that name gqlc commands:\n" + offenders.joined(separator: "\n")))
    }

    @Test func theScannerFindsLiteralsAndSkipsComments() {
        let source = #"""
            /// `--doc` in a doc comment
            let a = "plain --flag" // "--comment"
            let b = "x\(f("--inner"))y \"--escaped\""
            let c = """
                multi --line
                """
            /* "--block" */ let d = #"raw --raw"#
            """#
        let found = StringLiterals.scan(source).filter { $0.text.contains("--") }
        #expect(found.map(\.text) == ["plain --flag", "--inner", "y \\\"--escaped\\\"", "\n    multi --line\n    ", "raw --raw"])
        #expect(found.map(\.line) == [2, 3, 3, 4, 7])
    }
}

/// The text of Swift string literals, outside comments; interpolations are scanned as code, so a literal
/// inside one is found on its own. Good enough for the project's sources, not a Swift lexer.
enum StringLiterals {
    struct Literal: Equatable {
        var line: Int
        var text: String
    }

    static func scan(_ source: String) -> [Literal] {
        var scanner = Scanner(characters: Array(source))
        scanner.code(untilParenthesis: false)
        return scanner.found
    }

    private struct Scanner {
        let characters: [Character]
        var index = 0
        var line = 1
        var found: [Literal] = []

        init(characters: [Character]) { self.characters = characters }

        func peek(_ text: String) -> Bool {
            let wanted = Array(text)
            guard index + wanted.count <= characters.count else { return false }
            return Array(characters[index..<index + wanted.count]) == wanted
        }

        mutating func advance(_ count: Int = 1) {
            for _ in 0..<count where index < characters.count {
                if characters[index] == "\n" { line += 1 }
                index += 1
            }
        }

        /// Code up to the end, or up to the `)` that closes an interpolation.
        mutating func code(untilParenthesis: Bool) {
            var depth = 0
            while index < characters.count {
                if peek("//") {
                    while index < characters.count && characters[index] != "\n" { advance() }
                } else if peek("/*") {
                    while index < characters.count && !peek("*/") { advance() }
                    advance(2)
                } else if peek("#\"") {
                    advance(2)
                    literal(closing: "\"#", escape: "\\#")
                } else if peek("\"\"\"") {
                    advance(3)
                    literal(closing: "\"\"\"", escape: "\\")
                } else if peek("\"") {
                    advance()
                    literal(closing: "\"", escape: "\\")
                } else {
                    if characters[index] == "(" { depth += 1 }
                    if characters[index] == ")" {
                        if untilParenthesis && depth == 0 { advance(); return }
                        depth -= 1
                    }
                    advance()
                }
            }
        }

        /// One literal's text up to `closing`; an interpolation ends the current piece.
        mutating func literal(closing: String, escape: String) {
            var text = ""
            var start = line
            while index < characters.count && !peek(closing) {
                if peek(escape + "(") {
                    found.append(Literal(line: start, text: text))
                    advance(escape.count + 1)
                    code(untilParenthesis: true)
                    (text, start) = ("", line)
                } else if peek(escape) {
                    text += String(characters[index..<min(index + escape.count + 1, characters.count)])
                    advance(escape.count + 1)
                } else {
                    text.append(characters[index])
                    advance()
                }
            }
            advance(closing.count)
            found.append(Literal(line: start, text: text))
        }
    }
}
