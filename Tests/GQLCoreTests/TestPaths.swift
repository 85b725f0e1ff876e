import Foundation

/// Locations of the project's example schemas, its own test fixtures and the optional shared Amplify fixtures.
enum TestPaths {
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func example(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("schema-examples").appendingPathComponent(name).path
    }

    /// `Tests/Fixtures/schemas`: model schemas written for the project's own tests.
    static let projectFixtures: URL = repositoryRoot.appendingPathComponent("Tests/Fixtures/schemas")

    static func projectFixture(_ name: String) -> String { projectFixtures.appendingPathComponent(name).path }

    /// `DevServers/StarWars/queries`: the graphql.org "Queries" examples the Star Wars server answers.
    static let starWarsQueries: URL = repositoryRoot.appendingPathComponent("DevServers/StarWars/queries")

    /// `$GQLC_SHARED_FIXTURES`, else `shared/fixtures/amplify` beside the checkout, else one level higher
    /// (from a worktree such as `/work/wt/x`); the same search as `_find_shared_fixtures` in harness.py.
    static var sharedFixtures: URL {
        if let override = ProcessInfo.processInfo.environment["GQLC_SHARED_FIXTURES"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        let parent = repositoryRoot.deletingLastPathComponent()
        let candidates = [parent, parent.deletingLastPathComponent()].map {
            $0.appendingPathComponent("shared/fixtures/amplify")
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates[0]
    }

    /// Whether the shared Amplify fixtures are there; the suites over them run only then (a lone clone has none).
    static var hasSharedFixtures: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: sharedFixtures.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func fixture(_ name: String) -> String { sharedFixtures.appendingPathComponent(name).path }
}
