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
        }
    }

    /// `--id`, `--where`, …; empty for positional values.
    var flagName: String { option?.flagName ?? "" }
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
    var commandLineMessage: String { message(naming: \.flagName, remedy: \.commandLine) }
}

extension RemedialMessage {
    /// The core's message with its remedy said as the command that carries it out: `…; run gqlc login`.
    var commandLineMessage: String { message(remedy: \.commandLine) }
}
