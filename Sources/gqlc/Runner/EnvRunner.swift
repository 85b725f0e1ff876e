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
        do throws(EnvironmentError) {
            let config = try EnvironmentConfig.load(path: path)
            switch invocation {
            case .list:
                list(config)
            case .show(let name):
                show(try config.environment(named: name), path: path)
            case .add(let name, let settings):
                let updated = try config.adding(NamedEnvironment(name: name, line: 0, settings: settings))
                try updated.write()
                session.console.error.write("added environment '\(name)' to \(path)\n")
            case .remove(let name):
                let updated = try config.removing(name)
                try updated.write()
                session.console.error.write("removed environment '\(name)' from \(path)\n")
            }
            return .success
        } catch {
            diagnostics.error(error.commandLineMessage)
            return .usage
        }
    }

    private func list(_ config: EnvironmentConfig) {
        if session.globals.outputGiven {
            let items: [JSONValue] = config.environments.map { environment in
                ["name": .string(environment.name), "protected": .bool(environment.isProtected),
                 "readOnly": .bool(environment.isReadOnly)]
            }
            var printer = ResultPrinter(console: session.console, globals: session.globals, columns: [])
            printer.print(.array(items))
            return
        }
        var text = ""
        for environment in config.environments {
            text += environment.name
            if environment.isReadOnly { text += " (read-only)" } else if environment.isProtected { text += " (protected)" }
            text += "\n"
        }
        session.console.output.write(text)
        if !config.exists { session.console.error.write("no environments: \(config.path) does not exist\n") }
    }

    private func show(_ environment: NamedEnvironment, path: String) {
        var text = "# \(path):\(environment.line)\n[env \(environment.name)]\n"
        for setting in environment.settings { text += "\(setting.key.rawValue) = \(setting.shownValue)\n" }
        session.console.output.write(text)
    }
}
