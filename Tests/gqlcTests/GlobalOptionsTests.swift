import Foundation
import Testing
import GQLCore

@testable import gqlc

@Suite struct GlobalOptionsTests {
    func globals(_ arguments: [String], environment: [String: String] = [:]) throws -> GlobalOptions {
        try invocation(arguments, environment: environment).globals
    }

    @Test func defaults() throws {
        let options = try globals(["models"])
        #expect(options.context.schema == Setting(value: GlobalOptions.defaultSchemaPath, origin: .default))
        #expect(options.context.endpoint == nil)
        #expect(options.context.apiKey == nil)
        #expect(options.context.authToken == nil)
        #expect(options.context.headers.isEmpty)
        #expect(options.context.timeout == 30)
        #expect(options.context.retries == 3)
        #expect(!options.retryMutations && !options.dryRun && !options.verbose && !options.rawResponse)
        #expect(options.output == .json)
        #expect(options.layout == .automatic)
    }

    @Test func everyOptionOnTheCommandLine() throws {
        let options = try globals([
            "--schema", "blog.json", "--endpoint", "https://api.example.com/graphql", "--api-key", "da2-key",
            "--auth-token", "tok", "-H", "X-A: 1", "--header=X-B: 2", "--timeout", "2.5", "--retries", "0",
            "--retry-mutations", "--dry-run", "-v", "--output", "ndjson", "--compact", "--raw-response", "models",
        ])
        #expect(options.context.schema == Setting(value: "blog.json", origin: .commandLine))
        #expect(options.context.endpoint?.value.absoluteString == "https://api.example.com/graphql")
        #expect(options.context.apiKey == Setting(value: Secret(value: "da2-key"), origin: .commandLine))
        #expect(options.context.authToken?.value.value == "tok")
        #expect(options.context.headers == [HTTPHeader(name: "X-A", value: "1"), HTTPHeader(name: "X-B", value: "2")])
        #expect(options.context.timeout == 2.5)
        #expect(options.context.retries == 0)
        #expect(options.retryMutations && options.dryRun && options.verbose && options.rawResponse)
        #expect(options.output == .ndjson)
        #expect(options.layout == .compact)
    }

    @Test func globalsMayComeBeforeOrAfterTheCommand() throws {
        let before = try invocation(["--dry-run", "-v", "--timeout", "5", "-H", "X: y", "get", "Post", "--id", "p1"])
        let after = try invocation(["get", "Post", "--dry-run", "--id", "p1", "-v", "--timeout=5", "-H", "X: y"])
        let between = try invocation(["get", "--timeout", "5", "Post", "-v", "--id", "p1", "-H", "X: y", "--dry-run"])
        #expect(before == after)
        #expect(before == between)
        #expect(before.globals.dryRun && before.globals.verbose && before.globals.context.timeout == 5)
    }

    @Test func environmentFillsInWhatTheCommandLineLeavesOut() throws {
        let environment = [
            "GQLC_SCHEMA": "env.json", "GQLC_ENDPOINT": "http://127.0.0.1:4000/graphql",
            "GQLC_API_KEY": "env-key", "GQLC_AUTH_TOKEN": "env-token",
        ]
        let fromEnvironment = try globals(["models"], environment: environment)
        #expect(fromEnvironment.context.schema == Setting(value: "env.json", origin: .environment("GQLC_SCHEMA")))
        #expect(fromEnvironment.context.endpoint?.origin == .environment("GQLC_ENDPOINT"))
        #expect(fromEnvironment.context.apiKey == Setting(value: Secret(value: "env-key"), origin: .environment("GQLC_API_KEY")))
        #expect(fromEnvironment.context.authToken?.value.value == "env-token")

        let overridden = try globals(["models", "--schema", "cli.json", "--api-key", "cli-key"], environment: environment)
        #expect(overridden.context.schema == Setting(value: "cli.json", origin: .commandLine))
        #expect(overridden.context.apiKey?.value.value == "cli-key")
        #expect(overridden.context.authToken?.value.value == "env-token")
    }

    /// The options decode straight into the core's settings: the token used, the user pool's variables (the rest of
    /// the Cognito variables say where tokens are stored), and conflict detection with the words `models` shows.
    @Test func optionsDecodeIntoTheCoresSettings() throws {
        let environment = [
            "GQLC_USER_POOL_ID": "eu-west-1_pool", "GQLC_CLIENT_ID": "client1", "GQLC_CONFLICT_DETECTION": "automerge",
            "HOME": "/home/me", "XDG_CONFIG_HOME": "", "AWS_REGION": "eu-west-1",
        ]
        let fromEnvironment = try globals(["models"], environment: environment).context
        #expect(fromEnvironment.userPool == UserPoolOverrides(poolId: "eu-west-1_pool", clientId: "client1"))
        #expect(fromEnvironment.tokenStoreEnvironment == ["HOME": "/home/me"])
        #expect(fromEnvironment.awsEnvironment == ["HOME": "/home/me", "AWS_REGION": "eu-west-1"])
        #expect(fromEnvironment.conflictDetection == ConflictDetectionOverride(.automerge, source: "$GQLC_CONFLICT_DETECTION"))
        #expect(!fromEnvironment.sendsIDToken)

        let given = try globals(["models", "--token-use", "id", "--conflict-detection", "off"], environment: environment).context
        #expect(given.sendsIDToken)
        #expect(given.conflictDetection == ConflictDetectionOverride(.off, source: "--conflict-detection off"))
    }

