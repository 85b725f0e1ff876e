/// Why a model request could not be built. Every case reads as one line that says what was wrong
/// and, where there is one, suggests a fix (`unknown field 'titel' on Post; did you mean 'title'?`).
///
/// Errors about one argument are wrapped in ``argument(_:text:error:)``, so the message names it
/// (`filter 'ratng>3': unknown field 'ratng' on Post; did you mean 'rating'?`); a front end names the
/// parameters its own way through ``message(naming:)``.
public indirect enum RequestBuildError: Error, Sendable, Equatable, ParameterizedMessage {
    /// No model has this name.
    case unknownModel(String, suggestion: String?)
    /// The schema disables this operation (`@model(queries: {get: null})`).
    case operationDisabled(model: String, operation: String)
    /// A model or embedded type has no field with this name.
    case unknownField(String, type: String, suggestion: String?)
    /// An `--include` segment names no field of the model; `associations` are the ones it has.
    case unknownAssociation(String, model: String, suggestion: String?, associations: [String])
    /// An `--include` segment names a field that is not a relationship; `associations` are the ones there are.
    case notARelationship(field: String, model: String, associations: [String])
    /// A field selected by path lies in an association that is not included; `include` is the path to include.
    case notIncluded(field: String, model: String, include: String)
    /// A field selected by path lies in an association (past its key), which a create, update or delete does not return.
    case notInMutationResult(field: String, model: String)
    /// A text value does not fit the field's type: `'abc' is not an Int`.
    case invalidValue(String, expected: String, suggestion: String?)
    /// Text that does not match an AWS scalar's format; `field` is the field or JSON path it was given for.
    case invalidFormat(String, field: String, format: ScalarFormat)
    /// `status=DONE|STARTED`: `=` matches one value; `anyOf` is the filter object that matches any of them (nil
    /// where no filter object can be given, as in a condition).
    case severalValues(String, anyOf: JSONValue?)
    /// `LOW..HIGH` with LOW above HIGH: DynamoDB's BETWEEN would refuse it.
    case emptyRange(low: String, high: String, field: String)
    /// `blog.name=x`: a filter cannot reach into related records; `hint` is the foreign-key test to use.
    case dottedPath(String, model: String, hint: String?)
    /// A create lacks non-null fields the server does not fill; each is `'name' (Type!)`.
    case missingRequiredFields(model: String, fields: [String])
    /// An update sets non-null fields to null (the update input accepts null, but every later read of the record
    /// would fail); each is `'name' (Type!)`.
    case requiredFieldsNulled(model: String, fields: [String])
    /// An integer outside the type's range.
    case outOfRange(String, type: String)
    /// Text that should be JSON is not.
    case invalidJSON(JSONParseError)
    /// A JSON value of the wrong kind at a path inside an input object.
    case wrongJSONType(path: String, expected: String, found: String)
    /// `createdAt` and the like are set by the server.
    case readOnlyField(field: String, model: String)
    /// hasMany fields, and hasOne fields whose key lives on the child, cannot be set or filtered here.
    case relationshipNotSettable(field: String, model: String, hint: String)
    /// A belongsTo (or Gen1 hasOne) whose related model has a composite key.
    case compositeRelationship(field: String, model: String, foreignKeys: [String])
    /// Lists and embedded types must be given as JSON (`field:=JSON`).
    case needsJSON(field: String, what: String)
    /// A `--where`/`--if` expression or a `field=value` argument that does not parse.
    case syntax(String)
    /// The operator does not apply to this field's type.
    case unsupportedOperator(String, field: String, type: String, supported: [String])
    /// An operator list and get filters have but subscription filters lack (`?`, `!?`).
    case notInSubscriptions(String, supported: [String])
    /// The server's filter input has no entry for this field.
    case notFilterable(field: String, model: String, reason: String)
    /// `ModelXConditionInput` leaves out the key fields.
    case keyFieldInCondition(field: String, model: String)
    /// The command needs a key and got none, or got `--id` for a composite key.
    case keyRequired(model: String, keyFields: [String])
    /// A key field was not given.
    case missingKeyField(String, model: String, keyFields: [String])
    /// A key field was given twice.
    case duplicateKeyField(String)
    /// `--key name=…` names a field that is not part of the key.
    case notAKeyField(String, model: String, keyFields: [String], suggestion: String?)
    /// A key field was given two different values (for example `--id` and `--input`).
    case conflictingKeyValue(String)
    /// A key field set as a field value of an update; keys identify the record instead.
    case keyFieldAssigned(String, model: String)
    /// Two arguments set the same stored field to different values (`blog=b1 blogId=b2`).
    case conflictingAssignments(field: String, first: String)
    /// Where a JSON object was required.
    case notAnObject(found: String)
    /// `--limit` must be positive.
    case invalidLimit(Int)
    /// A response did not have the shape the request asked for.
    case unexpectedResponse(path: String, reason: String)
    /// The server handed back a nextToken it had already given.
    case repeatedNextToken(field: String)
    /// `--index` names no index of the model.
    case unknownIndex(String, model: String, queryable: [String], suggestion: String?)
    /// The index has no `queryField`, so the server exposes no query for it.
    case indexNotQueryable(String, model: String, queryable: [String])
    /// An index query needs an `=` clause on the index's partition-key field.
    case indexNeedsPartitionKey(queryField: String, field: String)
    /// No custom operation of this kind has this name; `available` are those there are.
    case unknownOperation(String, kind: String, suggestion: String?, available: [String])
    /// A custom operation the schema was pulled without (`reason`: its result type cannot be described).
    case operationLeftOut(String, reason: String)
    /// The name is a custom operation of another kind (a mutation asked for as a query).
    case operationKindMismatch(String, actual: String, expected: String)
    /// A custom operation has no argument with this name; `arguments` are its `name: Type` pairs.
    case unknownArgument(String, operation: String, suggestion: String?, arguments: [String])
    /// Required arguments of a custom operation that were not given (`postId (ID!)`).
    case missingArguments([String], operation: String)
    /// Non-null fields of an input object that were not given.
    case missingInputFields([String], type: String)
    /// A list whose elements are non-null holds a null.
    case nullElement(list: String)
    /// Associations can be included only in a model result.
    case includeNeedsModel(operation: String, result: String)
    /// A custom operation returns a type the schema does not describe.
    case unknownType(String, operation: String)
    /// An error about one argument: what it gives, and the argument as given (nil when the whole
    /// value is meant, as for an input object).
    case argument(Parameter, text: String?, error: RequestBuildError)
    /// An error about the value at a JSON path inside a given object: `metadata.source: …`.
    case atPath(String, error: RequestBuildError)

    /// The one-line message, each parameter named by `name`.
    public func message(naming name: (Parameter) -> String) -> String { line(naming: name).escapingLineBreaks }

    private func line(naming name: (Parameter) -> String) -> String {
        switch self {
        case .unknownModel(let name, let suggestion):
            return "unknown model '\(name)'" + didYouMean(suggestion)
        case .operationDisabled(let model, let operation):
            return "\(model) has no \(operation) operation: the schema disables it"
        case .unknownField(let name, let type, let suggestion):
            return "unknown field '\(name)' on \(type)" + didYouMean(suggestion)
        case .unknownAssociation(let name, let model, let suggestion, let associations):
            if suggestion != nil { return "unknown field '\(name)' on \(model)" + didYouMean(suggestion) }
            return "unknown field '\(name)' on \(model); " + associationList(model, associations)
        case .notARelationship(let field, let model, let associations):
            return "'\(field)' on \(model) is not a relationship; \(name(.include)) takes belongsTo, hasOne and hasMany fields; "
                + associationList(model, associations)
        case .notIncluded(let field, let model, let include):
            return "'\(field)' on \(model) is in an association that is not fetched; add \(name(.include)) \(include)"
        case .notInMutationResult(let field, let model):
            return "'\(field)' on \(model) is not returned: a create, update or delete returns only the record's "
                + "own fields and the keys of the records it belongs to"
        case .invalidValue(let text, let expected, let suggestion):
            return "'\(text)' is not \(article(expected)) \(expected)" + didYouMean(suggestion)
        case .invalidFormat(let text, let field, let format):
            return "'\(text)' is not a valid \(format.rawValue) for '\(field)'" + Self.formatAdvice(text, format)
        case .severalValues(let text, let anyOf):
            let head = "'\(text)' is several values, and = matches one"
            guard let anyOf else { return head + "; give one value" }
            return head + "; to match any of them, give \(name(.filterObject)) '\(anyOf)'"
        case .emptyRange(let low, let high, let field):
            return "'\(low)..\(high)' on '\(field)' is an empty range: LOW must not be above HIGH "
                + "(numbers compare by value, strings byte by byte)"
        case .dottedPath(let name, let model, let hint):
            let head = "filters apply to \(model)'s own fields and its foreign keys, not to fields of related records ('\(name).…')"
            return head + (hint.map { "; match the related record by key: \($0)" } ?? "")
        case .missingRequiredFields(let model, let fields):
            return "create \(model): missing required field\(fields.count == 1 ? "" : "s") " + fields.joined(separator: ", ")
        case .requiredFieldsNulled(let model, let fields):
            let (noun, pronoun) = fields.count == 1 ? ("field", "it") : ("fields", "them")
            return "update \(model): cannot set the required \(noun) " + fields.joined(separator: ", ")
                + " to null (every read of the record would then fail); give \(pronoun) a value or leave \(pronoun) out"
        case .outOfRange(let text, let type):
            let bounds = type == "Int" ? " (32-bit: \(Int32.min) to \(Int32.max))" : ""
            return "'\(text)' is out of range for \(type)\(bounds)"
        case .invalidJSON(let error):
            return "invalid JSON at \(error.line):\(error.column): \(error.message)"
        case .wrongJSONType(let path, let expected, let found):
            return "\(path): expected \(expected), found \(found)"
        case .readOnlyField(let field, let model):
            return "'\(field)' on \(model) is read-only (set by the server)"
        case .relationshipNotSettable(let field, let model, let hint):
            return "'\(field)' on \(model) is a relationship held by the related records; \(hint)"
        case .compositeRelationship(let field, let model, let keys):
            return "'\(field)' on \(model) points to a composite key; use its foreign-key fields "
                + keys.map { "'\($0)'" }.joined(separator: ", ") + " instead (or, in \(name(.input)), the related record's key object)"
        case .needsJSON(let field, let what):
            return "'\(field)' is \(what); give it as JSON: \(field):=…"
        case .syntax(let message):
            return message
        case .unsupportedOperator(let op, let field, let type, let supported):
            return "operator '\(op)' does not apply to \(type) field '\(field)'; use "
                + supported.joined(separator: " ")
        case .notInSubscriptions(let op, let supported):
            return "operator '\(op)' is not in AppSync's subscription filters (they have no attributeExists); use "
                + supported.joined(separator: " ")
        case .notFilterable(let field, let model, let reason):
            return "'\(field)' on \(model) cannot be filtered: \(reason)"
        case .keyFieldInCondition(let field, let model):
            return "'\(field)' is part of \(model)'s key; a condition cannot test key fields"
        case .keyRequired(let model, let keys):
            if keys.count == 1 { return "\(model) needs its key: give \(name(.id)) VALUE" }
            return "\(model) has a composite key; give \(name(.key)) FIELD=VALUE for each of " + keys.joined(separator: ", ")
        case .missingKeyField(let field, let model, let keys):
            return "missing key field '\(field)' (\(model)'s key is " + keys.joined(separator: ", ") + ")"
        case .duplicateKeyField(let field):
            return "key field '\(field)' is given more than once"
        case .conflictingAssignments(let field, let first):
            return "'\(field)' is already set by '\(first)' to another value; give it once"
        case .notAKeyField(let field, let model, let keys, let suggestion):
            return "'\(field)' is not a key field of \(model) (its key is " + keys.joined(separator: ", ") + ")"
                + didYouMean(suggestion)
        case .conflictingKeyValue(let field):
            return "key field '\(field)' is given two different values"
        case .keyFieldAssigned(let field, let model):
            return "'\(field)' is part of \(model)'s key; give it with \(name(.id)) or \(name(.key)), not as a field value"
        case .notAnObject(let found):
            return "expected a JSON object, found \(found)"
        case .invalidLimit(let limit):
            return "limit must be at least 1, got \(limit)"
        case .unexpectedResponse(let path, let reason):
            return "unexpected response at \(path): \(reason)"
        case .repeatedNextToken(let field):
            return "the server returned the same nextToken twice while paging '\(field)'"
        case .unknownIndex(let name, let model, let queryable, let suggestion):
            return "unknown index '\(name)' on \(model)" + didYouMean(suggestion) + queryableIndexes(model, queryable)
        case .indexNotQueryable(let name, let model, let queryable):
            return "index '\(name)' on \(model) has no queryField, so the server has no query for it"
                + queryableIndexes(model, queryable)
        case .indexNeedsPartitionKey(let queryField, let field):
            return "\(name(.index)) \(queryField) needs \(name(.filter)) \(field)=VALUE"
        case .unknownOperation(let operation, let kind, let suggestion, let available):
            let plural = kind == "query" ? "queries" : kind + "s"
            let list = available.isEmpty ? "the schema has no custom \(plural)" : "custom \(plural): " + available.joined(separator: ", ")
            return "unknown custom \(kind) '\(operation)'" + didYouMean(suggestion) + (suggestion == nil ? "; \(list)" : "")
        case .operationLeftOut(let operation, let reason):
            return "the custom operation '\(operation)' was left out when the schema was pulled: \(reason)"
        case .operationKindMismatch(let operation, let actual, let expected):
            return "'\(operation)' is a custom \(actual), not a \(expected)"
        case .unknownArgument(let argument, let operation, let suggestion, let arguments):
            let list = arguments.isEmpty ? "\(operation) takes no arguments" : "\(operation) takes " + arguments.joined(separator: ", ")
            return "unknown argument '\(argument)' of \(operation)" + didYouMean(suggestion) + (suggestion == nil ? "; \(list)" : "")
        case .missingArguments(let arguments, let operation):
            return "\(operation): missing required argument\(arguments.count == 1 ? "" : "s") " + arguments.joined(separator: ", ")
        case .missingInputFields(let fields, let type):
            return "missing required field\(fields.count == 1 ? "" : "s") of \(type): " + fields.joined(separator: ", ")
        case .nullElement(let list):
            return "null in a list of non-null elements (\(list))"
        case .includeNeedsModel(let operation, let result):
            return "\(operation) returns \(result), not a model, so it has no associations to include"
        case .unknownType(let type, let operation):
            return "\(operation) returns '\(type)', which the schema does not describe"
        case .argument(let parameter, let text, let error):
            let option = name(parameter), inner = error.message(naming: name)
            guard let text else { return "\(option): \(inner)" }
            let quoted = "'\(text)'"
            return option.isEmpty ? "\(quoted): \(inner)" : "\(option) \(quoted): \(inner)"
        case .atPath(let path, let error):
            return "\(path): \(error.message(naming: name))"
        }
    }

    /// The error without its argument wrapper(s).
    public var underlying: RequestBuildError {
        switch self {
        case .argument(_, _, let error), .atPath(_, let error): return error.underlying
        default: return self
        }
    }

    /// What a valid value of `format` looks like; relative dates get the accepted forms.
    static func formatAdvice(_ text: String, _ format: ScalarFormat) -> String {
        let isWord = text.count >= 3 && text.allSatisfy { $0.isLetter || $0 == " " || $0 == "-" }
        switch format {
        case .date where isWord, .dateTime where isWord:
            let forms = format == .date
                ? "2025-01-31 or 2025-01-31Z"
                : "2025-01-31T09:30:00Z, 2025-01-31T09:30:00.123+02:00, or in a filter a date 2025-01-31 (start of that day, UTC)"
            return "; relative dates are not supported, give \(forms)"
        case .dateTime where ScalarFormat.dateTime.accepts(text + "Z"):  // `2025-01-31T09:30:00`: no zone
            return "; the zone is required: \(text)Z for UTC, or an offset such as \(text)+02:00"
        case .dateTime where text.utf8.count == 10 && ScalarFormat.date.accepts(text):  // `2025-01-31` alone
            return "; give a time and zone too, for example \(text)T00:00:00Z (in a filter a date alone "
                + "stands for the start of that day with <, <=, >, >= and ranges)"
        default:
            return "; for example \(format.example)"
        }
    }

    private func associationList(_ model: String, _ names: [String]) -> String {
        names.isEmpty ? "\(model) has no associations" : "\(model)'s associations: " + names.joined(separator: ", ")
    }

    private func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }

    private func queryableIndexes(_ model: String, _ names: [String]) -> String {
        names.isEmpty ? "; \(model) has no queryable indexes" : " (queryable indexes: " + names.joined(separator: ", ") + ")"
    }

    private func article(_ word: String) -> String {
        guard let first = word.lowercased().first else { return "a" }
        return "aeio".contains(first) ? "an" : "a"
    }
}

extension RequestBuildError {
    /// Wraps the error as being about `text` given for `parameter`, unless it already names an argument.
    func about(_ parameter: Parameter, _ text: String?) -> RequestBuildError {
        if case .argument = self { return self }
        return .argument(parameter, text: text, error: self)
    }
}
