@testable import gqlc

/// Expected commands, spelled as the invocations they hold.
extension ParsedCommand {
    static func get(_ invocation: GetInvocation) -> ParsedCommand { ParsedCommand(GetCommand.self, invocation) }
    static func list(_ invocation: ListInvocation) -> ParsedCommand { ParsedCommand(ListCommand.self, invocation) }
    static func create(_ invocation: CreateInvocation) -> ParsedCommand { ParsedCommand(CreateCommand.self, invocation) }
    static func update(_ invocation: UpdateInvocation) -> ParsedCommand { ParsedCommand(UpdateCommand.self, invocation) }
    static func delete(_ invocation: DeleteInvocation) -> ParsedCommand { ParsedCommand(DeleteCommand.self, invocation) }
    static func models(_ invocation: ModelsInvocation) -> ParsedCommand { ParsedCommand(ModelsCommand.self, invocation) }
    static func raw(_ invocation: RawInvocation) -> ParsedCommand { ParsedCommand(RawCommand.self, invocation) }
    static func subscribe(_ invocation: SubscribeInvocation) -> ParsedCommand {
        ParsedCommand(SubscribeCommand.self, invocation)
    }
    static func query(_ invocation: CustomOperationInvocation) -> ParsedCommand { ParsedCommand(QueryCommand.self, invocation) }
    static func mutate(_ invocation: CustomOperationInvocation) -> ParsedCommand { ParsedCommand(MutateCommand.self, invocation) }
}
