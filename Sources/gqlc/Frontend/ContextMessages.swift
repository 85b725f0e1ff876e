import GQLCore

extension SettingOrigin {
    /// `'--endpoint'`, `$GQLC_ENDPOINT`, `environment 'prod' (~/.config/gqlc/config:3)` or `the default`.
    func describe(_ option: OptionSpec) -> String { describe(naming: option.flagName) }
}

extension RunFailure {
    /// A context that cannot be resolved, phrased with the flags and variables that fix it.
    init(_ error: ContextError) {
        switch error {
        case .schema(let error): self = .schema(error)
        case .endpoint(let error): self = .endpoint(error)
        case .awsAuth(let error): self = .awsAuth(error)
        case .cognito(let error): self = .cognito(error)
        default: self = .usage(error.commandLineMessage)
        }
    }
}

extension ContextNote {
    /// The `--verbose` line, with settings and commands named as on the command line.
    var commandLineText: String { "* " + message(naming: \.flagName, remedy: \.commandLine) }
}
