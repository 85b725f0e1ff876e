import Foundation
import Testing

@testable import GQLCore

/// The config file of named environments: parsing, editing that keeps the rest of the file, paths and redaction.
@Suite struct EnvironmentConfigTests {
    let text = """
        # shop environments
        [env dev]
        schema = ~/src/shop/amplify_outputs.json
        api_key = da2-abcdefghijklmnop

        ; production asks first
        [env prod]
        schema = prod/amplify_outputs.json
        profile = prod-admin
        header = Authorization: token-value-123456
        header = X-Tenant: north
        protected = yes
        """

    @Test func parsesSectionsSettingsAndLines() throws {
        let config = try EnvironmentConfig.parse(text, path: "/etc/gqlc/config")
        #expect(config.names == ["dev", "prod"])
        let prod = try config.environment(named: "prod")
        #expect(prod.line == 7)
        #expect(prod.setting(.profile) == EnvironmentSetting(key: .profile, value: "prod-admin", line: 9))
        #expect(prod.values(.header).map(\.value) == ["Authorization: token-value-123456", "X-Tenant: north"])
        #expect(prod.isProtected && !prod.isReadOnly && prod.holdsSecret)
        #expect(try config.environment(named: "dev").holdsSecret)
    }

    @Test func unknownNamesSuggestTheClosest() throws {
        let config = try EnvironmentConfig.parse(text, path: "/c")
        #expect(throws: EnvironmentError.unknown(name: "prd", path: "/c", known: ["dev", "prod"], fileExists: true)) {
            try config.environment(named: "prd")
        }
        #expect(EnvironmentError.unknown(name: "prd", path: "/c", known: ["dev", "prod"], fileExists: true).description
            == "unknown environment 'prd' (did you mean 'prod'?); /c defines dev, prod")
    }

    @Test func pathsResolveFromHomeOrTheFilesFolder() throws {
        let config = try EnvironmentConfig.parse(text, path: "/etc/gqlc/config")
        #expect(config.resolvedPath("~/a.json", home: "/home/u") == "/home/u/a.json")
        #expect(config.resolvedPath("prod/a.json", home: "/home/u") == "/etc/gqlc/prod/a.json")
        #expect(config.resolvedPath("/abs.json", home: "/home/u") == "/abs.json")
    }

    @Test func secretsAreMaskedWhenShown() {
        #expect(EnvironmentSetting(key: .apiKey, value: "da2-abcdefghijklmnop", line: 1).shownValue == "da2-…████")
        #expect(EnvironmentSetting(key: .header, value: "Authorization: token-value-123456", line: 1).shownValue
            == "Authorization: toke…████")
        #expect(EnvironmentSetting(key: .header, value: "X-Tenant: north", line: 1).shownValue == "X-Tenant: north")
        #expect(!EnvironmentSetting(key: .header, value: "X-Tenant: north", line: 1).isSecret)
    }

    @Test func addingAndRemovingKeepTheRestOfTheFile() throws {
        let config = try EnvironmentConfig.parse(text, path: "/c")
        let added = try config.adding(NamedEnvironment(
            name: "stage", line: 0, settings: [EnvironmentSetting(key: .endpoint, value: "https://x/graphql", line: 0)]))
        #expect(added.lines.suffix(3) == ["", "[env stage]", "endpoint = https://x/graphql"])
        #expect(try added.environment(named: "stage").line == 14)
        let removed = try added.removing("dev")
        #expect(removed.names == ["prod", "stage"])
        // The comment above prod stays with it; dev's lines are gone.
        #expect(removed.lines.prefix(3) == ["# shop environments", "; production asks first", "[env prod]"])
        #expect(throws: EnvironmentError.self) { try config.adding(NamedEnvironment(name: "dev", line: 0, settings: [])) }
    }

    @Test func addingAndRemovingWriteTheFileAndSayWhatWasDone() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-env-\(UUID().uuidString)/config").path
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let empty = try EnvironmentConfig.load(path: path)
        #expect(!empty.exists)
        #expect(EnvironmentNote.noFile(path: path).description == "no environments: \(path) does not exist")
        let stage = NamedEnvironment(name: "stage", line: 0, settings: [EnvironmentSetting(key: .endpoint, value: "https://x/graphql", line: 0)])
        #expect(try empty.add(stage).description == "added environment 'stage' to \(path)")
        let written = try EnvironmentConfig.load(path: path)
        #expect(written.names == ["stage"])
        #expect(try written.remove("stage").description == "removed environment 'stage' from \(path)")
        #expect(try EnvironmentConfig.load(path: path).names.isEmpty)
    }

    @Test(arguments: [
        ("[env dev]\nschma = x", 2, "unknown setting 'schma'; did you mean 'schema'?"),
        ("schema = x", 1, "a setting before the first '[env NAME]' header"),
        ("[env dev]\nregion =", 2, "region has no value"),
        ("[env dev]\nregion = a\nregion = b", 3, "region is already set on line 2"),
        ("[env a b]", 1, "expected a section header '[env NAME]'"),
        ("[env dev", 1, "a section header needs a closing ']'"),
    ])
    func malformedLinesAreNamed(text: String, line: Int, reason: String) {
        do {
            _ = try EnvironmentConfig.parse(text, path: "/c")
            Issue.record("parsed: \(text)")
        } catch {
            guard case .malformed(_, let found, let message) = error else { Issue.record("\(error)"); return }
            #expect(found == line)
            #expect(message.hasPrefix(reason))
        }
    }
}
