/// Custom operations of a transformer v2 input schema and the input types of their arguments, as model
/// introspection writes them: arguments of an `input` type are `{"input": Name}`, and every declared `input`
/// is in `inputs`, its fields as `attributes`.
extension TransformerDerivation {
    /// The fields of `Query`, `Mutation` and `Subscription` that the schema declares itself.
    func customOperations() throws(SchemaError) -> [CustomOperation] {
        var operations: [CustomOperation] = []
        for kind in CustomOperation.Kind.allCases {
            for name in objectOrder where rootTypes[name] == kind {
                for field in objects[name]?.fields ?? [] {
                    guard let type = try fieldType(field, allowModels: true) else { continue }
                    let arguments = try field.arguments.map { (argument) throws(SchemaError) in
                        try inputValue(argument, of: "argument '\(argument.name)' of \(name).\(field.name)")
                    }
                    operations.append(CustomOperation(kind: kind, name: field.name, result: Self.modelField(field.name, field.type, type),
                                                      arguments: arguments))
                }
            }
        }
        return operations
    }

    /// Every declared input type, its fields typed as arguments are.
    func inputTypes() throws(SchemaError) -> [String: NonModelType] {
        var result: [String: NonModelType] = [:]
        // In file order: of two faulty inputs, the first is reported (a dictionary's order changes every run).
        for (name, definition) in inputs.sorted(by: { $0.value.offset < $1.value.offset }) {
            let fields = try definition.fields.map { (field) throws(SchemaError) in
                try inputValue(field, of: "field '\(field.name)' of input \(name)")
            }
            result[name] = NonModelType(name: name, fields: fields)
        }
        return result
    }

    /// An argument or input field: a scalar, an enum or an input type (GraphQL allows no other).
    private func inputValue(_ field: FieldDefinition, of place: String) throws(SchemaError) -> ModelField {
        let name = field.type.namedType
        if inputs[name] != nil { return Self.modelField(field.name, field.type, .input(name)) }
        if scalars.contains(name) || enums[name] != nil {
            return Self.modelField(field.name, field.type, scalars.contains(name) ? .scalar(name) : .enumeration(name))
        }
        if objects[name] != nil || otherTypes.contains(name) {
            let hint = objects[name] != nil && rootTypes[name] == nil ? "; declare an input type (input \(name)Input { … })" : ""
            throw error(at: field.offset, "\(place) has the output type \(name), but arguments take scalars, enums and input types\(hint)")
        }
        let known = Array(scalars) + Array(enums.keys) + Array(inputs.keys)
        throw error(at: field.offset, "unknown type '\(name)' for \(place)\(Suggestions.didYouMean(name, in: known))")
    }
}
