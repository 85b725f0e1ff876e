import GQLCore
import Testing

@testable import gqlc

/// The core names parameters in its own words; the executable names them by their flags.
@Suite struct CommandLineMessageTests {
    @Test func everyParameterButPositionalValuesHasAFlag() {
        for parameter in Parameter.allCases where parameter != .fieldValue {
            #expect(parameter.flagName.hasPrefix("--"), "\(parameter)")
        }
        #expect(Parameter.fieldValue.flagName == "")
    }

    /// Each remedy the core can give is carried out by a command of the table, which the executable names.
    @Test func everyRemedyNamesACommand() {
        let commands = Set(CommandTable.specs.map(\.name))
        for remedy in Remedy.allCases {
            #expect(!remedy.label.contains("gqlc"), "\(remedy): \(remedy.label)")
            if case .give(let parameter) = remedy {
                // How to give a parameter is said with its option spec: the flag, its value, its variable.
                #expect(remedy.commandLine.hasPrefix("pass \(parameter.flagName)"), "\(remedy): \(remedy.commandLine)")
                continue
            }
            let words = remedy.commandLine.split(separator: " ").map(String.init)
            let named = words.firstIndex(of: "gqlc").map { words.index(after: $0) }.map { words[$0] }
            #expect(named.map(commands.contains) == true, "\(remedy): \(remedy.commandLine)")
        }
    }

    /// The core's context sentences, with flags, values and variables taken from the option specs.
    @Test func contextMessagesNameTheOptionSpecs() {
        #expect(ContextError.noEndpoint(.schemaFile("s.json")).commandLineMessage
            == "no endpoint: looked in --endpoint, $GQLC_ENDPOINT and s.json (it has no endpoint); pass --endpoint URL or set GQLC_ENDPOINT")
        #expect(ContextError.noUserPool(missingPoolId: true, file: nil).commandLineMessage
            == "no Cognito user pool id: no schema file was found; pass --user-pool-id and --client-id (or set GQLC_USER_POOL_ID "
            + "and GQLC_CLIENT_ID)")
        #expect(ContextError.noSchemaFile(directory: "/w").commandLineMessage.hasSuffix("or run gqlc schema pull --endpoint URL"))
        #expect(ContextError.iamWithOtherAuth(iam: .environment("GQLC_IAM"), other: .apiKey, origin: .commandLine).commandLineMessage
            == "$GQLC_IAM and '--api-key' cannot be used together: IAM auth signs requests instead of sending an API key or token")
        #expect(Remedy.give(.expectedVersion).commandLine == "pass --expected-version N")
        #expect(Remedy.give(.caFile).commandLine == "pass --cacert FILE or set CURL_CA_BUNDLE")
        #expect(ContextNote.cachedSchema(path: "c.json", endpoint: "https://x").commandLineText
            == "* schema: c.json (pulled from https://x by gqlc schema pull)")
        #expect(ContextNote.schemaFile("s.json", .setting(.commandLine)).commandLineText == "* schema: s.json (--schema)")
        #expect(OperationEvent.syncIncomplete.message(naming: \.flagName, remedy: \.commandLine)
            == "the sync stopped before its end; run it again with the same --since")
    }

    /// The core says what is missing; the command line says which command fixes it, in the words it always used.
    @Test func coreRemediesAreNamedAsCommands() {
        #expect(CognitoError.notSignedIn.commandLineMessage == "not signed in to this user pool; run gqlc login")
        #expect(CognitoError.notSignedIn.description == "not signed in to this user pool; sign in")
        #expect(CognitoError.signInAgain("expired").commandLineMessage
            == "the stored sign-in can no longer be refreshed (expired); run gqlc login again")
        #expect(CognitoError.unrecognizedTokenFile(path: "t.json").commandLineMessage
            == "the token file t.json is not what gqlc writes; delete it and run gqlc login")
        #expect(EnvironmentError.unknown(name: "dev", path: "c", known: [], fileExists: false).commandLineMessage
            == "unknown environment 'dev': there is no config file c; add one with gqlc env add dev")
        #expect(EnvironmentError.alreadyDefined(name: "dev", path: "c", line: 3).commandLineMessage
            == "environment 'dev' is already defined at c:3; remove it first with gqlc env remove dev")
        var refused = HTTPStatusError(status: 401)
        refused.authorization = .userPool
        #expect(commandLineMessage(ExecutionError.httpStatus(refused)) == "HTTP 401 Unauthorized; the user-pool sign-in was not "
            + "accepted; run gqlc login again, and check that the API allows user-pool auth")
        #expect(!ExecutionError.httpStatus(refused).description.contains("gqlc"))
        let assumption = IntrospectedModels.Assumption(text: "Query.node is left out: why", remedy: .rawDocument)
        #expect(assumption.commandLineMessage == "Query.node is left out: why (gqlc raw can select it)")
        #expect(SchemaError(file: "s.graphql", location: "1:1", message: "use X, or", remedy: .pullSchema).commandLineMessage
            == "s.graphql: 1:1: use X, or gqlc schema pull")
    }

    /// Left-out operations are read back from the notes file whichever words wrote their remedy.
    @Test func leftOutOperationsAreReadInEitherWords() {
        let note = IntrospectedModels.Assumption(
            text: "the custom operation node is left out: its type Node is an interface", remedy: .rawDocument)
        for text in [note.commandLineMessage, note.description] {
            #expect(IntrospectedModels.leftOutOperations(inAssumptions: "x\n" + text + "\n") == ["node": "its type Node is an interface"])
        }
    }

    @Test func requestErrorsNameTheirFlags() {
        let unknown = RequestBuildError.unknownField("ratng", type: "Post", suggestion: "rating")
        #expect(RequestBuildError.argument(.filter, text: "ratng>3", error: unknown).commandLineMessage
            == "--where 'ratng>3': unknown field 'ratng' on Post; did you mean 'rating'?")
        #expect(RequestBuildError.argument(.filter, text: "ratng>3", error: unknown).description
            == "filter 'ratng>3': unknown field 'ratng' on Post; did you mean 'rating'?")
        #expect(RequestBuildError.argument(.condition, text: "a=1", error: .syntax("x")).commandLineMessage == "--if 'a=1': x")
        #expect(RequestBuildError.argument(.filterObject, text: nil, error: .notAnObject(found: "an array")).commandLineMessage
            == "--filter: expected a JSON object, found an array")
        #expect(RequestBuildError.argument(.fieldValue, text: "id=p2", error: .keyFieldAssigned("id", model: "Post")).commandLineMessage
            == "'id=p2': 'id' is part of Post's key; give it with --id or --key, not as a field value")
        #expect(RequestBuildError.argument(.id, text: "x", error: .keyRequired(model: "Item", keyFields: ["a", "b"])).commandLineMessage
            == "--id 'x': Item has a composite key; give --key FIELD=VALUE for each of a, b")
        #expect(RequestBuildError.keyRequired(model: "Post", keyFields: ["id"]).commandLineMessage == "Post needs its key: give --id VALUE")
        #expect(RequestBuildError.indexNeedsPartitionKey(queryField: "byPost", field: "postId").commandLineMessage
            == "--index byPost needs --where postId=VALUE")
        #expect(RequestBuildError.argument(.include, text: "title", error: .notARelationship(field: "title", model: "Post", associations: []))
            .commandLineMessage
            == "--include 'title': 'title' on Post is not a relationship; --include takes belongsTo, hasOne and hasMany fields; "
            + "Post has no associations")
    }

    @Test func networkAndSetupErrorsNameTheirFlags() {
        #expect(ExecutionError.transport(.timeout(seconds: 30), attempts: 2).commandLineMessage
            == "no response within 30 s; raise it with --timeout SECONDS (after 2 attempts)")
        #expect(HTTPStatusError(status: 429).commandLineMessage
            == "HTTP 429 Too Many Requests; the API is throttling requests; retry later or raise --retries")
        #expect(HTTPStatusError(status: 401).commandLineMessage
            == "HTTP 401 Unauthorized; check the API key or token (--api-key, --auth-token) and the API's auth mode")
        #expect(EndpointError.invalidTimeout(0).commandLineMessage == "invalid timeout 0.0: give a positive number of seconds, e.g. --timeout 30")
        #expect(AWSAuthError.missingRegion(looked: ["$AWS_REGION"]).commandLineMessage
            == "no AWS region for IAM auth: looked in --region and $AWS_REGION; pass --region REGION or set AWS_REGION")
        #expect(AWSAuthError.invalidRegion("eu west", source: nil).commandLineMessage
            == "invalid AWS region 'eu west' from --region: expected a region name such as eu-west-1")
        #expect(OperationSelectionError.ambiguous(names: ["A", "B"]).commandLineMessage
            == "the document has 2 operations (A, B); choose one with --operation-name")
        #expect(commandLineMessage(AWSAuthError.profileNotFound(profile: "p", path: "f", available: []))
            == "no profile 'p' in f (no profiles there); check --profile or $AWS_PROFILE")
    }
}

