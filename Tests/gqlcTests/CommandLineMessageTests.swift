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
