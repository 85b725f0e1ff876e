/// Everything the parser and the help renderer need to know about one command.
struct CommandSpec: Sendable {
    /// The word that selects the command (`list`).
    let name: String
    /// Whether the command prints model records, and so accepts the record formats (`--output table|tsv|raw`).
    let printsRecords: Bool
    /// One line for the overview's command table and the top of the help page.
    let abstract: String
    /// Usage lines without the leading `gqlc NAME`, e.g. `MODEL [--limit N]`.
    let synopsis: [String]
    /// Free-form sections printed between the abstract and the argument list.
    let discussion: [HelpSection]
    let arguments: [ArgumentSpec]
    /// The command's own options; the global options and `-h/--help` are added by the parser.
    let options: [OptionSpec]
    let examples: [Example]

    init(
        name: String, printsRecords: Bool = false, abstract: String, synopsis: [String], discussion: [HelpSection] = [],
        arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], examples: [Example] = []
    ) {
        self.name = name
        self.printsRecords = printsRecords
        self.abstract = abstract
        self.synopsis = synopsis
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.examples = examples
    }

    /// The command's option with this long name.
    func option(named long: String) -> OptionSpec? {
        options.first { $0.long == long }
    }

    /// `FIELD` or `ARG` when the command takes `FIELD=VALUE` arguments (create, update, query, mutate), else nil.
    var assignmentPlaceholder: String? {
        arguments.lazy.compactMap { argument in
            argument.name.firstIndex(of: "=").map { String(argument.name[..<$0]) }
        }.first
    }

    /// `gqlc NAME` followed by the first usage line: the hint that usage errors end with.
    var usageLine: String {
        (["gqlc", name] + (synopsis.first.map { [$0] } ?? [])).filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// A titled block of help text.
struct HelpSection: Sendable {
    /// The heading (`Where expressions`); nil continues the description without a heading.
    let title: String?
    let blocks: [HelpBlock]

    init(_ title: String, _ blocks: [HelpBlock]) {
        self.title = title
        self.blocks = blocks
    }

    /// An untitled section, which continues the description.
    init(_ blocks: [HelpBlock]) {
        self.title = nil
        self.blocks = blocks
    }
}

/// One block of help text, wrapped by the renderer.
enum HelpBlock: Sendable {
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
struct Example: Sendable {
    let comment: String
    /// The command; a long one is split over lines that end in ` \\`, as a shell would accept it.
    let command: String

    init(_ comment: String, _ command: String) {
        self.comment = comment
        self.command = command
    }
}
