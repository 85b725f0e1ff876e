import GQLCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `gqlc mcp`: loads the schema, then hands each line of standard input to the core's ``MCPServer`` and writes
/// its replies to standard output, until standard input ends.
extension MCPCommand {
    static func run(_ invocation: MCPInvocation, in context: RunContext) -> ExitCode {
        let (session, diagnostics) = (context.session, context.diagnostics)
        for (given, option) in [(session.globals.dryRun, GlobalOptions.dryRunOption), (session.globals.rawResponse, GlobalOptions.rawResponseOption)]
        where given {
            diagnostics.error("option '\(option.flagName)' does not apply to mcp: the server answers each tool call as it comes")
            return .usage
        }
        // Schema, endpoint and auth resolve as for every command: flags, GQLC_*, a named environment, the nearest schema.
        let file: SchemaFile?
        let schema: ModelSchema
        var configuration: MCPConfiguration
        do throws(RunFailure) {
            (file, schema) = try session.models()
            do throws(RequestBuildError) {
                configuration = try MCPConfiguration(
                    schema: schema, models: invocation.models, allowWrites: invocation.allowWrites, serverVersion: Version.number)
            } catch {
                throw RunFailure.usage(MCPCommand.models.flagName + ": " + error.commandLineMessage)
            }
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        configuration.maxResultBytes = invocation.maxResultBytes
        configuration.retryCreates = session.globals.retryMutations
        configuration.settingName = { $0.flagName }
        configuration.enableWritesAdvice = "restart it with gqlc mcp \(MCPCommand.allowWrites.flagName) to allow changes"
        let execution = RequestExecution(session: session, diagnostics: diagnostics, schemaFile: file)
        var server = MCPServer(schema: schema, configuration: configuration) { model throws(MCPToolError) in
            var execution = execution
            execution.model = model
            do throws(RunFailure) {
                return try execution.client()
            } catch {
                throw MCPToolError(error.message)
            }
        }
        session.console.error.write("gqlc mcp: \(configuration.servingNote)\n")
        // The client ends the session by closing standard input; SIGTERM or Ctrl-C (which cancel the request in
        // flight) end it too, even while waiting for the next line.
        session.cancellation.onCancel { exit(ExitCode.success.rawValue) }
        var input = LineReader(descriptor: STDIN_FILENO)
        server.serve(&input) { session.console.output.write(bytes: $0) }
        return .success
    }
}
