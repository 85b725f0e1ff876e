/// A command's declaration (`spec`) and the decoding of its scanned arguments into a typed invocation.
///
/// Each command lives in its own file; `CommandTable` lists them.
protocol CommandDefinition: SendableMetatype {
    /// The validated request the command's run logic consumes.
    associatedtype Invocation: Equatable & Sendable

    /// Names, synopsis, options, help text and examples.
    static var spec: CommandSpec { get }

    /// Checks the command line's syntax and builds the invocation (schema checks come later).
    static func invocation(from arguments: CommandArguments) throws(UsageError) -> Invocation
}