    /// The front end drops every empty `GQLC_*` variable before anything reads one; other variables are kept.
    @Test func emptyEnvironmentVariablesCountAsUnset() throws {
        let environment = [
            "GQLC_SCHEMA": "", "GQLC_API_KEY": "", "CURL_CA_BUNDLE": "", "GQLC_ENDPOINT": "https://x/graphql", "HOME": "",
        ]
        let frontend = Frontend(environment: environment, console: .standard(), runner: RecordingRunner())
        #expect(frontend.environment == ["GQLC_ENDPOINT": "https://x/graphql", "HOME": ""])
        let options = try globals(["models"], environment: frontend.environment)
        #expect(options.context.schema.origin == .default)
        #expect(options.context.apiKey == nil)
    }

    @Test func prettyAndCompact() throws {
        #expect(try globals(["--pretty", "models"]).layout == .pretty)
        #expect(try globals(["models", "--compact"]).layout == .compact)
    }

    @Test(arguments: [
        (["--pretty", "--compact", "models"], "gqlc: options '--pretty' and '--compact' cannot be used together"),
        (["--output", "ndjson", "--pretty", "models"], "gqlc: option '--pretty' applies to '--output json' only, not '--output ndjson'"),
        (["--output", "xml", "models"], "gqlc: invalid value 'xml' for '--output': expected json, ndjson, table, tsv or raw"),
        (["--timeout", "0", "models"], "gqlc: invalid value '0' for '--timeout': expected a number of seconds greater than 0, such as 30 or 2.5"),
        (["--timeout", "abc", "models"], "gqlc: invalid value 'abc' for '--timeout': expected a number of seconds greater than 0, such as 30 or 2.5"),
        (["--retries", "-1", "models"], "gqlc: invalid value '-1' for '--retries': expected a whole number of 0 or more"),
        (["--retries", "x", "models"], "gqlc: invalid value 'x' for '--retries': expected a whole number of 0 or more"),
        (["--dry-run=yes", "models"], "gqlc: option '--dry-run' takes no value (got '--dry-run=yes')"),
        (["--endpoint", "example.com", "models"],
         "gqlc: invalid endpoint 'example.com' from '--endpoint': expected an http:// or https:// URL; did you mean 'https://example.com'?"),
        (["--endpoint", "https://me:hunter2@example.com/graphql", "models"],
         "gqlc: invalid endpoint 'https://***@example.com/graphql' from '--endpoint': credentials in the URL (user@ or "
            + "user:password@) are not supported; send them in a header; expected an http:// or https:// URL"),
        (["--endpoint", "http://[::1:8080/graphql", "models"],
         "gqlc: invalid endpoint 'http://[::1:8080/graphql' from '--endpoint': '[::1:8080' is not an IPv6 address in "
            + "brackets, such as [::1]; expected an http:// or https:// URL"),
        (["--endpoint", "https://example.com:99999/graphql", "models"],
         "gqlc: invalid endpoint 'https://example.com:99999/graphql' from '--endpoint': the port '99999' is not a number "
            + "from 1 to 65535; expected an http:// or https:// URL"),
        (["-H", "NoColon", "models"], "gqlc: malformed header '████': expected 'Name: value', e.g. 'x-trace-id: 42'"),
        (["--schema"], "gqlc: option '--schema' needs a value (--schema FILE)"),
        (["--schem", "x", "models"], "gqlc: unknown option '--schem'; did you mean '--schema'?"),
        (["models", "--verbos"], "gqlc: unknown option '--verbos'; did you mean '--verbose'?"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(usageError(arguments) == message)
    }

    @Test func badEndpointFromTheEnvironmentNamesTheVariable() {
        #expect(
            usageError(["models"], environment: ["GQLC_ENDPOINT": "ftp://x"])
                == "gqlc: invalid endpoint 'ftp://x' from $GQLC_ENDPOINT: expected an http:// or https:// URL")
    }

    @Test func helpOptionListsEveryGlobalOnce() {
        let names = GlobalOptions.all.map(\.long)
        #expect(Set(names).count == names.count)
        for command in CommandTable.specs {
            let clashes = command.options.filter { option in
                GlobalOptions.all.contains { $0.long == option.long || ($0.short != nil && $0.short == option.short) }
            }
            #expect(clashes.isEmpty, "\(command.name) redeclares \(clashes.map(\.long))")
        }
    }
}
