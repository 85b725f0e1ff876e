import GQLCore

/// `gqlc __complete KIND MODEL [--schema FILE]`: the words the completion scripts offer for a model, one per
/// line, read from the schema that `--schema`, `$GQLC_SCHEMA` or the nearest amplify_outputs.json names.
/// Hidden from help: it exists for the scripts. Any problem prints nothing (completion must stay quiet).
enum CompletionCandidates {
    static let commandName = "__complete"

    /// What is being completed: the core's kinds of model names, by their words (`where`, `fields`, …).
    typealias Kind = ModelNameKind

    static func run(_ arguments: [String], environment: [String: String], console: Console) -> ExitCode {
        guard arguments.count >= 2, let kind = Kind.parse(arguments[0]) else { return .usage }
        // The schema as a run finds it (``ContextResolver/models()``), from the line's --schema or its variable.
        let index = arguments.firstIndex(of: GlobalOptions.schemaOption.flagName).map { $0 + 1 }
        let source = SettingSource(
            given: index.flatMap { $0 < arguments.count ? arguments[$0] : nil },
            variable: GlobalOptions.schemaOption.environmentVariable, key: nil)
        let schema = SettingSources(variables: environment, selected: nil).text(source)
            ?? Setting(value: GlobalOptions.defaultSchemaPath, origin: .default)
        let resolver = ContextResolver(settings: ContextSettings(schema: schema), prompts: UnattendedPrompts())
        guard let schema = (try? resolver.models())?.schema, let model = schema.models[arguments[1]] else { return .usage }
        let words = schema.names(kind, of: model)
        console.output.write(words.isEmpty ? "" : words.joined(separator: "\n") + "\n")
        return .success
    }
}

extension ModelNameKind: Choice {}
