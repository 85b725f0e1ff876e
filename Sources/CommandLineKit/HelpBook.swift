import Spelling

/// A program's help pages over its command table: the overview, the page of `PROGRAM help TOPIC` that explains every
/// global option, and each command's page, where the global options are listed by name with a note saying where they
/// are explained (or explained in full, as `--help-all` asks).
public struct HelpBook: Sendable {
    /// The program's name in usage lines and notes.
    public let programName: String
    /// The options every command takes.
    public let globalOptions: [OptionSpec]
    /// Every command, in the order the overview lists them.
    public let commands: [CommandSpec]
    /// The topic whose page explains every global option (`options`).
    public let optionsTopic: String
    /// What follows the global options on the overview and on the options topic's page (where settings come from).
    public let settings: [HelpSection]

    /// The help of a program with these global options and commands.
    public init(programName: String, globalOptions: [OptionSpec], commands: [CommandSpec], optionsTopic: String, settings: [HelpSection]) {
        self.programName = programName
        self.globalOptions = globalOptions
        self.commands = commands
        self.optionsTopic = optionsTopic
        self.settings = settings
    }

    /// The program's usage line: `tool [OPTIONS] COMMAND [ARGUMENTS]...`.
    public var usage: String { "\(programName) [OPTIONS] COMMAND [ARGUMENTS]..." }

    /// The topic of `PROGRAM help [TOPIC]`: a command or ``optionsTopic``, nil for the overview; an unknown name is an
    /// error with a suggestion.
    public func topic(from arguments: CommandArguments) throws(UsageError) -> String? {
        try arguments.expectNoPositionals(after: 1)
        guard let name = arguments.optional(at: 0) else { return nil }
        let topics = commands.map(\.name) + [optionsTopic]
        guard topics.contains(name) else {
            let suggestion = Suggestions.didYouMean(name, in: topics)
            let hint = suggestion.isEmpty ? "; run '\(programName) help' for the list of commands" : suggestion
            throw UsageError("unknown command '\(name)'\(hint)")
        }
        return name
    }

    /// The options topic's page for ``optionsTopic``, else the page of the command named `topic`; nil for any other
    /// topic (the overview is then shown). Every global option is explained when `allGlobalOptions`.
    public func page(topic: String?, allGlobalOptions: Bool = false) -> HelpPage? {
        if topic == optionsTopic { return optionsPage }
        guard let topic, let command = commands.first(where: { $0.name == topic }) else { return nil }
        return page(for: command, allGlobalOptions: allGlobalOptions)
    }

    /// A command's page: the global options as a list of names, or each explained when `allGlobalOptions`.
    public func page(for command: CommandSpec, allGlobalOptions: Bool = false) -> HelpPage {
        HelpRenderer().page(
            for: command, programName: programName,
            globalOptions: allGlobalOptions ? .explained(globalOptions) : .listed(globalOptions, note: globalOptionsNote(command: command.name)))
    }

    /// Where the listed global options are explained: `tool COMMAND --help-all` or `tool help options`.
    public func globalOptionsNote(command: String?) -> String {
        let topic = "'\(programName) help \(optionsTopic)'"
        let more = command.map { "'\(programName) \($0) --help-all' or \(topic)" } ?? topic
        return "They go before or after the command; \(more) explains each."
    }

    /// The options topic's page: the global options, each explained, then ``settings``.
    public var optionsPage: HelpPage {
        HelpPage(
            usage: [usage], abstract: "The options every command takes, before or after the command's name.",
            sections: [HelpSection("Global options", [.options(globalOptions)])] + settings)
    }

    /// The overview: `abstract`, the commands, the global options (their names, or each explained), ``settings``, then
    /// `sections`, and where a command's page is.
    public func overview(abstract: String, allGlobalOptions: Bool, sections: [HelpSection]) -> HelpPage {
        HelpPage(
            usage: [usage], abstract: abstract,
            sections: [
                HelpSection("Commands", [.definitions(commands.map { ($0.name, $0.abstract) })]),
                allGlobalOptions
                    ? HelpSection("Global options (before or after the command)", [.options(globalOptions)])
                    : HelpRenderer.globalOptionsList(globalOptions, note: globalOptionsNote(command: nil)),
            ] + settings + sections + [
                HelpSection([
                    .paragraph("Run '\(programName) help COMMAND' or '\(programName) COMMAND --help' for a command's options and examples.")
                ]),
            ])
    }
}
