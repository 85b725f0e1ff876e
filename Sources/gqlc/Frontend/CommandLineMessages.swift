import GQLCore

extension Parameter {
    /// The option that gives this parameter on the command line (`--id`); empty for positional values.
    var option: OptionSpec? {
        switch self {
        case .id: SharedOptions.id
        case .key: SharedOptions.key
        case .include: SharedOptions.include
        case .fields: SharedOptions.fields
        case .input: SharedOptions.input
        case .fieldValue: nil
        case .filter: ListCommand.whereOption
        case .filterObject: ListCommand.filter
        case .condition: SharedOptions.condition
        case .index: ListCommand.index
        case .operationName: RawCommand.operationName
        case .timeout: GlobalOptions.timeoutOption
        case .retries: GlobalOptions.retriesOption
        case .maxResponseSize: GlobalOptions.maxResponseOption
        case .region: GlobalOptions.regionOption
        case .profile: GlobalOptions.profileOption
        case .apiKey: GlobalOptions.apiKeyOption
        case .authToken: GlobalOptions.authTokenOption
        case .iam: GlobalOptions.iamOption
        case .realtimeEndpoint: SubscribeCommand.realtimeEndpoint
        case .endpoint: GlobalOptions.endpointOption
        case .schema: GlobalOptions.schemaOption
        case .caFile: GlobalOptions.caCertOption
        case .authMode: GlobalOptions.authModeOption
        case .userPoolId: UserPoolOptions.userPoolId
        case .clientId: UserPoolOptions.clientId
        case .includeDeleted: SharedOptions.includeDeleted
        case .nextToken: ListCommand.nextToken
        case .since: SyncCommand.since
        case .expectedVersion: SharedOptions.expectedVersion
        case .cascade: DeleteCommand.cascade
        case .decodePath: RawCommand.decodePath
        case .variable: RawCommand.variable
        case .variablesFile: RawCommand.vars
        case .output: GlobalOptions.outputOption
        }
    }

    /// `--id`, `--where`, …; empty for positional values.
    var flagName: String { option?.flagName ?? "" }

    /// The variable that gives the parameter when its flag is absent (`GQLC_ENDPOINT`), if any.
    var variableName: String? { option?.environmentVariable }
}

extension Remedy {
    /// The command that carries out the remedy, as a message's advice: `run gqlc login`.
    var commandLine: String {
        switch self {
        case .signIn: "run gqlc \(LoginCommand.spec.name)"
        case .signInAgain: "run gqlc \(LoginCommand.spec.name) again"
        case .addEnvironment(let name): "add one with gqlc \(EnvCommand.spec.name) \(EnvInvocation.Action.add.rawValue) \(name)"
        case .removeEnvironment(let name):
            "remove it first with gqlc \(EnvCommand.spec.name) \(EnvInvocation.Action.remove.rawValue) \(name)"
        case .pullSchema: "gqlc \(SchemaCommand.spec.name) \(SchemaInvocation.Action.pull.rawValue)"
        case .rawDocument: "gqlc \(RawCommand.spec.name) can select it"
        case .give(let parameter):
            "pass \(parameter.option?.usageForm ?? "")" + (parameter.variableName.map { " or set \($0)" } ?? "")
        case .schemaPull(let parameter):
            Remedy.pullSchema.commandLine + (parameter.map { " \($0.option?.usageForm ?? "")" } ?? "")
        }
    }
}

/// Any error's message, phrased for the command line when the core's error names parameters or remedies.
func commandLineMessage(_ error: any Error) -> String {
    if let error = error as? any ParameterizedMessage { return error.commandLineMessage }
    if let error = error as? any RemedialMessage { return error.commandLineMessage }
    return "\(error)"
}

extension ParameterizedMessage {
    /// The core's message with each parameter named by its flag (`--where 'ratng>3': unknown field …`), and any
    /// remedy by the command that carries it out.
    var commandLineMessage: String { message(naming: \.flagName, variable: \.variableName, remedy: \.commandLine) }
}

extension RemedialMessage {
    /// The core's message with its remedy said as the command that carries it out: `…; run gqlc login`.
    var commandLineMessage: String { message(remedy: \.commandLine) }
}

extension SettingOrigin {
    /// `'--endpoint'`, `$GQLC_ENDPOINT`, `environment 'prod' (~/.config/gqlc/config:3)` or `the default`.
    func describe(_ option: OptionSpec) -> String { describe(naming: option.flagName) }
}

extension ContextNote {
    /// The `--verbose` line, with settings and commands named as on the command line.
    var commandLineText: String { "* " + message(naming: \.flagName, remedy: \.commandLine) }
}
