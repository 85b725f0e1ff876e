import GQLCore

extension ModelsCommand {
    /// `gqlc models [MODEL]`: the core's ``ModelsOperation`` describes; JSON with `--output`, and for a custom operation
    /// the command that runs it.
    static func run(_ invocation: ModelsInvocation, in context: RunContext) -> ExitCode {
        let (session, diagnostics) = (context.session, context.diagnostics)
        let operation: ModelsOperation
        do {
            operation = try ModelsOperation(name: invocation.model, schema: session.models().schema)
        } catch let error as RunFailure {
            diagnostics.failure(error)
            return error.status
        } catch {
            diagnostics.error("\(error)")
            return .usage
        }
        if session.globals.outputGiven {
            ResultPrinter(console: session.console, globals: session.globals).print(operation.json(modelsOnly: session.globals.output == .ndjson))
            return .success
        }
        var lines = operation.lines
        if case .customOperation(let custom) = operation.subject {
            lines.append("  run: gqlc \(custom.kind.command) \(custom.name)" + custom.arguments.filter(\.isMandatoryArgument).map { " \($0.name)=VALUE" }.joined())
        }
        session.console.output.write(lines.map { $0.oneLine() }.joined(separator: "\n") + "\n")  // free text (auth groups) too
        return .success
    }
}
