extension JSONValue: Equatable {
    /// Structural equality: same kinds, same number text, same strings, same elements in order and
    /// same object members in order. Uses a work list instead of recursion, so any depth is safe.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = []
        var left = lhs
        var right = rhs
        while true {
            switch (left, right) {
            case (.null, .null):
                break
            case (.bool(let a), .bool(let b)):
                guard a == b else { return false }
            case (.number(let a), .number(let b)):
                guard a == b else { return false }
            case (.string(let a), .string(let b)):
                guard a == b else { return false }
            case (.array(let a), .array(let b)):
                guard a.count == b.count else { return false }
                for (x, y) in zip(a, b) {
                    guard scalarsMayBeEqual(x, y) else { return false }
                    if x.isContainer { pending.append((x, y)) }
                }
            case (.object(let a), .object(let b)):
                guard a.count == b.count else { return false }
                for (x, y) in zip(a.members, b.members) {
                    guard x.key == y.key, scalarsMayBeEqual(x.value, y.value) else { return false }
                    if x.value.isContainer { pending.append((x.value, y.value)) }
                }
            default:
                return false
            }
            guard let next = pending.popLast() else { return true }
            (left, right) = next
        }
    }

    /// True when the values are equal scalars or both containers of the same kind (compared later).
    private static func scalarsMayBeEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a.count == b.count
        case (.object(let a), .object(let b)): return a.count == b.count
        default: return false
        }
    }

    /// An object or an array.
    var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}
