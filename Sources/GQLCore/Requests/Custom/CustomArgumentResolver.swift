/// Checks the arguments given to a custom operation against its declared arguments and converts them
/// by their types, with the coercion that field values use (``ValueCoercion``, ``FieldAssignment``).
///
/// An input object gives arguments by name; `name=value` and `name:=JSON` arguments override its members.
/// An unknown argument gets a did-you-mean; every missing required argument is named at once.
struct CustomArgumentResolver {
    let schema: ModelSchema
    let operation: CustomOperation

    /// The argument values by name, unsorted; arguments not given are absent.
    func resolve(_ values: RecordValues) throws(RequestBuildError) -> JSONObject {
        var result = JSONObject()
        if let input = values.input {
            do throws(RequestBuildError) {
                guard case .object(let object) = input else { throw RequestBuildError.notAnObject(found: input.kindDescription) }
                for member in object {
                    let argument = try self.argument(named: member.key)
                    result[argument.name] = try ValueCoercion.check(member.value, for: argument, path: argument.name, schema: schema)
                }
            } catch {
                throw error.about(.input, nil)
            }
        }
        var assignedBy: [String: String] = [:]
        for text in values.assignments {
            do throws(RequestBuildError) {
                let assignment = try Self.parse(text)
                let argument = try self.argument(named: assignment.field)
                let value = try Self.value(of: assignment, for: argument, schema: schema)
                if let first = assignedBy[argument.name], result[argument.name] != value {
                    throw .conflictingAssignments(field: argument.name, first: first)
                }
                assignedBy[argument.name] = text
                result[argument.name] = value
            } catch {
                throw error.about(.fieldValue, text)
            }
        }
        let missing = operation.arguments.filter { $0.isMandatoryArgument && (result[$0.name]?.isNull ?? true) }
        if !missing.isEmpty {
            throw .missingArguments(missing.map { "'\($0.name)' (\($0.graphQLType))" }, operation: operation.name)
        }
        // `[ID!]` takes no null elements.
        for argument in operation.arguments where argument.isArray && argument.isRequired {
            if case .array(let elements)? = result[argument.name], let index = elements.firstIndex(of: .null) {
                throw .atPath("\(argument.name)[\(index)]", error: .nullElement(list: argument.graphQLType))
            }
        }
        return result
    }

    /// `name=value` or `name:=JSON`, with syntax errors in an argument's words.
    private static func parse(_ text: String) throws(RequestBuildError) -> FieldAssignment {
        do {
            return try FieldAssignment.parse(text)
        } catch {
            guard case .syntax = error else { throw error }
            let name = GraphQLName.prefix(of: text)
            throw .syntax("expected ARG=VALUE or ARG:=JSON" + (name.isEmpty ? "" : " after '\(name)'"))
        }
    }

    /// The value an assignment gives (text for a list of scalars is a list of one); the word `null` is null for
    /// any argument.
    private static func value(of assignment: FieldAssignment, for argument: ModelField, schema: ModelSchema) throws(RequestBuildError) -> JSONValue {
        if case .text("null") = assignment.value { return .null }
        return try assignment.value.resolved(for: argument, named: assignment.field, schema: schema)
    }

    private func argument(named name: String) throws(RequestBuildError) -> ModelField {
        if let argument = operation.arguments.first(where: { $0.name == name }) { return argument }
        let names = operation.arguments.map(\.name)
        throw .unknownArgument(
            name, operation: operation.name, suggestion: Suggestions.closest(to: name, in: names),
            arguments: operation.arguments.map { "\($0.name): \($0.graphQLType)" })
    }
}

extension ValueCoercion {
    /// Checks an input object given for an argument of input type `name`: known fields only, each checked by
    /// its type, and every non-null field present. An input type the schema does not describe is sent as given.
    static func checkInputObject(_ value: JSONValue, type name: String, path: String, schema: ModelSchema) throws(RequestBuildError) -> JSONValue {
        guard let input = schema.inputs[name] else { return value }
        guard case .object(let object) = value else {
            throw .wrongJSONType(path: path, expected: "an object (\(name))", found: value.kindDescription)
        }
        var result = JSONObject()
        for member in object {
            guard let field = input.fields.first(where: { $0.name == member.key }) else {
                throw .atPath(path, error: .unknownField(
                    member.key, type: name, suggestion: Suggestions.closest(to: member.key, in: input.fields.map(\.name))))
            }
            result[member.key] = try check(member.value, for: field, path: path + "." + member.key, schema: schema)
        }
        let missing = input.fields.filter { $0.isMandatoryArgument && (result[$0.name]?.isNull ?? true) }
        if !missing.isEmpty {
            throw .atPath(path, error: .missingInputFields(missing.map { "'\($0.name)' (\($0.graphQLType))" }, type: name))
        }
        return .object(result)
    }
}
