extension Model {
    /// The note for a record to create (the first of an input, such as a listing being imported) that has values for
    /// read-only fields, the implicit `createdAt` and `updatedAt` say: a create cannot set them, so they are left out
    /// and the server sets its own. Nil when it has none.
    public func readOnlyValuesNote(_ record: JSONObject) -> String? {
        let given = fields.filter { field in field.isReadOnly && record[field.name].map { !$0.isNull } == true }
        guard !given.isEmpty else { return nil }
        let names = given.map(\.name).joined(separator: ", ")
        let (verb, pronoun) = given.count == 1 ? ("is", "it") : ("are", "them")
        return "note: \(names) \(verb) read-only on \(name) (the server sets \(pronoun)); the input's values are left out"
    }
}

extension BulkInputStream {
    /// The note for the input's first record when it has values for `model`'s read-only fields (a create leaves them
    /// out; said once, not for every record); nil for none.
    public func readOnlyValuesNote(for model: Model?) -> String? {
        guard let model, let item = ahead.first, case .object(let record)? = try? item.parse() else { return nil }
        return model.readOnlyValuesNote(record)
    }
}
