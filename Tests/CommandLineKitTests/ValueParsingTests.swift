import CommandLineKit
import Testing

/// Option values as numbers, with errors that quote the option and the value.
@Suite struct ValueParsingTests {
    static let limit = OptionSpec(long: "limit", value: "N", help: "")

    @Test func numbers() throws {
        let limit = Self.limit
        #expect(try ValueParsing.positiveInteger("12", for: limit) == 12)
        for bad in ["0", "-1", "abc", "1.5", "", "+3", " 3", "99999999999999999999"] {
            #expect(throws: UsageError.self) { try ValueParsing.positiveInteger(bad, for: limit) }
        }
        #expect(try ValueParsing.nonNegativeInteger("0", for: limit) == 0)
        #expect(try ValueParsing.positiveSeconds("2.5", for: limit, atMost: 60) == 2.5)
        for bad in ["0", "-1", "inf", "nan", "1e3", "."] {
            #expect(throws: UsageError.self) { try ValueParsing.positiveSeconds(bad, for: limit, atMost: 60) }
        }
    }

    @Test func errorsQuoteTheOptionTheValueAndWhatWasExpected() {
        #expect(throws: UsageError("invalid value '-3' for '--limit': expected a whole number of at least 1")) {
            try ValueParsing.positiveInteger("-3", for: Self.limit)
        }
        #expect(throws: UsageError("invalid value '61' for '--limit': expected at most 60 seconds (a minute)")) {
            try ValueParsing.positiveSeconds("61", for: Self.limit, atMost: 60, maximumName: "a minute")
        }
        #expect(throws: UsageError("invalid value '90.5' for '--limit': expected at most 90 seconds")) {
            try ValueParsing.positiveSeconds("90.5", for: Self.limit, atMost: 90)
        }
        #expect(ValueParsing.text(seconds: 30) == "30" && ValueParsing.text(seconds: 2.5) == "2.5")
    }

    @Test func commaSeparatedListsAreSplitTrimmedAndDeduplicated() throws {
        let fields = OptionSpec(long: "fields", value: "A,B", repeatable: true, help: "")
        #expect(try ValueParsing.commaSeparated(["title, rating", "id,title", " blog.name\t"], for: fields, item: "field name", example: "a,b")
            == ["title", "rating", "id", "blog.name"])
        #expect(try ValueParsing.commaSeparated([], for: fields, item: "field name", example: "a,b").isEmpty)
        #expect(throws: UsageError("option '--fields' has an empty field name in 'a,,b'; write names like a,b")) {
            try ValueParsing.commaSeparated(["a", "a,,b"], for: fields, item: "field name", example: "a,b")
        }
        #expect(throws: UsageError("option '--fields' has an empty field name in ' '; write names like a,b")) {
            try ValueParsing.commaSeparated([" "], for: fields, item: "field name", example: "a,b")
        }
    }

    @Test func parsedOptionsGiveCheckedValuesOrNilWhenAbsent() throws {
        let limit = OptionSpec(long: "limit", value: "N", help: "")
        let token = OptionSpec(long: "next-token", value: "T", help: "")
        var options = ParsedOptions()
        #expect(try options.positiveInteger(limit) == nil)
        #expect(try options.nonEmptyValue(token) == nil)
        options.record(limit, value: "12")
        options.record(token, value: "-abc")
        #expect(try options.positiveInteger(limit) == 12)
        #expect(try options.nonEmptyValue(token) == "-abc")
        options.replace(limit, value: "0")
        options.replace(token, value: "")
        #expect(throws: UsageError("invalid value '0' for '--limit': expected a whole number of at least 1")) {
            try options.positiveInteger(limit)
        }
        #expect(throws: UsageError("option '--next-token' needs a non-empty value")) { try options.nonEmptyValue(token) }
    }

    @Test func optionsThatRuleEachOtherOutAreRefusedNamingTheFirstGiven() throws {
        let (count, limit, token) = (
            OptionSpec(long: "count", help: ""), OptionSpec(long: "limit", value: "N", help: ""), OptionSpec(long: "next-token", value: "T", help: ""))
        var options = ParsedOptions()
        options.record(count, value: "")
        try options.expectAbsent([limit, token]) { "no \($0.flagName)" }
        try options.expectExclusive(count, limit)
        options.record(token, value: "t")
        options.record(limit, value: "3")
        #expect(throws: UsageError("no --limit")) { try options.expectAbsent([limit, token]) { "no \($0.flagName)" } }
        #expect(throws: UsageError("options '--count' and '--limit' cannot be used together")) { try options.expectExclusive(count, limit) }
    }
}
