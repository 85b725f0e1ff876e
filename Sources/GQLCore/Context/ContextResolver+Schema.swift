/// Where the schema comes from: the schema setting; else the nearest `amplify_outputs.json` or Gen 1
/// `amplify/backend/api/<name>/schema.graphql` from the working directory up; a Gen 1 schema takes its endpoint
/// from the project's `aws-exports.js`, and a file without models (aws-exports.js, a native config) takes them
/// from the project's `@model` schema or, failing that, from the cache a schema pull wrote for the endpoint.
extension ContextResolver {
    /// The schema file to read: the one the settings name, else the nearest one found from the working directory;
    /// nil when none is named or found.
    public func schemaPath() throws(ContextError) -> String? {
        if settings.schema.origin != .default { return settings.schema.value }
        let found = SchemaDiscovery.currentDirectory().map(SchemaDiscovery.findAll(from:)) ?? []
        if found.count > 1 { throw .severalGen1APIs(found) }
        return found.first
    }

    /// Reads the schema file, and notes it. When `required` is false (requests that need no models), no file is not
    /// an error and the cached pull is not read, so that a damaged cache cannot stop a pull from replacing it.
    public func schemaFile(required: Bool) throws(ContextError) -> SchemaFile? {
        guard let path = try schemaPath() else {
            if !required { return nil }
            if let cached = try cachedSchema(endpoint: settings.endpoint?.value.absoluteString) { return cached }
            throw .noSchemaFile(directory: Self.directoryNote)
        }
        if notes != nil {
            let source: ContextNote.SchemaSource = switch settings.schema.origin {
            case .default: path.hasSuffix(SchemaDiscovery.defaultFileName) ? .nearestOutputs : .nearestGen1Schema
            default: .setting(settings.schema.origin)
            }
            note(.schemaFile(path, source))
        }
        var file = try load(path)
        if file.format == .transformerSDL, file.service == ServiceConfig(), let config = SchemaDiscovery.companionConfig(forSchema: path) {
            note(.companionConfig(config))
            file.service = try load(config).service
        }
        return file
    }

    /// The schema file (which must be found) and its model schema: what model requests are built from.
    public func models() throws(ContextError) -> (file: SchemaFile?, schema: ModelSchema) {
        let file = try schemaFile(required: true)
        return (file, try modelSchema(in: file))
    }

    /// The model schema, which model requests need: the file's own, else the project's `@model` schema, else the
    /// endpoint's cached pull; with the conflict-detection setting applied.
    public func modelSchema(in file: SchemaFile?) throws(ContextError) -> ModelSchema {
        let schema = try fileModelSchema(in: file)
        guard let override = settings.conflictDetection else { return schema }
        return override.setting.apply(to: schema, source: override.source)
    }

    private func fileModelSchema(in file: SchemaFile?) throws(ContextError) -> ModelSchema {
        guard let file else { throw .noModelSchema }
        if let schema = file.schema { return schema }
        let schemas = SchemaDiscovery.companionSchemas(forConfig: file.path)
        if schemas.count == 1 {
            note(.companionModels(schemas[0]))
            if let schema = try load(schemas[0]).schema { return schema }
        }
        let endpoint = settings.endpoint?.value.absoluteString ?? file.service.endpoint
        if let cached = try cachedSchema(endpoint: endpoint)?.schema { return cached }
        throw .noModels(file: file.path, format: file.format.rawValue)
    }

    /// The schema a pull cached for `endpoint`, if there is one.
    public func cachedSchema(endpoint: String?) throws(ContextError) -> SchemaFile? {
        guard let endpoint, let directory = settings.cacheDirectory else { return nil }
        let path = SchemaDiscovery.cachePath(endpoint: endpoint, cacheDirectory: directory)
        guard SchemaDiscovery.isRegularFile(path) else { return nil }
        note(.cachedSchema(path: path, endpoint: endpoint))
        let assumptions = (try? FileReader.bytes(atPath: SchemaDiscovery.assumptionsPath(cachePath: path)))
            .map { String(decoding: $0, as: UTF8.self) } ?? ""
        if notes != nil {
            for line in assumptions.split(separator: "\n") { note(.assumed(String(line))) }
        }
        var file: SchemaFile
        do {
            file = try SchemaLoader.load(path: path)
        } catch {
            // A cache written by an older version, or cut short: it should be pulled again.
            throw .damagedCache(error)
        }
        if file.service.endpoint == nil { file.service.endpoint = endpoint }
        file.schema?.leftOutOperations = IntrospectedModels.leftOutOperations(inAssumptions: assumptions)
        return file
    }

    private func load(_ path: String) throws(ContextError) -> SchemaFile {
        do {
            return try SchemaLoader.load(path: path)
        } catch {
            throw .schema(error)
        }
    }
}
