import Foundation
import GQLCore
import Testing

@testable import gqlc

/// The live commands run in process up to their connection: what they say and print when none can be made.
@Suite struct LiveRunnerTests {
    /// The blog example schema of the repository.
    static let blog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schema-examples/blog.json").path

    /// A real-time URL set in the environment that is no WebSocket URL; nothing is sent.
    static let environment = [
        "GQLC_REALTIME_ENDPOINT": "http://x/graphql", "GQLC_ENDPOINT": "http://127.0.0.1:9/graphql", "GQLC_API_KEY": "da2-x",
    ]

    @Test(arguments: [["subscribe", "Post", "--on", "create"], ["list", "Post", "--watch"]])
    func aRealTimeURLThatCannotBeUsedIsOneLineNamingItsSettingAndTheJSONArrayIsStillClosed(command: [String]) {
        let result = runGQLC(
            command + ["--output", "json", "--schema", Self.blog], environment: Self.environment,
            runner: LiveCommandRunner(cancellation: CancellationFlag()))
        #expect(result.code == .usage)
        #expect(result.output == "[]\n")
        #expect(result.error == "gqlc: $GQLC_REALTIME_ENDPOINT: invalid WebSocket URL 'http://x/graphql': the scheme must be ws or wss, "
            + "e.g. wss://example.com/graphql/realtime\n")
    }
}
