import CommandLineKit
import Testing

/// Parsing, errors, help and completion read a choice's words from its enum.
@Suite struct ChoiceTests {
    enum Shape: String, Choice {
        case circle, square, triangle
    }

    enum Order: Choice {
        case ascending, descending
        var word: String { self == .ascending ? "asc" : "desc" }
    }

    static let draw = CommandSpec(name: "draw", abstract: "", synopsis: [Shape.placeholder])

    func arguments(_ positionals: [String]) -> CommandArguments {
        CommandArguments(programName: "tool", command: Self.draw, options: ParsedOptions(), positionals: positionals)
    }

    @Test func wordsPlaceholderAndAlternatives() {
        #expect(Shape.words == ["circle", "square", "triangle"])
        #expect(Shape.placeholder == "circle|square|triangle" && Shape.alternatives == "circle, square or triangle")
        #expect(Order.placeholder == "asc|desc" && Order.alternatives == "asc or desc")
        #expect(Order.parse("DESC", ignoringCase: true) == .descending && Order.parse("DESC") == nil)
    }

    @Test func aPositionalChoiceNamesTheAlternativesAndSuggests() throws {
        #expect(try Shape.positional(arguments(["square"]), at: 0, naming: "a shape") == .square)
        #expect(throws: UsageError("'draw' needs a shape: circle, square or triangle; usage: tool draw circle|square|triangle")) {
            try Shape.positional(arguments([]), at: 0, naming: "a shape")
        }
        #expect(throws: UsageError("unknown shape 'sqaure'; did you mean 'square'?")) {
            try Shape.positional(arguments(["sqaure"]), at: 0, naming: "a shape")
        }
        #expect(throws: UsageError("unknown shape 'blob'; expected circle, square or triangle")) {
            try Shape.positional(arguments(["blob"]), at: 0, naming: "a shape")
        }
    }

    @Test func anOptionsValueIsOneOfTheWordsOrAnErrorNamingTheOption() throws {
        let shape = OptionSpec(long: "shape", value: Shape.placeholder, help: "")
        #expect(try Shape.value("square", for: shape) == .square)
        #expect(try Order.value("DESC", for: shape, ignoringCase: true) == .descending)
        #expect(throws: UsageError("invalid value 'DESC' for '--shape': expected asc or desc")) { try Order.value("DESC", for: shape) }
        #expect(throws: UsageError("invalid value 'oval' for '--shape': expected circle, square or triangle")) {
            try Shape.value("oval", for: shape)
        }
    }
}
