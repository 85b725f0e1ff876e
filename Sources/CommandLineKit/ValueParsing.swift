/// Conversions of option values to numbers, with one-line errors that quote the option and the value.
public enum ValueParsing {
    /// A whole number of at least 1, as `--limit` needs.
    public static func positiveInteger(_ text: String, for option: OptionSpec) throws(UsageError) -> Int {
        guard let number = wholeNumber(text), number >= 1 else {
            throw invalid(text, for: option, expected: "a whole number of at least 1")
        }
        return number
    }

    /// A whole number of at least 0, as `--retries` needs.
    public static func nonNegativeInteger(_ text: String, for option: OptionSpec) throws(UsageError) -> Int {
        guard let number = wholeNumber(text), number >= 0 else {
            throw invalid(text, for: option, expected: "a whole number of 0 or more")
        }
        return number
    }

    /// A positive, finite number of seconds such as `30` or `2.5`, at most `maximum` (which `maximumName`, when
    /// given, says in words: `a year`).
    public static func positiveSeconds(
        _ text: String, for option: OptionSpec, atMost maximum: Double, maximumName: String? = nil
    ) throws(UsageError) -> Double {
        let isPlainDecimal = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard isPlainDecimal, let seconds = Double(text), seconds.isFinite, seconds > 0 else {
            throw invalid(text, for: option, expected: "a number of seconds greater than 0, such as 30 or 2.5")
        }
        guard seconds <= maximum else {
            let name = maximumName.map { " (\($0))" } ?? ""
            throw invalid(text, for: option, expected: "at most \(self.text(seconds: maximum)) seconds\(name)")
        }
        return seconds
    }

    /// The items of every value of a repeatable option that takes comma-separated lists (`--fields a,b --fields c`),
    /// each without surrounding blanks, in order and without repeats; an empty item is an error that names `item`
    /// (`field name`) and shows `example` (`title,content`).
    public static func commaSeparated(
        _ texts: [String], for option: OptionSpec, item: String, example: String
    ) throws(UsageError) -> [String] {
        var items: [String] = []
        for text in texts {
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let blank: (Character) -> Bool = { $0.isWhitespace && !$0.isNewline }
                let trimmed = String(part.drop(while: blank).reversed().drop(while: blank).reversed())
                guard !trimmed.isEmpty else {
                    throw UsageError("option '\(option.flagName)' has an empty \(item) in '\(text)'; write names like \(example)")
                }
                if !items.contains(trimmed) { items.append(trimmed) }
            }
        }
        return items
    }

    /// Seconds as a user types them: `30`, `2.5`.
    public static func text(seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }

    /// `invalid value 'abc' for '--limit': expected …`.
    public static func invalid(_ text: String, for option: OptionSpec, expected: String) -> UsageError {
        UsageError("invalid value '\(text)' for '\(option.flagName)': expected \(expected)")
    }

    /// Digits with an optional leading minus, so that `-3` is rejected as negative rather than as garbage.
    private static func wholeNumber(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}

extension ParsedOptions {
    /// The option's value as a whole number of at least 1 (``ValueParsing/positiveInteger(_:for:)``); nil when not given.
    public func positiveInteger(_ option: OptionSpec) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        return try ValueParsing.positiveInteger(text, for: option)
    }

    /// The option's value, which may not be empty (`--next-token ''` is a mistake, not "no token"); nil when not given.
    public func nonEmptyValue(_ option: OptionSpec) throws(UsageError) -> String? {
        guard let text = value(option) else { return nil }
        guard !text.isEmpty else { throw UsageError("option '\(option.flagName)' needs a non-empty value") }
        return text
    }

    /// Rejects giving both options.
    public func expectExclusive(_ first: OptionSpec, _ second: OptionSpec) throws(UsageError) {
        guard contains(first), contains(second) else { return }
        throw UsageError("options '\(first.flagName)' and '\(second.flagName)' cannot be used together")
    }

    /// Rejects the first of `others` that was given, with the message `reason` says for it (options that another
    /// option or an action rules out).
    public func expectAbsent(_ others: [OptionSpec], _ reason: (OptionSpec) -> String) throws(UsageError) {
        guard let given = others.first(where: contains) else { return }
        throw UsageError(reason(given))
    }
}
