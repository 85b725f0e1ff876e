/// A filter operator of the `--where` / `--if` grammar.
public enum WhereOperator: String, Sendable, Equatable, CaseIterable {
    case eq, ne, lt, le, gt, ge, beginsWith, contains, notContains, between
    /// `field?`: `attributeExists: true`.
    case exists
    /// `field!?`: `attributeExists: false`.
    case notExists

    /// How the operator is written: `title^=Hello`, `rating=1..5`, `content?`.
    public var symbol: String {
        switch self {
        case .eq: return "="
        case .ne: return "!="
        case .lt: return "<"
        case .le: return "<="
        case .gt: return ">"
        case .ge: return ">="
        case .beginsWith: return "^="
        case .contains: return "*="
        case .notContains: return "!*="
        case .between: return "=LOW..HIGH"
        case .exists: return "?"
        case .notExists: return "!?"
        }
    }

    /// The key in AppSync's filter input (`eq`, `beginsWith`, `attributeExists`, …).
    public var inputName: String {
        switch self {
        case .exists, .notExists: return "attributeExists"
        default: return rawValue
        }
    }

    /// Every operator as written, for error messages.
    static let allSymbols = allCases.map(\.symbol).joined(separator: " ")
}

/// One `--where` or `--if` expression, parsed but not yet checked against a model.
///
/// Grammar: a GraphQL field name, then an operator, then the value (the rest of the text, which may
/// itself contain `=`, `..` or spaces). The longest operator wins, so `!*=` beats `!=`.
/// - `field=LOW..HIGH` is `between` when both sides are non-empty; otherwise `=` is `eq`.
/// - `field=` compares with the empty string.
/// - `field?` / `field!?` test whether the attribute exists and take no value.
/// - `=>`, `=<` and `==` are rejected as typos of `>=`, `<=` and `=`.
/// Anything the grammar cannot say (`or`, `not`, strings starting with `>`) goes through `--filter JSON`.
public struct WhereExpression: Sendable, Equatable {
    public var field: String
    public var op: WhereOperator
    /// The operand texts: none for `?`/`!?`, two for `between`, else one.
    public var operands: [String]

    public init(field: String, op: WhereOperator, operands: [String]) {
        self.field = field
        self.op = op
        self.operands = operands
    }

    /// Operators by spelling, longest first so that `!*=` is tried before `!=` and `<=` before `<`.
    private static let spellings: [(String, WhereOperator)] = [
        ("!*=", .notContains), ("!?", .notExists), ("!=", .ne), ("<=", .le), (">=", .ge), ("^=", .beginsWith),
        ("*=", .contains), ("?", .exists), ("=", .eq), ("<", .lt), (">", .gt),
    ]

    /// Parses `text`; errors explain what is wrong with the syntax.
    public static func parse(_ text: String) throws(RequestBuildError) -> WhereExpression {
        let name = GraphQLName.prefix(of: text)
        guard !name.isEmpty else {
            throw .syntax("expected a field name first, as in title=Hello")
        }
        let rest = Substring(text.unicodeScalars.dropFirst(name.unicodeScalars.count))
        guard !rest.isEmpty else {
            throw .syntax("missing operator after '\(name)'; operators: \(WhereOperator.allSymbols)")
        }
        guard let (spelling, op) = spellings.first(where: { rest.hasPrefix($0.0) }) else {
            throw .syntax("unknown operator '\(unknownOperator(rest))' after '\(name)'; operators: \(WhereOperator.allSymbols)")
        }
        let value = String(rest.dropFirst(spelling.count))
        switch op {
        case .exists, .notExists:
            guard value.isEmpty else { throw .syntax("'\(spelling)' takes no value, but '\(value)' follows it") }
            return WhereExpression(field: name, op: op, operands: [])
        case .eq:
            if let typo = ["=>": ">=", "=<": "<=", "==": "="].first(where: { rest.hasPrefix($0.key) }) {
                throw .syntax("unknown operator '\(typo.key)' after '\(name)'; did you mean '\(typo.value)'? operators: \(WhereOperator.allSymbols)")
            }
            if let range = value.firstRange(of: ".."), range.lowerBound > value.startIndex, range.upperBound < value.endIndex {
                return WhereExpression(
                    field: name, op: .between,
                    operands: [String(value[..<range.lowerBound]), String(value[range.upperBound...])])
            }
            return WhereExpression(field: name, op: .eq, operands: [value])
        default:
            return WhereExpression(field: name, op: op, operands: [value])
        }
    }

    /// The unrecognised operator at the start of `rest`: its leading punctuation, up to and including an `=`.
    private static func unknownOperator(_ rest: Substring) -> String {
        var token = ""
        for character in rest.prefix(3) {
            if character.isLetter || character.isNumber || character == "\"" || character == "'" { break }
            token.append(character)
            if character == "=" { break }
        }
        return token.isEmpty ? String(rest.prefix(1)) : token
    }
}
