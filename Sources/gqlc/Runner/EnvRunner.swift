import GQLCore

/// Reads and edits the config file for `gqlc env`.
struct EnvRunner {
    let session: Session
    let diagnostics: Diagnostics

    func run(_ invocation: EnvInvocation) -> ExitCode {
        guard let path = session.globals.configPath else {
            diagnostics.error(EnvironmentError.noPath.description)
            return .usage
        }
        let (output, errors) = (session.console.output, session.console.error)
        do throws(EnvironmentError) {
            let config = try EnvironmentConfig.load(path: path)
            switch invocation {
            case .list where session.globals.outputGiven:
                ResultPrinter(console: session.console, globals: session.globals, columns: []).print(.array(config.environments.map(\.json)))
            case .list:
                output.write(config.environments.map { $0.listed + "\n" }.joined())
                if !config.exists { errors.write("\(EnvironmentNote.noFile(path: config.path))\n") }
            case .show(let name):
                output.write(try config.environment(named: name).shown(path: path).map { $0 + "\n" }.joined())
            case .add(let name, let settings):
                errors.write("\(try config.add(NamedEnvironment(name: name, line: 0, settings: settings)))\n")
            case .remove(let name):
                errors.write("\(try config.remove(name))\n")
            }
            return .success
        } catch {
            diagnostics.error(error.commandLineMessage)
            return .usage
        }
    }
}
