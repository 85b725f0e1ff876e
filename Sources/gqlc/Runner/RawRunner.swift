import GQLCore

/// `gqlc raw`: any GraphQL document. (Wired once the document parser lands.)
struct RawRunner {
    let session: Session
    let diagnostics: Diagnostics

    func run(_ invocation: RawInvocation) -> ExitCode {
        diagnostics.error("'raw' is not available yet")
        return .usage
    }
}
