/// Everything the parser and the help renderer need to know about one command.
public struct CommandSpec: Sendable {
    /// A property of a command that the program gives meaning to (as "prints records" decides which output
    /// formats a command takes); the program declares its traits as static members of an extension.
    public struct Trait: Hashable, Sendable {
        /// A name for the trait, unique within the program.
        public let name: String

        /// The trait called `name`.
        public init(_ name: String) {
            self.name = name
        }
    }

    /// The word that selects the command (`list`).
    public let name: String
    /// The program's own traits of the command.
    public let traits: Set<Trait>
    /// One line for the overview's command table and the top of the help page.
    public let abstract: String
    /// Usage lines without the leading `PROGRAM NAME`, e.g. `MODEL [--limit N]`.
    public let synopsis: [String]
    /// Free-form sections printed between the abstract and the argument list.
    public let discussion: [HelpSection]
    /// The positional arguments, for the help page and "missing argument" messages.
    public let arguments: [ArgumentSpec]
    /// The command's own options; the global options and `-h/--help` are added by the parser.
    public let options: [OptionSpec]
    /// Command lines for the help page's Examples section.
    public let examples: [Example]

    /// A command; only its name, abstract and synopsis are required.
    public init(
        name: String, traits: Set<Trait> = [], abstract: String, synopsis: [String], discussion: [HelpSection] = [],
        arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], examples: [Example] = []
    ) {
        self.name = name
        self.traits = traits
        self.abstract = abstract
        self.synopsis = synopsis
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.examples = examples
    }

    /// The command's option with this long name.
    public func option(named long: String) -> OptionSpec? {
        options.first { $0.long == long }
    }

    /// `FIELD` when the command takes `FIELD=VALUE` arguments (an argument placeholder with `=`), else nil.
    public var assignmentPlaceholder: String? {
        arguments.lazy.compactMap { argument in
            argument.name.firstIndex(of: "=").map { String(argument.name[..<$0]) }
        }.first
    }

    /// `PROGRAM NAME` followed by the first usage line: the hint that usage errors end with.
    public func usageLine(programName: String) -> String {
        ([programName, name] + (synopsis.first.map { [$0] } ?? [])).filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// A titled block of help text.
public struct HelpSection: Sendable {
    /// The heading (`Where expressions`); nil continues the description without a heading.
    public let title: String?
    /// The section's paragraphs, tables and verbatim lines, in order.
    public let blocks: [HelpBlock]

    /// A titled section.
    public init(_ title: String, _ blocks: [HelpBlock]) {
        self.title = title
        self.blocks = blocks
    }

    /// An untitled section, which continues the description.
    public init(_ blocks: [HelpBlock]) {
        self.title = nil
        self.blocks = blocks
    }
}

/// One block of help text, wrapped by the renderer.
public enum HelpBlock: Sendable {
    /// Prose, wrapped to the page width.
    case paragraph(String)
    /// A two-column table of terms and their descriptions, aligned within the block.
    case definitions([(term: String, text: String)])
    /// A table of options; every option table on a page shares one column.
    case options([OptionSpec])
    /// Lines printed as they are (indented), e.g. a command line.
    case verbatim([String])
}

/// A real command line for the help page, with a short comment saying what it does.
public struct Example: Sendable {
    /// What the command does, printed as a `#` comment above it.
    public let comment: String
    /// The command; a long one is split over lines that end in ` \\`, as a shell would accept it.
    public let command: String

    /// An example: what it does, then the command.
    public init(_ comment: String, _ command: String) {
        self.comment = comment
        self.command = command
    }
}
