import Glibc
import Testing

@testable import GQLCore

/// The precedence of settings (a given value, then its variable, then the named environment), the named environment
/// loaded and its provenance, and the endpoint check that settings share.
@Suite struct SettingSourcesTests {
    static let configText = """
        [env prod]
        schema = prod/amplify_outputs.json
        endpoint = https://prod.example.com/graphql
        iam = true
        header = X-Tenant: north
        cacert = ~/ca.pem
        """

    func selected(_ text: String = configText) throws -> SelectedEnvironment {
        let config = try EnvironmentConfig.parse(text, path: "/home/ann/.config/gqlc/config")
        return SelectedEnvironment(
            environment: try config.environment(named: "prod"), config: config, home: "/home/ann", selectedBy: .commandLine)
    }

    @Test func aGivenValueBeatsItsVariableWhichBeatsTheNamedEnvironment() throws {
        let named = try selected()
        let variables = ["GQLC_ENDPOINT": "http://127.0.0.1:4000/graphql"]
        let sources = SettingSources(variables: variables, selected: named)
        let endpoint = SettingSource(given: nil, variable: "GQLC_ENDPOINT", key: .endpoint)

        var given = endpoint
        given.given = "https://cli.example.com/graphql"
        #expect(sources.text(given) == Setting(value: "https://cli.example.com/graphql", origin: .commandLine))
        #expect(sources.text(endpoint) == Setting(value: "http://127.0.0.1:4000/graphql", origin: .environment("GQLC_ENDPOINT")))
        let withoutVariable = SettingSources(variables: [:], selected: named)
        #expect(withoutVariable.text(endpoint) == Setting(
            value: "https://prod.example.com/graphql",
            origin: .named(environment: "prod", path: "/home/ann/.config/gqlc/config", line: 3)))
        #expect(SettingSources(variables: [:], selected: nil).text(endpoint) == nil)
        // A setting the environment has no key for is not taken from it.
        #expect(withoutVariable.text(SettingSource(given: nil, variable: nil, key: nil)) == nil)
    }

    @Test func theNamedEnvironmentsPathsAreReadFromTheConfigFilesFolderOrHome() throws {
        let sources = SettingSources(variables: [:], selected: try selected())
        #expect(sources.text(SettingSource(given: nil, variable: nil, key: .schema))?.value
            == "/home/ann/.config/gqlc/prod/amplify_outputs.json")
        #expect(sources.text(SettingSource(given: nil, variable: nil, key: .cacert))?.value == "/home/ann/ca.pem")
    }

    @Test func aSwitchIsOnWhenGivenOrByTheWordsOfYes() throws {
        let iam = SettingSource(given: nil, variable: "GQLC_IAM", key: .iam)
        let plain = SettingSources(variables: [:], selected: nil)
        #expect(try plain.flag(given: true, iam) == Setting(value: true, origin: .commandLine))
        #expect(try plain.flag(given: false, iam) == nil)
        for word in ["1", "true", "YES"] {
            #expect(try SettingSources(variables: ["GQLC_IAM": word], selected: nil).flag(given: false, iam)?.origin
                == .environment("GQLC_IAM"))
        }
        // The variable's no wins over the environment's true.
        #expect(try SettingSources(variables: ["GQLC_IAM": "no"], selected: try selected()).flag(given: false, iam) == nil)
        #expect(try SettingSources(variables: [:], selected: try selected()).flag(given: false, iam)?.origin
            == .named(environment: "prod", path: "/home/ann/.config/gqlc/config", line: 4))
        #expect(throws: SettingError.invalidSwitch(variable: "GQLC_IAM", value: "maybe")) {
            try SettingSources(variables: ["GQLC_IAM": "maybe"], selected: nil).flag(given: false, iam)
        }
        #expect(SettingError.invalidSwitch(variable: "GQLC_IAM", value: "maybe").description
            == "invalid value 'maybe' for $GQLC_IAM: expected 1, true, yes, 0, false or no")
    }

    @Test func theNamedHeadersAreParsedAndABadOneNamesItsLine() throws {
        #expect(try SettingSources(variables: [:], selected: try selected()).namedHeaders()
            == [HTTPHeader(name: "X-Tenant", value: "north")])
        let bad = try selected("[env prod]\nheader = no colon here\n")
        #expect(throws: EnvironmentError.invalidValue(
            path: "/home/ann/.config/gqlc/config", line: 2, environment: "prod", key: "header", reason: "expected 'Name: value'")
        ) {
            try SettingSources(variables: [:], selected: bad).namedHeaders()
        }
    }

    @Test func provenanceSaysWhatOverridesEachSetting() throws {
        let sources = SettingSources(variables: ["GQLC_ENDPOINT": "http://x/graphql"], selected: try selected())
        let provenance = sources.provenance { key in
            switch key {
            case .schema: SettingSource(given: "cli.json", variable: "GQLC_SCHEMA", key: key)
            case .endpoint: SettingSource(given: nil, variable: "GQLC_ENDPOINT", key: key)
            case .iam: SettingSource(given: nil, variable: "GQLC_IAM", key: key)
            default: nil
            }
        }
        #expect(provenance.map(\.setting.key) == [.schema, .endpoint, .iam, .header, .cacert])
        #expect(provenance.map(\.overriddenBy) == [.commandLine, .environment("GQLC_ENDPOINT"), nil, nil, nil])
        #expect(SettingSources(variables: [:], selected: nil).provenance { _ in nil }.isEmpty)
    }

    @Test func loadingPicksTheEnvironmentFromTheConfigFileTheVariablesName() throws {
        let name = Setting(value: "prod", origin: .environment("GQLC_ENV"))
        let missing = "/nonexistent-gqlc-test/config"
        #expect(throws: EnvironmentError.unknown(name: "prod", path: missing, known: [], fileExists: false)) {
            try SelectedEnvironment.load(name, environment: ["GQLC_CONFIG": missing])
        }
    }

    @Test func aLoadedEnvironmentKeepsHowItWasChosenAndTheHomeFolder() throws {
        let directory = "/tmp/gqlc-setting-sources-\(getpid())"
        _ = mkdir(directory, 0o700)
        defer { _ = unlink(directory + "/config"); _ = rmdir(directory) }
        try FileWriter.write(Array(Self.configText.utf8), to: directory + "/config", mode: 0o600)
        let loaded = try SelectedEnvironment.load(
            Setting(value: "prod", origin: .environment("GQLC_ENV")), environment: ["GQLC_CONFIG": directory + "/config", "HOME": "/h"])
        #expect(loaded.name == "prod" && loaded.path == directory + "/config" && loaded.home == "/h")
        #expect(loaded.selectedBy == .environment("GQLC_ENV"))
        #expect(loaded.resolvedPath("~/ca.pem") == "/h/ca.pem")
    }

    @Test func anEndpointSettingIsAnHTTPURLOrSaysWhatWasMeant() throws {
        #expect(try EndpointURL.setting("https://api.example.com/graphql").host == "api.example.com")
        #expect(throws: EndpointSettingProblem(reason: nil, guess: "http://localhost:20011/graphql")) {
            try EndpointURL.setting("localhost:20011/graphql")
        }
        #expect(throws: EndpointSettingProblem(reason: nil, guess: "https://api.example.com/graphql")) {
            try EndpointURL.setting("api.example.com/graphql")
        }
        #expect(throws: EndpointSettingProblem(reason: nil, guess: nil)) { try EndpointURL.setting("ftp://example.com/") }
        #expect(throws: EndpointSettingProblem(reason: .space, guess: nil)) { try EndpointURL.setting("https://a b/") }
        #expect(EndpointSettingProblem(reason: nil, guess: "http://localhost:1/").description
            == "expected an http:// or https:// URL; did you mean 'http://localhost:1/'?")
        #expect(EndpointSettingProblem(reason: .space, guess: nil).description
            == "it contains a space; write it as %20; expected an http:// or https:// URL")
    }

    @Test func anAddedPathIsStoredAbsoluteUnlessItIsUnderHome() {
        #expect(EnvironmentConfig.storedPath("prod/outputs.json", from: "/src/shop") == "/src/shop/prod/outputs.json")
        #expect(EnvironmentConfig.storedPath("./outputs.json", from: "/src/shop") == "/src/shop/outputs.json")
        #expect(EnvironmentConfig.storedPath("~/outputs.json", from: "/src/shop") == "~/outputs.json")
        #expect(EnvironmentConfig.storedPath("/etc/outputs.json", from: "/src/shop") == "/etc/outputs.json")
        #expect(EnvironmentConfig.storedPath("outputs.json", from: nil) == "outputs.json")
    }
}
