import Testing
import GQLCore

/// Policy moved out of the executable's runners: the real-time URL's order of sources, shell quoting of a suggested
/// command's words, and the kind of a failed version read.
@Suite struct RunnerPolicyTests {
    static let api = "http://127.0.0.1:4000/graphql"

    /// A real-time URL set in the environment.
    static func setting(_ url: String) -> Setting<String> { Setting(value: url, origin: .environment("GQLC_REALTIME_ENDPOINT")) }

    @Test func theGivenURLComesFirstThenTheSettingThenTheDerivedOne() throws {
        #expect(try RealtimeEndpoint.url(given: "ws://given/r", setting: Self.setting("ws://set/r"), forAPI: Self.api).description == "ws://given/r")
        #expect(try RealtimeEndpoint.url(given: nil, setting: Self.setting("ws://set/r"), forAPI: Self.api).description == "ws://set/r")
        #expect(try RealtimeEndpoint.url(given: nil, setting: nil, forAPI: Self.api).description == "ws://127.0.0.1:4000/graphql/realtime")
    }

    @Test func aBadURLIsAnErrorOfItsSourceNeverSkipped() {
        func source(_ given: String?, _ setting: String?, _ api: String) -> RealtimeEndpoint.Source? {
            do {
                _ = try RealtimeEndpoint.url(given: given, setting: setting.map(Self.setting), forAPI: api)
                return nil
            } catch {
                return error.source
            }
        }
        #expect(source("http://not-ws", "ws://set/r", Self.api) == .given)
        #expect(source(nil, "nope", Self.api) == .setting)
        #expect(source(nil, nil, "ftp://example.com/graphql") == .derived)
    }

    @Test(arguments: [
        ("p1", "p1"), ("sku=A-1", "sku=A-1"), ("a b", "'a b'"), ("", "''"), ("it's", "'it'\\''s'"), ("$HOME", "'$HOME'"),
        ("a;rm", "'a;rm'"), ("ünï", "'ünï'"),
    ])
    func wordsAreQuotedForTheShellOnlyWhereNeeded(value: String, expected: String) {
        #expect(ShellWord.quoted(value) == expected)
    }

    @Test func aFailedVersionReadEndsWithTheKindOfItsCause() {
        #expect(VersionTable.Failure.cancelled.kind == .cancelled)
        #expect(VersionTable.Failure.errors([]).kind == .graphQLErrors)
        #expect(VersionTable.Failure.execution(.transport(.network("refused"), attempts: 1)).kind == .network)
        #expect(VersionTable.Failure.request(.unknownModel("Nope", suggestion: nil)).kind == .invalidInput)
    }

    @Test func aReadOnlyEnvironmentRefusesAWriteAndAProtectedOneAsksFirst() throws {
        let config = try EnvironmentConfig.parse(
            "[env dev]\nendpoint = http://dev/graphql\n[env prod]\nendpoint = http://prod/graphql\nprotected = yes\n"
                + "[env audit]\nendpoint = http://audit/graphql\nprotected = yes\nread_only = yes\n",
            path: "/c")
        func guardOf(_ name: String) throws -> EnvironmentWriteGuard {
            let selected = SelectedEnvironment(
                environment: try config.environment(named: name), config: config, home: nil, selectedBy: .commandLine)
            return selected.writeGuard("delete Post p1")
        }
        #expect(try guardOf("dev") == .open)
        #expect(try guardOf("prod") == .confirm(
            question: "delete Post p1 in the protected environment 'prod'?", refusal: "environment 'prod' is protected"))
        #expect(try guardOf("audit") == .refused(
            "environment 'audit' is read-only (/c:9); refusing to delete Post p1: nothing was sent"))
    }

    @Test func eventsFromArgumentsThenLinesAreCheckedAsOneList() throws {
        let texts = try EventsPublishOperation.texts([.number(JSONNumber(1))], lines: "{\"a\":1}\n\n\"b\"\n", source: "e.ndjson")
        #expect(texts == ["1", "{\"a\":1}", "\"b\""])
        #expect(try EventsPublishOperation.texts([.string("x")], lines: nil, source: "") == ["\"x\""])
        func problem(_ lines: String) -> String? {
            do {
                _ = try EventsPublishOperation.texts([.null], lines: lines, source: "e.ndjson")
                return nil
            } catch {
                return error.description
            }
        }
        #expect((problem("1\n{") ?? "").hasPrefix("e.ndjson:2:"))
        #expect(problem("\n") == "e.ndjson: no events in it (one JSON value per line)")
        let large = "\"" + String(repeating: "a", count: 300_000) + "\""
        #expect(problem(large) == EventsError.eventTooLarge(index: 1, bytes: large.utf8.count).description)
    }
}