/// The exit codes are the executable's: the core says what kind of result it was.
@Suite struct ExitCodeTests {
    @Test func theDocumentedCodes() {
        #expect(ExitCode.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 130, 141, 143])
        #expect(ResultKind.allCases.map { ExitCode($0).rawValue } == [0, 1, 2, 3, 4, 5, 6, 130])
    }

    @Test func failuresMapToTheirCodes() {
        #expect(ExecutionError.transport(.network("x"), attempts: 1).exitStatus == .network)
        #expect(ExecutionError.transport(.timeout(seconds: 1), attempts: 4).exitStatus == .network)
        #expect(ExecutionError.transport(.invalidURL("x", detail: "y"), attempts: 1).exitStatus == .usage)
        #expect(ExecutionError.invalidResponse(.notGraphQL("x")).exitStatus == .httpError)
        #expect(ExecutionError.httpStatus(HTTPStatusError(status: 503)).exitStatus == .httpError)
        #expect(ExecutionError.cancelled.exitStatus == .interrupted)
        #expect(RequestOutcome.notFound.exitStatus == .notFound)
        #expect(RequestOutcome.partial(.null, []).exitStatus == .partial)
    }
}

/// A command's failure is one typed value: its line, its context and its exit code.
@Suite struct RunFailureTests {
    @Test func eachFailureHasItsLineAndCode() {
        #expect(RunFailure.includedListFailed("HTTP 500").message == "following an included list failed: HTTP 500")
        #expect(RunFailure.includedListFailed("HTTP 500").status == .partial)
        #expect(RunFailure.request(.keyRequired(model: "Post", keyFields: ["id"])).message == "Post needs its key: give --id VALUE")
        #expect(RunFailure.awsAuth(.invalidRegion("x", source: nil)).status == .usage)
        let report = RunFailure.report("q.graphql:1:3: unexpected '}'\n{ }\n  ^")
        #expect(report.message == "q.graphql:1:3: unexpected '}'" && report.context == ["{ }", "  ^"])
    }
}
