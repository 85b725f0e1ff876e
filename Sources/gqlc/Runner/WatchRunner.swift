import GQLCore

/// `gqlc list --watch`: runs the core's ``WatchOperation`` and draws what it reports, as JSON lines or as a live
/// table on the terminal (`q` leaves it).
extension ListCommand {
    static func runWatch(
        _ invocation: ListInvocation, mode: ListInvocation.Watch, requests: ListRequests, columns: [String],
        runner: inout ModelCommandRunner
    ) -> ExitCode {
        var subscriptions: SubscribeOperation?
        if case .subscriptions = mode {
            do throws(SubscribeBuildError) {
                subscriptions = try .watching(
                    invocation.model, conditions: invocation.conditions, includes: invocation.includes, builder: runner.builder,
                    withFilterObject: invocation.filter != nil)
            } catch {
                return runner.usage(SubscribeCommand.phrased(error))
            }
        }
        if runner.globals.dryRun {
            var status = runner.execution.printDryRun(requests.page(limit: invocation.pageSize, nextToken: nil))
            for subscription in subscriptions?.subscriptions ?? [] where status == .success { status = runner.execution.printDryRun(subscription.request) }
            return status
        }
        var globals = runner.globals
        let onTable = !globals.outputGiven && runner.session.console.outputIsTerminal
        if !globals.outputGiven { globals.output = onTable ? .table : .ndjson }
        let client: GraphQLClient
        let tableColumns: [String]
        do {
            client = try runner.execution.client()
            tableColumns = onTable ? try runner.recordColumns(invocation.model, fields: invocation.fields, format: .table) : columns
        } catch {
            return runner.usage(error)
        }
        var printer = ResultPrinter(console: runner.session.console, globals: globals, columns: tableColumns)
        if globals.decodeJSONFields { printer.decodingSchema = runner.schema }
        let (model, diagnostics, cancellation) = (invocation.model, runner.diagnostics, runner.session.cancellation)
        let screen = WatchScreen(
            onTable
                ? .table(LiveTable(output: runner.session.console.output, formatter: printer.records, model: model, sort: invocation.watchSort))
                : .lines(printer.beginList()),
            model: model, keyFields: runner.keyFields(of: model), say: diagnostics.say)
        var operation = WatchOperation(
            model: model, requests: requests, pageSize: invocation.pageSize, keyFields: runner.keyFields(of: model))
        operation.duration = invocation.watchDuration
        let context = APIContext(schema: runner.schema, client: client)
        var stream = SubscriptionStream(
            session: runner.session, diagnostics: diagnostics, schemaFile: runner.execution.schemaFile, model: runner.schema.models[model],
            duration: invocation.watchDuration)
        let watch: WatchMode
        switch mode {
        case .polling(let seconds):
            watch = .polling(every: seconds)
        case .subscriptions:
            do {
                watch = .subscriptions(subscriptions ?? SubscribeOperation([]), try stream.connection())
            } catch {
                diagnostics.failure(error)
                screen.finish()
                return error.status
            }
        }
        var listener = stream.listener
        return operation.run(watch, on: screen, in: context, cancellation: cancellation, listener: &listener, end: stream.status)
    }
}
