/// One `--where` or `--if` expression, such as `status=PUBLISHED`, `rating>=4` or `title^=Hello`.
///
/// Only the syntax is checked here; operand text is coerced by the field's type once the schema is loaded.
struct Condition: Equatable, Sendable {
    let field: String
    let comparison: Comparison
    /// The expression as typed, for error messages.
    let source: String

    /// The operator and its operands.
    enum Comparison: Equatable, Sendable {
        case equal(String)
        case notEqual(String)
        case lessThan(String)
        case lessThanOrEqual(String)
        case greaterThan(String)
        case greaterThanOrEqual(String)
        case beginsWith(String)
        case contains(String)
        case notContains(String)
        /// `field=low..high`, inclusive.
        case between(String, String)
        /// `field?` (true) or `field!?` (false).
        case exists(Bool)

        /// The AppSync filter operator: `eq`, `ne`, `le`, `lt`, `ge`, `gt`, `beginsWith`, `contains`,
        /// `notContains`, `between` or `attributeExists`.
        var filterOperator: String {
            switch self {
            case .equal: "eq"
            case .notEqual: "ne"
            case .lessThan: "lt"
            case .lessThanOrEqual: "le"
            case .greaterThan: "gt"
            case .greaterThanOrEqual: "ge"
            case .beginsWith: "beginsWith"
            case .contains: "contains"
            case .notContains: "notContains"
            case .between: "between"
            case .exists: "attributeExists"
            }
        }
    }

    /// Operators by spelling, longest first so that `!*=` wins over `*=` and `<=` over `<`.
    private static let operators: [(String, @Sendable (String) -> Comparison)] = [
        ("!*=", { .notContains($0) }), ("*=", { .contains($0) }), ("^=", { .beginsWith($0) }),
        ("!=", { .notEqual($0) }), ("<=", { .lessThanOrEqual($0) }), (">=", { .greaterThanOrEqual($0) }),
        ("<", { .lessThan($0) }), (">", { .greaterThan($0) }), ("=", { .equal($0) }),
    ]

    /// Parses one expression given to `option` (`--where` or `--if`).
    static func parse(_ text: String, option: String) throws(UsageError) -> Condition {
        let (field, rest) = GraphQLName.split(text)
        let invalid = "invalid \(option) '\(text)'"
        guard !field.isEmpty else {
            throw UsageError("\(invalid): expected a field name first, e.g. 'status=PUBLISHED'")
        }
        if rest == "?" { return Condition(field: field, comparison: .exists(true), source: text) }
        if rest == "!?" { return Condition(field: field, comparison: .exists(false), source: text) }
        guard let (symbol, make) = operators.first(where: { rest.hasPrefix($0.0) }) else {
            let problem = rest.isEmpty ? "missing operator" : "unknown operator"
            throw UsageError(
                "\(invalid): \(problem) after '\(field)'; use one of = != < <= > >= ^= *= !*= ? !? or a..b")
        }
        let operand = String(rest.dropFirst(symbol.count))
        guard symbol == "=", let range = operand.range(of: "..") else {
            return Condition(field: field, comparison: make(operand), source: text)
        }
        let low = String(operand[..<range.lowerBound])
        let high = String(operand[range.upperBound...])
        guard !low.isEmpty, !high.isEmpty else {
            throw UsageError("\(invalid): a range needs both ends, e.g. '\(field)=1..5'")
        }
        return Condition(field: field, comparison: .between(low, high), source: text)
    }
}
