/// Which kind of file a schema came from.
public enum SchemaFileFormat: String, Sendable, Equatable {
    /// A standalone `model-introspection.json` (MIS v1).
    case modelIntrospection = "model introspection"
    /// Gen2 `amplify_outputs.json`.
    case amplifyOutputs = "amplify_outputs.json"
    /// Legacy `amplifyconfiguration.json` / aws-exports JSON.
    case legacyConfig = "legacy Amplify configuration"
    /// Gen1 native `amplifyconfiguration.json` (`api.plugins.awsAPIPlugin`): endpoint only.
    case nativeConfig = "Amplify native configuration"
    /// The transformer v2 input SDL (`amplify/backend/api/<name>/schema.graphql`): models only.
    case transformerSDL = "@model schema"
    /// Gen1 `aws-exports.js`: endpoint, region, auth type and API key only.
    case awsExports = "aws-exports.js"
}

/// The service settings a config file may carry.
public struct ServiceConfig: Sendable, Equatable {
    public var endpoint: String?
    public var apiKey: String?
    public var region: String?
    public var defaultAuthorizationType: String?
    /// The API's other authorization types (`data.authorization_types`, `aws_appsync_additionalAuthenticationTypes`).
    public var additionalAuthorizationTypes: [String] = []
    /// The Cognito user pool and its app client (`auth.user_pool_id`, `auth.user_pool_client_id`, or the legacy keys).
    public var userPoolId: String?
    public var userPoolClientId: String?
    /// An AppSync Events API the app uses (`custom.events`).
    public var events: EventsConfig?

    public init(endpoint: String? = nil, apiKey: String? = nil, region: String? = nil, defaultAuthorizationType: String? = nil) {
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.region = region
        self.defaultAuthorizationType = defaultAuthorizationType
    }

    /// Every configured mode, the default first.
    public var authModes: [AuthMode] {
        var modes: [AuthMode] = []
        for type in [defaultAuthorizationType].compactMap({ $0 }) + additionalAuthorizationTypes {
            if let mode = AuthMode(authorizationType: type), !modes.contains(mode) { modes.append(mode) }
        }
        return modes
    }
}

/// A loaded schema or config file.
public struct SchemaFile: Sendable, Equatable {
    /// The path as given.
    public var path: String
    public var format: SchemaFileFormat
    /// The model schema; nil when a config file holds none.
    public var schema: ModelSchema?
    public var service: ServiceConfig
}

/// Loads the three files Amplify users have: model introspection JSON, `amplify_outputs.json`,
/// and the legacy `amplifyconfiguration.json`.
///
/// ```swift
/// let file = try SchemaLoader.load(path: "amplify_outputs.json")
/// let post = file.schema?.models["Post"]
/// let endpoint = file.service.endpoint
/// ```
public enum SchemaLoader {
    /// Reads and decodes a file (or a pipe, FIFO or device: it is read once, to its end). A folder holding
    /// `.graphql` files is a split `@model` schema (Gen 1 `amplify/backend/api/<name>/schema/`).
    public static func load(path: String) throws(SchemaError) -> SchemaFile {
        if SplitSchemaReader.isDirectory(path), !SplitSchemaReader.files(in: path).isEmpty {
            let schema = try SplitSchemaReader.read(directory: path)
            return try withTransformConfig(SchemaFile(path: path, format: .transformerSDL, schema: schema, service: ServiceConfig()))
        }
        let bytes: [UInt8]
        do {
            bytes = try FileReader.bytes(atPath: path)
        } catch {
            throw SchemaError(file: path, location: "", message: error.reason)
        }
        return try withTransformConfig(try load(bytes: bytes, path: path))
    }

    /// A Gen 1 `@model` schema with the conflict detection its API's `transform.conf.json` configures.
    private static func withTransformConfig(_ file: SchemaFile) throws(SchemaError) -> SchemaFile {
        guard file.format == .transformerSDL, let schema = file.schema, let config = TransformConfig.path(forSchema: file.path) else {
            return file
        }
        var file = file
        file.schema = try TransformConfig.apply(path: config, to: schema)
        return file
    }

