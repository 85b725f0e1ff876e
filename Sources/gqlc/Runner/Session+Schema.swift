import GQLCore

/// Where the schema comes from: `--schema`/`GQLC_SCHEMA`; else the nearest `amplify_outputs.json` or Gen 1
/// `amplify/backend/api/<name>/schema.graphql` from the working directory up; a Gen 1 schema takes its endpoint
/// from the project's `aws-exports.js`, and a file without models (aws-exports.js, a native config) takes them
/// from the project's `@model` schema or, failing that, from the cache `gqlc schema pull` wrote for the endpoint.
extension Session {
    /// The schema file to read: the one `--schema` or `GQLC_SCHEMA` names, else the nearest one found from the
    /// working directory; nil when none is named or found.
    func schemaPath() throws(RunFailure) -> String? {
        if globals.schema.origin != .default { return globals.schema.value }
        let found = SchemaDiscovery.currentDirectory().map(SchemaDiscovery.findAll(from:)) ?? []
        if found.count > 1 {
            throw RunFailure.usage("several Gen 1 APIs: " + found.joined(separator: ", ") + "; pass --schema with the one to use")
        }
        return found.first
    }

    /// Reads the schema file, and names it under `--verbose`. When `required` is false (the commands that need no
    /// models: raw, login, schema), no file is not an error and the cache `schema pull` writes is not read, so that a
    /// damaged cache cannot stop `schema pull` from replacing it.
    func schemaFile(required: Bool) throws(RunFailure) -> SchemaFile? {
        guard let path = try schemaPath() else {
            if !required { return nil }
            if let cached = try cachedSchema(endpoint: globals.endpoint?.value.absoluteString) { return cached }
            throw RunFailure.usage(
                "no model schema: no \(SchemaDiscovery.defaultFileName) or \(SchemaDiscovery.gen1SchemaPattern) (or schema/) in "
                    + "\(directoryNote); pass --schema FILE or set GQLC_SCHEMA (model-introspection JSON, amplify_outputs.json, "
                    + "amplifyconfiguration.json, schema.graphql, a schema/ folder or aws-exports.js), or run gqlc schema pull --endpoint URL")
        }
        if globals.verbose {
            let how = switch globals.schema.origin {
            case .commandLine: "--schema"
            case .environment(let name): "$\(name)"
            case .named: globals.schema.origin.describe(GlobalOptions.schemaOption)
            case .default: path.hasSuffix(SchemaDiscovery.defaultFileName)
                ? "the nearest \(SchemaDiscovery.defaultFileName) from the working directory"
                : "the nearest Gen 1 @model schema from the working directory"
            }
            console.error.write("* schema: \(path) (\(how))\n")
        }
        var file = try load(path)
        if file.format == .transformerSDL, file.service == ServiceConfig(), let config = SchemaDiscovery.companionConfig(forSchema: path) {
            note("* config: \(config) (the project's aws-exports.js)")
            file.service = try load(config).service
        }
        return file
    }

    /// The model schema, which model commands need: the file's own, else the project's `@model` schema, else the
    /// endpoint's cached pull.
    func modelSchema(in file: SchemaFile?) throws(RunFailure) -> ModelSchema {
        let schema = try fileModelSchema(in: file)
        guard let setting = globals.conflictDetection else { return schema }
        let source = switch setting.origin {
        case .environment(let name): "$\(name)"
        default: "--conflict-detection \(setting.value.word)"
        }
        return setting.value.apply(to: schema, source: source)
    }

    private func fileModelSchema(in file: SchemaFile?) throws(RunFailure) -> ModelSchema {
        guard let file else { throw RunFailure.usage("no model schema") }
        if let schema = file.schema { return schema }
        let schemas = SchemaDiscovery.companionSchemas(forConfig: file.path)
        if schemas.count == 1 {
            note("* models: \(schemas[0]) (the project's @model schema)")
            if let schema = try load(schemas[0]).schema { return schema }
        }
        let endpoint = globals.endpoint?.value.absoluteString ?? file.service.endpoint
        if let cached = try cachedSchema(endpoint: endpoint)?.schema { return cached }
        throw RunFailure.usage(
            "\(file.path): this \(file.format.rawValue) file has no models, and no \(SchemaDiscovery.gen1SchemaPattern) "
                + "or pulled schema was found for it; pass --schema with a model schema, or run gqlc schema pull")
    }

    /// The schema `gqlc schema pull` cached for `endpoint`, if there is one.
    func cachedSchema(endpoint: String?) throws(RunFailure) -> SchemaFile? {
        guard let endpoint, let directory = globals.cacheDirectory else { return nil }
        let path = SchemaDiscovery.cachePath(endpoint: endpoint, cacheDirectory: directory)
        guard SchemaDiscovery.isRegularFile(path) else { return nil }
        note("* schema: \(path) (pulled from \(endpoint) by gqlc schema pull)")
        let notes = (try? FileReader.bytes(atPath: SchemaDiscovery.assumptionsPath(cachePath: path)))
            .map { String(decoding: $0, as: UTF8.self) } ?? ""
        if globals.verbose {
            for line in notes.split(separator: "\n") { note("* assumed: \(line)") }
        }
        var file: SchemaFile
        do {
            file = try SchemaLoader.load(path: path)
        } catch {
            // A cache written by an older gqlc, or cut short: say how to make it again.
            var damaged = error
            damaged.message += "; run gqlc schema pull again to replace this cached schema"
            throw .schema(damaged)
        }
        if file.service.endpoint == nil { file.service.endpoint = endpoint }
        file.schema?.leftOutOperations = IntrospectedModels.leftOutOperations(inAssumptions: notes)
        return file
    }

    private func load(_ path: String) throws(RunFailure) -> SchemaFile {
        do {
            return try SchemaLoader.load(path: path)
        } catch {
            throw .schema(error)
        }
    }

    private func note(_ line: String) {
        if globals.verbose { console.error.write(line + "\n") }
    }

    /// "the working directory or its parents", with the directory when it can be read.
    var directoryNote: String {
        SchemaDiscovery.currentDirectory().map { "\($0) or its parents" } ?? "the working directory or its parents"
    }
}
