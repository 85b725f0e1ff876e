/// Turns argv into a `ParsedCommandLine`: help, version, or a validated invocation with its global settings.
enum CommandLineParser {
    /// Parses `arguments` (argv without the program name); `environment` supplies `GQLC_*` fallbacks.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> ParsedCommandLine {
        guard !arguments.isEmpty else { return .help(topic: nil) }
        var scanner = CommandLineVocabulary.scanner
        let scanned: ScannedCommandLine
        do {
            scanned = try scanner.scan(arguments)
        } catch {
            // `gqlc list --limt 5 --help` still shows list's help: asking for help beats a typo.
            if let command = scanner.result.command,
               ArgumentScanner.mentions([GlobalOptions.helpOption, GlobalOptions.helpAllOption], in: arguments) {
                return arguments.contains("--help-all") ? .fullHelp(topic: command.name) : .help(topic: command.name)
            }
            throw error
        }
        if scanned.options.contains(GlobalOptions.helpAllOption) {
            return .fullHelp(topic: scanned.command?.name)
        }
        if scanned.options.contains(GlobalOptions.helpOption) {
            return .help(topic: scanned.command?.name)
        }
        if scanned.options.contains(GlobalOptions.versionOption) { return .version }
        guard let command = scanned.command else {
            throw UsageError("missing command; run '\(CommandLineVocabulary.programName) help' for the list of commands")
        }
        let commandArguments = CommandArguments(
            programName: CommandLineVocabulary.programName, command: command, options: scanned.options, positionals: scanned.positionals)
        if command.name == HelpCommand.spec.name {
            if scanned.options.contains(HelpCommand.man) {
                try commandArguments.expectNoPositionals(after: 0)
                return .manPage
            }
            return .help(topic: try HelpText.book.topic(from: commandArguments))
        }
        if command.name == VersionCommand.spec.name {
            try commandArguments.expectNoPositionals(after: 0)
            return .version
        }
        if command.name == CompletionCommand.spec.name {
            return .completion(shell: try CompletionCommand.shell(from: commandArguments))
        }
        guard let entry = CommandTable.runnable.first(where: { $0.spec.name == command.name }) else {
            throw UsageError("unknown command '\(command.name)'; run '\(CommandLineVocabulary.programName) help' for the list of commands")
        }
        let parsed = try entry.decode(commandArguments)
        let globals = try GlobalOptions.resolve(options: scanned.options, environment: environment, command: command.name)
        try checkOutput(globals.output, for: command)
        return .run(CommandRun(command: parsed, globals: globals))
    }

    /// The commands that print model records (`CommandSpec.printsRecords`), in the table's order.
    static var recordCommands: [CommandSpec] { CommandTable.specs.filter(\.printsRecords) }

    /// Refuses a record format (`--output table|tsv|raw`) for a command that does not print records.
    static func checkOutput(_ format: GlobalOptions.OutputFormat, for command: CommandSpec) throws(UsageError) {
        guard format.isRecordFormat, !command.printsRecords else { return }
        let names = recordCommands.map(\.name).joined(separator: ", ")
        throw UsageError(
            "'\(GlobalOptions.outputOption.flagName) \(format.word)' prints records (\(names)); '\(command.name)' prints JSON: "
                + "use \(GlobalOptions.outputOption.flagName) json or ndjson")
    }
}
