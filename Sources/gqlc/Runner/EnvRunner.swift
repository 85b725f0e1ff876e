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
                if !config.exists { errors.write("no environments: \(config.path) does not exist\n") }
            case .show(let name):
                output.write(try config.environment(named: name).shown(path: path).map { $0 + "\n" }.joined())
            case .add(let name, let settings):
                try config.adding(NamedEnvironment(name: name, line: 0, settings: settings)).write()
                errors.write("added environment '\(name)' to \(path)\n")
            case .remove(let name):
                try config.removing(name).write()
                errors.write("removed environment '\(name)' from \(path)\n")
            }
            return .success
        } catch {
            diagnostics.error(error.commandLineMessage)
            return .usage
        }
    }
}
