import GQLCore

/// The JSON values that options read from files: `--vars FILE`, `--input FILE`, `--filter @FILE`
/// (each also `-` for standard input), read by the core's ``InputSource``. Errors name the option and the file:
/// `--vars: vars.json: no such file`, `--vars: vars.json: invalid JSON at 1:20: …`.
enum JSONArgument {
    static func read(_ source: InputSource, option: String, console: Console) throws(RunFailure) -> JSONValue {
        do throws(InputValueError) {
            return try source.json(from: console.input)
        } catch {
            throw .usage("\(option): \(error)")
        }
    }
}

/// `--api-key`, `--auth-token` and `--client-secret` (and their variables) given as `@FILE` or `-`: the secret is
/// then read from the file or from standard input (``InputSource/secret(_:from:)``), so that it never shows in `ps`.
enum SecretArguments {
    /// `globals` with each secret given as `@FILE` or `-` replaced by what the file or standard input holds.
    static func resolve(_ globals: inout GlobalOptions, console: Console) throws(RunFailure) {
        if let setting = globals.context.apiKey {
            let value = try read(setting.value.value, option: GlobalOptions.apiKeyOption, console: console)
            globals.context.apiKey = Setting(value: Secret(value: value), origin: setting.origin)
        }
        if let setting = globals.context.authToken {
            let value = try read(setting.value.value, option: GlobalOptions.authTokenOption, console: console)
            globals.context.authToken = Setting(value: Secret(value: value), origin: setting.origin)
        }
    }

    /// `value`, or what the file (`@FILE`) or standard input (`-`) holds; `option` names it in errors.
    static func read(_ value: String, option: OptionSpec, console: Console) throws(RunFailure) -> String {
        do throws(InputValueError) {
            return try InputSource.secret(value, from: console.input)
        } catch {
            throw .usage("\(option.flagName): \(error)")
        }
    }
}
