import GQLCore

/// `query` and `mutate`: a custom operation, built from the schema and printed as the model commands print.
extension ModelCommandRunner {
    mutating func custom(_ invocation: CustomOperationInvocation) -> ExitCode {
        let request: GraphQLRequest
        let include: IncludeTree
        var resultModel: String?
        do throws(RunFailure) {
            let input = try invocation.input.map { source throws(RunFailure) in
                try JSONArgument.read(source, option: "--input", console: session.console)
            }
            let values = RecordValues(assignments: invocation.assignments, input: input)
            do throws(RequestBuildError) {
                request = try builder.custom(invocation.name, kind: invocation.kind, arguments: values, include: invocation.includes)
                let operation = try builder.customOperation(invocation.name, kind: invocation.kind)
                include = try builder.customIncludeTree(operation, paths: invocation.includes)
                if case .model(let name) = operation.result.type { resultModel = name }
            } catch {
                throw Self.phrased(error)
            }
        } catch {
            return usage(error)
        }
        if globals.dryRun { return execution.printDryRun(request) }
        // A custom mutation may not be idempotent: it is never retried.
        let mayRetry = invocation.kind == .query
        let builder = self.builder
        let follow = invocation.followIncludedLists && !include.isEmpty
        return execution.send(
            request, mayRetry: mayRetry, nullIsNotFound: false, notFoundMessage: "",
            complete: { value, client throws(RunFailure) in
                guard follow, let resultModel else { return value }
                return try Self.followChildLists(value, model: resultModel, include: include, fields: .all, builder: builder, client: client)
            })
    }

    /// The core's error, with the command to use when the name is an operation of the other kind, or one the
    /// pulled schema left out.
    static func phrased(_ error: RequestBuildError) -> RunFailure {
        if case .operationLeftOut = error.underlying {
            return .usage(error.commandLineMessage + "; send it with gqlc raw (gqlc schema print shows its SDL)")
        }
        guard case .operationKindMismatch(let name, let actual, _) = error.underlying else { return .request(error) }
        let command = actual == "mutation" ? "mutate" : actual == "query" ? "query" : "subscribe"
        return .usage(error.commandLineMessage + "; run it with: gqlc \(command) \(name)")
    }
}

extension QueryCommand: ModelCommand {
    static func run(_ invocation: CustomOperationInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        runner.custom(invocation)
    }
}

extension MutateCommand: ModelCommand {
    static func run(_ invocation: CustomOperationInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        runner.custom(invocation)
    }
}
