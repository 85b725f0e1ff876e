import GQLCore

/// `--api-key`, `--auth-token` and `--client-secret` (and their variables) given as `@FILE` or `-`: the secret is then read from the
/// file or from standard input, so that it never shows in `ps` (a flag's value is visible to other users there).
/// Leading and trailing whitespace, such as the file's last line break, is dropped.
enum SecretArguments {
    /// `globals` with each secret given as `@FILE` or `-` replaced by what the file or standard input holds.
    static func resolve(_ globals: inout GlobalOptions, console: Console) throws(RunFailure) {
        if let setting = globals.apiKey {
            let value = try read(setting.value.value, option: GlobalOptions.apiKeyOption, console: console)
            globals.apiKey = Setting(value: Secret(value: value), origin: setting.origin)
        }
        if let setting = globals.authToken {
            let value = try read(setting.value.value, option: GlobalOptions.authTokenOption, console: console)
            globals.authToken = Setting(value: Secret(value: value), origin: setting.origin)
        }
    }

    /// `value`, or what the file (`@FILE`) or standard input (`-`) holds; `option` names it in errors.
    static func read(_ value: String, option: OptionSpec, console: Console) throws(RunFailure) -> String {
        let source: InputSource
        if value == "-" {
            source = .standardInput
        } else if value.hasPrefix("@"), value.count > 1 {
            source = .file(String(value.dropFirst()))
        } else {
            return value
        }
        let secret: String
        do {
            secret = try source.text(console).trimmingWhitespace
        } catch {
            throw .usage("\(option.flagName): \(error.description)")
        }
        guard !secret.isEmpty else { throw .usage("\(option.flagName): \(source.name) is empty") }
        return secret
    }
}
