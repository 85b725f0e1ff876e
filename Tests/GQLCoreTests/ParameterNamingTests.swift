import Testing

@testable import GQLCore

/// The core says its whole sentences; a front end only supplies the names of parameters, of the variables that give
/// them and of the remedies (``ParameterizedMessage/message(naming:variable:remedy:)``).
@Suite struct ParameterNamingTests {
    /// A front end's names, marked so that a test sees which hook named what.
    static func name(_ parameter: Parameter) -> String { "<\(parameter.label)>" }
    static func variable(_ parameter: Parameter) -> String? { parameter == .endpoint || parameter == .userPoolId || parameter == .clientId ? "V_\(parameter)" : nil }
    static func remedy(_ remedy: Remedy) -> String { "[\(remedy.label)]" }

    static func named(_ error: some ParameterizedMessage) -> String {
        error.message(naming: name, variable: variable, remedy: remedy)
    }

    @Test func contextErrorsSayTheWholeSentenceInTheCoreWords() {
        #expect(ContextError.noEndpoint(.schemaFile("s.json")).description
            == "no endpoint: looked in endpoint and s.json (it has no endpoint); give the endpoint")
        #expect(ContextError.apiKeyMissing.description == "auth mode apiKey needs an API key: give the API key")
        #expect(ContextError.iamOnly(.region).description
            == "region applies to IAM (SigV4) auth only, which this request does not use; add IAM setting, or leave out region")
        #expect(ContextError.noUserPool(missingPoolId: false, file: "o.json").description
            == "no Cognito app client id: o.json has no auth.user_pool_client_id; pass user pool id and app client id")
        #expect(ContextError.noModels(file: "o.json", format: "outputs").description.hasSuffix(
            "; pass schema file with a model schema, or run a schema pull"))
    }

    @Test func contextErrorsNameParametersVariablesAndRemediesThroughTheHooks() {
        #expect(Self.named(ContextError.noEndpoint(.noSchemaFound(directory: "/w")))
            == "no endpoint: looked in <endpoint>, $V_endpoint and amplify_outputs.json (none in /w); [give the endpoint]")
        #expect(Self.named(ContextError.noUserPool(missingPoolId: true, file: nil))
            == "no Cognito user pool id: no schema file was found; pass <user pool id> and <app client id> (or set V_userPoolId "
            + "and V_clientId)")
        #expect(Self.named(ContextError.unreadableCAFile(path: "ca.pem", origin: .commandLine, reason: "no such file"))
            == "cannot read the CA certificates file 'ca.pem' from '<CA file>': no such file")
        #expect(Self.named(ContextError.authModeUnused(.apiKey, .authToken)) == "<auth mode> apiKey does not use <auth token>; leave out one of them")
        #expect(Self.named(ContextError.noSchemaFile(directory: "/w")).hasSuffix(
            "or run [a schema pull from the endpoint]"))
        #expect(Self.named(ContextError.damagedCache(SchemaError(file: "c.json", location: "1:1", message: "bad")))
            == "c.json: 1:1: bad; run [a schema pull] again to replace this cached schema")
        // A front end without variables is asked for none.
        #expect(ContextError.noEndpoint(.schemaNotFound("s.json")).message(naming: Self.name, remedy: Self.remedy)
            == "no endpoint: looked in <endpoint> and s.json (not found); [give the endpoint]")
    }

    @Test func contextNotesNameTheSettingAndTheCommand() {
        let note = { (note: ContextNote) in note.message(naming: Self.name, remedy: Self.remedy) }
        #expect(note(.schemaFile("a.json", .setting(.commandLine))) == "schema: a.json (<schema file>)")
        #expect(note(.schemaFile("a.json", .setting(.environment("SCHEMA")))) == "schema: a.json ($SCHEMA)")
        #expect(note(.authMode(.iam, .setting(.commandLine))) == "auth mode: iam ('<auth mode>')")
        #expect(note(.cachedSchema(path: "c.json", endpoint: "https://x/graphql"))
            == "schema: c.json (pulled from https://x/graphql by [a schema pull])")
    }

    @Test func operationEventsThatNameAnOptionSayItThroughTheHooks() {
        let message = { (event: OperationEvent) in event.message(naming: Self.name, remedy: Self.remedy) }
        #expect(message(.versionNotReceived(described: "Post 'p1'")) == "the server sent no _version for Post 'p1'; [give the expected version]")
        #expect(message(.syncIncomplete) == "the sync stopped before its end; run it again with the same <sync start>")
        #expect(message(.deletedRecordHidden("Post 'p1' was deleted")) == "Post 'p1' was deleted; <deleted records setting> prints it")
        #expect(message(.conditionFalse(described: "Post 'p1'")) == "the <condition> condition is false for Post 'p1'")
        #expect(message(.recordsLeftPointing(model: "Blog", association: "posts", relatedModel: "Post", key: ["id": "b1"]))
            == "warning: Post records (Blog.posts) are left pointing at the deleted Blog id=b1; <cascade setting> deletes them with it")
        #expect(message(.decodePathNotFound(["a", "b"], DecodePathError(path: ["a", "b"], failedAt: 1, found: "null")))?
            .hasPrefix("<decode path> 'a.b': ") == true)
        // In the core's own words.
        #expect(OperationEvent.resumePointRefused.message?.hasPrefix("hint: the server refused the first page at resume token;") == true)
        #expect(OperationEvent.versionNotReceived(described: "Post 'p1'").message
            == "the server sent no _version for Post 'p1'; give the expected version")
    }

    @Test func documentVariablesAndRecordColumnsNameTheirOptions() {
        #expect(Self.named(RawVariablesError.notAnObject(found: "an array"))
            == "<variables file>: expected a JSON object of variables, found an array")
        #expect(Self.named(RawRequestError.variable(.missing(name: "id", type: .nonNull(.named("ID")), operation: "Q")))
            == "variable '$id' of type ID! is required by operation 'Q' but has no value; give it with <variable> id=VALUE or in "
            + "<variables file>")
        #expect(Self.named(RawRequestError.variable(.undeclared(name: "x", suggestion: nil, operation: nil)))
            == "variable 'x' is not declared by the operation")
        #expect("\(RecordColumnsError.rawNeedsOneField)" == "'output format raw' prints one field per line; name it with fields FIELD")
        #expect(Self.named(RecordColumnsError.notRecords(operation: "shout", type: "String", format: .tsv))
            == "'<output format> tsv' prints records; shout returns String: use <output format> raw or json")
        #expect(FilterBuilder.contradictionWarning(["a=1", "a=2"], option: "-w", naming: Self.name)
            == "warning: -w 'a=1' and 'a=2' are AND-ed, and no record has both values; to match either, give <filter object> "
            + "'{\"or\": [...]}'")
    }

    @Test func anIncludedListFailureSaysWhyInOneLine() {
        #expect("\(IncludedListFailure.errors([]))" == "unknown error")
        #expect("\(IncludedListFailure.other("boom"))" == "boom")
        #expect(IncludedListFailure.request(.transport(.timeout(seconds: 30), attempts: 1)).message(naming: Self.name, remedy: Self.remedy)
            .contains("<timeout>"))
    }

    /// Every parameter and remedy has words of its own in the core.
    @Test func everyParameterAndRemedyHasALabel() {
        for parameter in Parameter.allCases where parameter != .fieldValue {
            #expect(!parameter.label.isEmpty, "\(parameter)")
        }
        for remedy in Remedy.allCases { #expect(!remedy.label.isEmpty, "\(remedy)") }
        #expect(Remedy.allCases.contains(.give(.endpoint)) && Remedy.allCases.contains(.schemaPull(from: .endpoint)))
    }
}
