import Foundation

/// Locations of the project's example schemas and the shared Amplify fixtures.
enum TestPaths {
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func example(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("schema-examples").appendingPathComponent(name).path
    }

    /// `../shared/fixtures/amplify` beside the checkout (or `$GQLC_SHARED_FIXTURES`).
    static var sharedFixtures: URL {
        if let override = ProcessInfo.processInfo.environment["GQLC_SHARED_FIXTURES"] {
            return URL(fileURLWithPath: override)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/amplify")
    }

    static func fixture(_ name: String) -> String { sharedFixtures.appendingPathComponent(name).path }
}
