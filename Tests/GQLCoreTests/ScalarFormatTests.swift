import Testing
@testable import GQLCore

/// The AWS scalar formats, with the examples of AppSync's scalar reference
/// (https://docs.aws.amazon.com/appsync/latest/devguide/scalars.html, "AWS AppSync scalars") and
/// of the scalar descriptions AppSync puts in its SDL (quoted in awslabs/graphql-schema-utilities#15).
@Suite struct ScalarFormatTests {
    // AWSDate: "1970-01-01Z, 1970-01-01-07:00 and 1970-01-01+05:30 are all valid dates"; the offset is
    // Z or ±hh:mm:ss, "the seconds field in the timezone offset will be considered valid".
    @Test(arguments: ["1970-01-01", "1970-01-01Z", "1970-01-01-07:00", "1970-01-01+05:30", "1970-01-01+05:30:15", "2024-02-29"])
    func validDates(_ text: String) { #expect(ScalarFormat.date.accepts(text)) }

    @Test(arguments: ["1970-1-1", "1970-13-01", "2023-02-29", "1970-01-01T00:00Z", "19700101", "1970-01-01+5:30",
                      "1970-01-01+25:00", "yesterday", "", "1970-01-01 "])
    func invalidDates(_ text: String) { #expect(!ScalarFormat.date.accepts(text)) }

    // AWSTime: "hh:mm:ss.sss", "the field after the seconds field is a nanoseconds field", optional offset.
    @Test(arguments: ["12:30", "12:30:24", "12:30:24.500", "12:30:24.123456789", "12:30:24Z", "12:30:24-07:00", "23:59:59+05:30:00"])
    func validTimes(_ text: String) { #expect(ScalarFormat.time.accepts(text)) }

    @Test(arguments: ["24:00", "12:60", "12:30:61", "12:30:24.", "12:30:24.1234567890", "1230", "12:30:24+0700", "noon"])
    func invalidTimes(_ text: String) { #expect(!ScalarFormat.time.accepts(text)) }

    // AWSDateTime: "YYYY-MM-DDThh:mm:ss.sssZ"; "the time zone offset is compulsory for this scalar".
    @Test(arguments: ["1970-01-01T12:00:00.000Z", "1930-01-01T16:00:00-07:00", "2025-01-31T09:30Z", "2025-01-31T09:30:00.123456+05:30:00"])
    func validDateTimes(_ text: String) { #expect(ScalarFormat.dateTime.accepts(text)) }

    @Test(arguments: ["1970-01-01T12:00:00", "1970-01-01", "1970-01-01 12:00:00Z", "1970-01-01t12:00:00z", "2025-02-30T00:00:00Z", "now"])
    func invalidDateTimes(_ text: String) { #expect(!ScalarFormat.dateTime.accepts(text)) }

    // AWSEmail: "local-part@domain-part as defined by RFC 822", e.g. username@example.com.
    @Test(arguments: ["username@example.com", "first.last+tag@mail.example.co.uk", "x@y.z"])
    func validEmails(_ text: String) { #expect(ScalarFormat.email.accepts(text)) }

    @Test(arguments: ["username", "@example.com", "user@", "user@example", "a@b@example.com", "user name@example.com", "user@example."])
    func invalidEmails(_ text: String) { #expect(!ScalarFormat.email.accepts(text)) }

    // AWSURL: "https://www.amazon.com/dp/B000NZW3KC/ or mailto:example@example.com. URLs must contain a
    // schema (http, mailto) and can't contain two forward slashes (//) in the path part".
    @Test(arguments: ["https://www.amazon.com/dp/B000NZW3KC/", "mailto:example@example.com", "http://localhost:8080/a?b=//c"])
    func validURLs(_ text: String) { #expect(ScalarFormat.url.accepts(text)) }

    @Test(arguments: ["www.amazon.com", "https://www.amazon.com//dp", "https:///path", "https://exa mple.com", "1http://x", "https:"])
    func invalidURLs(_ text: String) { #expect(!ScalarFormat.url.accepts(text)) }

    // AWSPhone: "can contain either spaces or hyphens to separate digit groups"; a country code is optional.
    @Test(arguments: ["+1 206-555-0100", "206-555-0100", "(206) 555 0100", "+44 20 7946 0958", "555.0100"])
    func validPhones(_ text: String) { #expect(ScalarFormat.phone.accepts(text)) }

    @Test(arguments: ["call me", "+", "12", "206-555-0100 ext. 5", "++1 206"])
    func invalidPhones(_ text: String) { #expect(!ScalarFormat.phone.accepts(text)) }

    // AWSIPAddress: "IPv4 addresses are expected in quad-dotted notation (123.12.34.56). IPv6 addresses are
    // expected in non-bracketed, colon-separated format (1a2b:3c4b::1234:4567). You can include an optional
    // CIDR suffix (123.45.67.89/16) to indicate subnet mask."
    @Test(arguments: ["123.12.34.56", "1a2b:3c4b::1234:4567", "123.45.67.89/16", "1a2b:3c4b::1234:4567/64", "::", "::1",
                      "::ffff:192.0.2.1", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "0.0.0.0/0", "2001:db8::/128"])
    func validIPAddresses(_ text: String) { #expect(ScalarFormat.ipAddress.accepts(text)) }

    @Test(arguments: ["256.1.1.1", "1.2.3", "01.2.3.4", "[::1]", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "1.2.3.4/33",
                      "::1/129", "1.2.3.4/", "fe80::1%eth0", "1.2.3.4/255.255.0.0", "localhost"])
    func invalidIPAddresses(_ text: String) { #expect(!ScalarFormat.ipAddress.accepts(text)) }

    // Int: "an integer value between -(2^31) and 2^31-1"; Float: "an IEEE 754 floating point value".
    @Test func intsAre32BitAndFloatsFinite() throws {
        #expect(throws: RequestBuildError.outOfRange("2147483648", type: "Int")) {
            try ValueCoercion.coerce("2147483648", as: .int, allowNull: false)
        }
        #expect(throws: RequestBuildError.invalidValue("1e999", expected: "Float", suggestion: nil)) {
            try ValueCoercion.coerce("1e999", as: .float, allowNull: false)
        }
        // The same number given as JSON (`ratio:=1e999`, --input) is valid JSON, but no Float.
        let ratio = ModelField(name: "ratio", type: .scalar("Float"))
        let schema = ModelSchema()
        #expect(throws: RequestBuildError.atPath("ratio", error: .outOfRange("1e999", type: "Float"))) {
            try ValueCoercion.check(.number(JSONNumber("1e999")!), for: ratio, path: "ratio", schema: schema)
        }
        #expect(try ValueCoercion.check(.number(JSONNumber("-1.5e308")!), for: ratio, path: "ratio", schema: schema)
                == .number(JSONNumber("-1.5e308")!))
    }

    /// An AWSTimestamp is whole seconds; a word or a date says so, with an example.
    @Test func timestampsAreWholeSeconds() {
        for text in ["now", "1.5", "2025-01-31"] {
            #expect(throws: RequestBuildError.invalidValue(text, expected: ValueCoercion.timestampForm, suggestion: nil)) {
                try ValueCoercion.coerce(text, as: .long, allowNull: false)
            }
        }
        #expect(RequestBuildError.invalidValue("now", expected: ValueCoercion.timestampForm, suggestion: nil).description
                == "'now' is not an AWSTimestamp (whole seconds since 1970-01-01T00:00:00Z, for example 1700000000)")
    }

    @Test func errorsNameTheFieldTheValueAndAValidExample() throws {
        let field = ModelField(name: "email", type: .scalar("AWSEmail"))
        let schema = ModelSchema()
        #expect(throws: RequestBuildError.invalidFormat("bob", field: "email", format: .email)) {
            try ValueCoercion.coerce("bob", for: field, schema: schema, allowNull: false)
        }
        #expect(RequestBuildError.invalidFormat("bob", field: "email", format: .email).description
            == "'bob' is not a valid AWSEmail for 'email'; for example someone@example.com")
        #expect(RequestBuildError.invalidFormat("yesterday", field: "createdAt", format: .dateTime).description
            == "'yesterday' is not a valid AWSDateTime for 'createdAt'; relative dates are not supported, give "
            + "2025-01-31T09:30:00Z, 2025-01-31T09:30:00.123+02:00, or in a filter a date 2025-01-31 (start of that day, UTC)")
        // JSON values are checked by the same rules, and named by their path.
        #expect(throws: RequestBuildError.invalidFormat("x", field: "contact.site", format: .url)) {
            try ValueCoercion.check("x", for: ModelField(name: "site", type: .scalar("AWSURL")), path: "contact.site", schema: schema)
        }
        #expect(try ValueCoercion.coerce("null", for: field, schema: schema, allowNull: true) == .null)
    }
}
