/// A help page before layout: usage lines, a description and titled sections.
public struct HelpPage: Sendable {
    /// Full usage lines (`tool get NAME …`); the renderer prefixes `Usage:` and wraps them.
    public let usage: [String]
    /// The first paragraph under the usage.
    public let abstract: String
    /// The rest of the page, in order.
    public let sections: [HelpSection]

    /// A page of these parts.
    public init(usage: [String], abstract: String, sections: [HelpSection]) {
        self.usage = usage
        self.abstract = abstract
        self.sections = sections
    }
}

/// How a command's help page shows the global options.
public enum GlobalOptionsHelp: Sendable {
    /// Each option explained, in a table.
    case explained([OptionSpec])
    /// The options' names only (gh's "inherited flags"), then `note`: where each is explained.
    case listed([OptionSpec], note: String)
}

/// Lays out help pages for an 80-column terminal: wrapped prose, aligned option tables, verbatim examples.
public struct HelpRenderer: Sendable {
    /// The widest line the renderer produces (single words longer than this are not broken).
    public var width: Int
    /// The widest the term column of a table may grow before long terms get a line of their own.
    public var maximumTermColumn: Int

    /// A renderer for lines of at most `width` columns.
    public init(width: Int = 80, maximumTermColumn: Int = 28) {
        self.width = width
        self.maximumTermColumn = maximumTermColumn
    }

    /// The page as text, ending with a newline.
    public func render(_ page: HelpPage) -> String {
        var lines: [String] = []
        for (index, usage) in page.usage.enumerated() {
            lines += usageLines(usage, label: index == 0 ? "Usage: " : "       ")
        }
        lines.append("")
        lines += TextWrapping.wrap(page.abstract, width: width)
        let column = optionColumn(for: page.sections)
        for section in page.sections {
            lines.append("")
            if let title = section.title { lines.append(title + ":") }
            for (index, block) in section.blocks.enumerated() {
                if index > 0 { lines.append("") }
                lines += render(block, optionColumn: column, indented: section.title != nil)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The help page of `programName`'s command: its description, arguments, own options and examples first, then
    /// its titled discussion sections, then the global options, listed or explained.
    public func page(for command: CommandSpec, programName: String, globalOptions: GlobalOptionsHelp) -> HelpPage {
        var sections = command.discussion.filter { $0.title == nil }
        if !command.arguments.isEmpty {
            sections.append(HelpSection("Arguments", [.definitions(command.arguments.map { ($0.name, $0.help) })]))
        }
        if !command.options.isEmpty {
            sections.append(HelpSection("Options", [.options(command.options)]))
        }
        if !command.examples.isEmpty {
            let blocks = command.examples.map { example in
                HelpBlock.verbatim(["# " + example.comment] + example.command.split(separator: "\n").map(String.init))
            }
            sections.append(HelpSection("Examples", blocks))
        }
        sections += command.discussion.filter { $0.title != nil }
        switch globalOptions {
        case .explained(let options): sections.append(HelpSection("Global options", [.options(options)]))
        case .listed(let options, let note): sections.append(Self.globalOptionsList(options, note: note))
        }
        return HelpPage(
            usage: command.synopsis.map { "\(programName) \(command.name) \($0)" }, abstract: command.abstract,
            sections: sections)
    }

    /// The global options as names only (`--config FILE, --verbose, …`), then `note` (where each is explained).
    public static func globalOptionsList(_ options: [OptionSpec], note: String) -> HelpSection {
        let names = options.map { option in
            (option.short.map { "-\($0)/" } ?? "") + option.usageForm.replacing(" ", with: TextWrapping.nonBreakingSpace)
        }
        return HelpSection("Global options", [.paragraph(names.joined(separator: ", ")), .paragraph(note)])
    }

    /// An option's table row: `-H, --header NAME:VALUE` and its help with default, environment and repetition.
    public static func row(_ option: OptionSpec) -> (term: String, text: String) {
        let names = option.short.map { "-\($0), " } ?? "    "
        var notes: [String] = []
        if option.isRepeatable { notes.append("repeatable") }
        if let value = option.defaultDescription { notes.append("default: \(value)") }
        if let variable = option.environmentVariable { notes.append("env: \(variable)") }
        // A note never breaks inside itself: "env:" stays beside its variable name.
        notes = notes.map { $0.replacing(" ", with: TextWrapping.nonBreakingSpace) }
        let suffix = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
        return (names + option.usageForm, option.help + suffix)
    }

    // MARK: - Layout

    private func usageLines(_ usage: String, label: String) -> [String] {
        let words = TextWrapping.synopsisWords(usage)
        // Continuation lines line up after `PROGRAM COMMAND `.
        let lead = words.prefix(2).joined(separator: " ")
        let indent = String(repeating: " ", count: min(label.count + lead.count + 1, width / 2))
        return TextWrapping.fill(words, width: width, firstIndent: label, indent: indent)
    }

    private func render(_ block: HelpBlock, optionColumn: Int, indented: Bool) -> [String] {
        let margin = indented ? "  " : ""
        switch block {
        case .paragraph(let text):
            return TextWrapping.wrap(text, width: width, firstIndent: margin, indent: margin)
        case .verbatim(let lines):
            return lines.map { margin + $0 }
        case .definitions(let rows):
            let column = termColumn(for: rows.map(\.term))
            return rows.flatMap { row in definitionLines(row, column: column) }
        case .options(let options):
            return options.map(Self.row).flatMap { row in definitionLines(row, column: optionColumn) }
        }
    }

    private func definitionLines(_ row: (term: String, text: String), column: Int) -> [String] {
        let term = "  " + row.term
        let hanging = String(repeating: " ", count: column)
        if term.count + 2 <= column {
            let first = term + String(repeating: " ", count: column - term.count)
            return TextWrapping.wrap(row.text, width: width, firstIndent: first, indent: hanging)
        }
        return [term] + TextWrapping.wrap(row.text, width: width, firstIndent: hanging, indent: hanging)
    }

    /// The column where descriptions start: two spaces after the widest term that is not too long.
    private func termColumn(for terms: [String]) -> Int {
        let fitting = terms.map(\.count).filter { $0 + 4 <= maximumTermColumn }
        return (fitting.max() ?? maximumTermColumn - 4) + 4
    }

    /// One column for every option table on the page, so that the options and global options line up.
    private func optionColumn(for sections: [HelpSection]) -> Int {
        var terms: [String] = []
        for section in sections {
            for case .options(let options) in section.blocks {
                terms += options.map { Self.row($0).term }
            }
        }
        return termColumn(for: terms)
    }
}