    /// Decodes file contents; `path` is used in error messages. A `.graphql` file is read as the `@model` SDL,
    /// a `.js` file as `aws-exports.js`, anything else as JSON.
    public static func load(bytes: [UInt8], path: String) throws(SchemaError) -> SchemaFile {
        if SchemaDiscovery.isSDL(path: path) || SchemaDiscovery.looksLikeSDL(bytes[...]) {
            let schema = try TransformerSchemaReader.read(text: String(decoding: bytes, as: UTF8.self), path: path)
            return SchemaFile(path: path, format: .transformerSDL, schema: schema, service: ServiceConfig())
        }
        if SchemaDiscovery.isJavaScript(path: path) {
            let literal = try AWSExportsReader.read(bytes: bytes, path: path)
            guard literal["aws_appsync_graphqlEndpoint"] != nil || literal["models"] != nil || literal["modelIntrospection"] != nil else {
                throw SchemaError(file: path, location: "", message: "no GraphQL API in this file: it has no aws_appsync_graphqlEndpoint "
                                  + "(run amplify add api, then amplify push)")
            }
            return try decode(literal, path: path, format: .awsExports)
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            if let kind = SchemaDiscovery.unreadableKind(path: path, bytes: bytes[...]) {
                throw SchemaError(file: path, location: "", message: kind)
            }
            throw SchemaError(file: path, location: "\(error.line):\(error.column)", message: error.message)
        }
        return try decode(json, path: path)
    }

    /// Decodes an already-parsed file; `format` names a legacy-shaped file read from another syntax.
    public static func decode(_ json: JSONValue, path: String, format: SchemaFileFormat? = nil) throws(SchemaError) -> SchemaFile {
        let root = JSONNode(value: json, path: "", file: path)
        guard case .object(let object) = json else {
            throw SchemaError(file: path, location: "", message: "expected a JSON object at the top level, found \(json.kindDescription)")
        }
        if object["models"] != nil {
            return SchemaFile(path: path, format: .modelIntrospection, schema: try IntrospectionDecoder.decode(root), service: ServiceConfig())
        }
        if let data = try root.optional("data"), case .object = data.value {
            var schema: ModelSchema?
            if let mis = try data.optional("model_introspection") { schema = try IntrospectionDecoder.decode(mis) }
            var service = ServiceConfig(
                endpoint: try data.optionalString("url"), apiKey: try data.optionalString("api_key"),
                region: try data.optionalString("aws_region"),
                defaultAuthorizationType: try data.optionalString("default_authorization_type"))
            service.additionalAuthorizationTypes = try data.optional("authorization_types")?.stringList() ?? []
            if let auth = try root.optional("auth") {
                service.userPoolId = try auth.optionalString("user_pool_id")
                service.userPoolClientId = try auth.optionalString("user_pool_client_id")
            }
            if let events = try root.optional("custom")?.optional("events"), let url = try events.optionalString("url") {
                service.events = EventsConfig(
                    url: url, region: try events.optionalString("aws_region"),
                    defaultAuthorizationType: try events.optionalString("default_authorization_type"),
                    apiKey: try events.optionalString("api_key"))
            }
            return SchemaFile(path: path, format: .amplifyOutputs, schema: schema, service: service)
        }
        if object["aws_appsync_graphqlEndpoint"] != nil || object["modelIntrospection"] != nil {
            var schema: ModelSchema?
            if let mis = try root.optional("modelIntrospection") { schema = try IntrospectionDecoder.decode(mis) }
            var service = ServiceConfig(
                endpoint: try root.optionalString("aws_appsync_graphqlEndpoint"),
                apiKey: try root.optionalString("aws_appsync_apiKey"),
                region: try root.optionalString("aws_appsync_region"),
                defaultAuthorizationType: try root.optionalString("aws_appsync_authenticationType"))
            service.additionalAuthorizationTypes = (try root.optionalString("aws_appsync_additionalAuthenticationTypes") ?? "")
                .split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
            service.userPoolId = try root.optionalString("aws_user_pools_id")
            service.userPoolClientId = try root.optionalString("aws_user_pools_web_client_id")
            return SchemaFile(path: path, format: format ?? .legacyConfig, schema: schema, service: service)
        }
        if let plugins = try root.optional("api")?.optional("plugins")?.optional("awsAPIPlugin") {
            for (_, api) in try plugins.members() where try api.optionalString("endpointType") != "REST" {
                let service = ServiceConfig(
                    endpoint: try api.optionalString("endpoint"), apiKey: try api.optionalString("apiKey"),
                    region: try api.optionalString("region"),
                    defaultAuthorizationType: try api.optionalString("authorizationType"))
                return SchemaFile(path: path, format: .nativeConfig, schema: nil, service: service)
            }
        }
        throw SchemaError(
            file: path, location: "",
            message: "not a model schema or Amplify config: expected 'models', 'data.model_introspection' or 'modelIntrospection'")
    }
}
