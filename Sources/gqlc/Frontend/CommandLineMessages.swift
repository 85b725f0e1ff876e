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
        }
    }

    /// `--id`, `--where`, …; empty for positional values.
    var flagName: String { option?.flagName ?? "" }
}

/// Any error's message, phrased for the command line when the core's error names parameters.
func commandLineMessage(_ error: any Error) -> String {
    (error as? any ParameterizedMessage)?.commandLineMessage ?? "\(error)"
}

extension ParameterizedMessage {
    /// The core's message with each parameter named by its flag: `--where 'ratng>3': unknown field …`.
    var commandLineMessage: String { message(naming: \.flagName) }
}
