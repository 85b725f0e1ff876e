import GQLCore

/// Options and arguments several commands share, declared once so that their help reads the same everywhere.
enum SharedOptions {
    static let model = ArgumentSpec(name: "MODEL", help: "The model's name as the schema spells it, e.g. Post.")
    static let id = OptionSpec(
        long: "id", value: "VALUE",
        help: "The record's primary key, for models whose key is a single field (usually id).")
    static let key = OptionSpec(
        long: "key", value: "FIELD=VALUE", repeatable: true,
        help: "One field of a composite primary key; give one --key per key field.")
    static let include = OptionSpec(
        long: "include", value: "PATH", repeatable: true,
        help: "Also fetch an association, named by a dot path from MODEL: comments, blog, comments.post.").completing(.include)
    static let fields = OptionSpec(
        long: "fields", value: "A,B,…", repeatable: true,
        help: "Ask only for these fields (key fields are always included), by dot path into --include'd "
            + "associations and embedded types: title,comments.items.content.").completing(.fields)
    /// `--fields` on create, update and delete: what each changed record is printed with.
    static let recordFields = OptionSpec(
        long: "fields", value: "A,B,…", repeatable: true,
        help: "Ask only for these fields of each record changed, and print only them (key fields are always included), "
            + "by dot path into embedded types: title,metadata.wordCount.").completing(.fields)
    static let noFollow = OptionSpec(
        long: "no-follow",
        help: "Keep only the server's first page of each included list (with its nextToken) instead of following it to the end.")
    static let includeDeleted = OptionSpec(
        long: "include-deleted",
        help: "On a model with conflict detection (a Gen 1 DataStore API), also show soft-deleted records (_deleted: true).")
    static let expectedVersion = OptionSpec(
        long: "expected-version", value: "N",
        help: "On a model with conflict detection, send N as the record's _version instead of reading it with a get "
            + "first: if someone changed the record since version N, the server refuses the change (exit 1).")

    /// `--expected-version N`, only for one record (`--id`/`--key`).
    static func expectedVersion(_ arguments: CommandArguments, oneRecord: Bool) throws(UsageError) -> Int? {
        guard let text = arguments.options.value(expectedVersion) else { return nil }
        guard oneRecord else {
            throw UsageError("option '--expected-version' needs --id or --key: it is the version of one record")
        }
        guard let value = Int(text), value >= 1 else {
            throw ValueParsing.invalid(text, for: expectedVersion, expected: "a version number (1 or more)")
        }
        return value
    }
    static let condition = OptionSpec(
        long: "if", value: "EXPR", repeatable: true,
        help: """
            Apply the change only if the stored record matches EXPR; several are AND-ed. \
            EXPR uses the --where grammar (see 'gqlc help list').
            """).completing(.where)
    static let input = OptionSpec(
        long: "input", value: "FILE|-", help: "Read field values from a JSON object in FILE, or '-' for standard input.")
    static let assignments = ArgumentSpec(
        name: "FIELD=VALUE", help: "Set FIELD to VALUE, converted by the field's type (the word null means null).")
    static let jsonAssignments = ArgumentSpec(
        name: "FIELD:=JSON", help: "Set FIELD to a JSON value as given: tags:='[\"a\",\"b\"]', metadata:='{…}'.")

    /// The paragraph on field values that `create` and `update` share.
    static let fieldValuesHelp = HelpSection("Field values", [
        .paragraph(
            """
            FIELD=VALUE converts VALUE by the field's type: Int and Float fields take numbers, Boolean \
            fields true or false, enum fields a value name, and every field takes null. FIELD:=JSON \
            takes a JSON value as it is, for lists and embedded types. Naming a belongs-to \
            association sets its foreign key: post=p1 sets postId. Arguments override the fields \
            read with --input.
            """),
    ])

    /// The record picked by `--id` or `--key`: exactly one of them is required.
    static func recordSelector(_ arguments: CommandArguments) throws(UsageError) -> RecordSelector {
        try arguments.options.expectExclusive(id, key)
        if let value = try arguments.options.nonEmptyValue(id) { return .id(value) }
        let texts = arguments.options.values(key)
        guard !texts.isEmpty else {
            throw UsageError(
                "'\(arguments.command.name)' needs --id VALUE or --key FIELD=VALUE to pick the record")
        }
        return .key(texts)
    }

    /// The model name at positional `index`: present and a valid GraphQL name.
    static func modelName(_ arguments: CommandArguments, at index: Int = 0) throws(UsageError) -> String {
        let name = try arguments.required(model, at: index)
        guard GraphQLName.isValid(name) else {
            throw UsageError("invalid model name '\(name)': expected a GraphQL type name such as 'Post'")
        }
        return name
    }

    /// The model names from positional `index` on (`snapshot DIR Post Comment`), each checked as ``modelName(_:at:)``.
    static func modelNames(_ arguments: CommandArguments, from index: Int = 0) throws(UsageError) -> [String] {
        try arguments.positionals.indices.dropFirst(index).map { index throws(UsageError) in try modelName(arguments, at: index) }
    }

    /// Every `--include` path.
    static func includes(_ arguments: CommandArguments) throws(UsageError) -> [String] {
        arguments.options.values(include)
    }

    /// Every `--fields` path, comma-separated or repeated; nil when none is given.
    static func fieldPaths(_ arguments: CommandArguments) throws(UsageError) -> [String]? {
        let texts = arguments.options.values(fields)
        guard !texts.isEmpty else { return nil }
        return try ValueParsing.commaSeparated(texts, for: fields, item: "field name", example: "title,content")
    }

    /// Every `--if` condition.
    static func conditions(_ arguments: CommandArguments) throws(UsageError) -> [String] {
        arguments.options.values(condition)
    }

    /// `--input FILE|-`, if given.
    static func inputSource(_ arguments: CommandArguments) -> InputSource? {
        arguments.options.value(input).map(InputSource.init(argument:))
    }
}
