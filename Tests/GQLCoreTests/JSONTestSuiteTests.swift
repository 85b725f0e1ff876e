import Foundation
import Testing
@testable import GQLCore

/// The JSON parser against JSONTestSuite (github.com/nst/JSONTestSuite, `test_parsing/`), an independent
/// reference: every `y_` file must parse, every `n_` file must be refused with a located one-line error, and each
/// `i_` file (where RFC 8259 lets a parser choose) goes the way pinned in ``implementationDefined``.
///
/// The suite lives beside the shared Amplify fixtures (`shared/fixtures/jsontestsuite`), never in the project;
/// `$GQLC_JSONTESTSUITE` points elsewhere. Without it these tests are skipped, saying where they looked.
@Suite(.enabled(if: JSONTestSuiteFiles.available, JSONTestSuiteFiles.missingNote))
struct JSONTestSuiteTests {
    static func files(prefix: String) -> [String] { JSONTestSuiteFiles.names(prefix: prefix) }

    static func outcome(_ name: String) throws -> Result<JSONValue, JSONParseError> {
        let bytes = try JSONTestSuiteFiles.bytes(name)
        return Result { () throws(JSONParseError) in try JSONValue.parse(bytes) }
    }

    /// How each implementation-defined case goes: `true` accepted, `false` refused.
    /// Numbers are kept as written, whatever their size, so gqlc never rounds an id or a count; text must be
    /// well-formed UTF-8 without lone surrogates (escaped or not), so a value gqlc prints is valid UTF-8;
    /// a UTF-8 byte order mark is skipped, UTF-16 is refused; nesting deeper than 512 is refused.
    static let implementationDefined: [String: Bool] = [
        "i_number_double_huge_neg_exp.json": true,
        "i_number_huge_exp.json": true,
        "i_number_neg_int_huge_exp.json": true,
        "i_number_pos_double_huge_exp.json": true,
        "i_number_real_neg_overflow.json": true,
        "i_number_real_pos_overflow.json": true,
        "i_number_real_underflow.json": true,
        "i_number_too_big_neg_int.json": true,
        "i_number_too_big_pos_int.json": true,
        "i_number_very_big_negative_int.json": true,
        "i_object_key_lone_2nd_surrogate.json": false,
        "i_string_1st_surrogate_but_2nd_missing.json": false,
        "i_string_1st_valid_surrogate_2nd_invalid.json": false,
        "i_string_UTF-16LE_with_BOM.json": false,
        "i_string_UTF-8_invalid_sequence.json": false,
        "i_string_UTF8_surrogate_U+D800.json": false,
        "i_string_incomplete_surrogate_and_escape_valid.json": false,
        "i_string_incomplete_surrogate_pair.json": false,
        "i_string_incomplete_surrogates_escape_valid.json": false,
        "i_string_invalid_lonely_surrogate.json": false,
        "i_string_invalid_surrogate.json": false,
        "i_string_invalid_utf-8.json": false,
        "i_string_inverted_surrogates_U+1D11E.json": false,
        "i_string_iso_latin_1.json": false,
        "i_string_lone_second_surrogate.json": false,
        "i_string_lone_utf8_continuation_byte.json": false,
        "i_string_not_in_unicode_range.json": false,
        "i_string_overlong_sequence_2_bytes.json": false,
        "i_string_overlong_sequence_6_bytes.json": false,
        "i_string_overlong_sequence_6_bytes_null.json": false,
        "i_string_truncated-utf-8.json": false,
        "i_string_utf16BE_no_BOM.json": false,
        "i_string_utf16LE_no_BOM.json": false,
        "i_structure_500_nested_arrays.json": true,
        "i_structure_UTF-8_BOM_empty_object.json": true,
    ]

    @Test func theSuiteIsThereWhole() {
        #expect(Self.files(prefix: "y_").count >= 95)
        #expect(Self.files(prefix: "n_").count >= 188)
        #expect(Set(Self.files(prefix: "i_")) == Set(Self.implementationDefined.keys))
    }

    @Test(arguments: files(prefix: "y_"))
    func acceptsWhatJSONAllows(name: String) throws {
        switch try Self.outcome(name) {
        case .success(let value):
            // What parses writes out as JSON that parses back to the same value.
            #expect(try JSONValue.parse(value.serialized(.compact)) == value, "\(name)")
        case .failure(let error):
            Issue.record("\(name) refused: \(error)")
        }
    }

    @Test(arguments: files(prefix: "n_"))
    func refusesWhatJSONForbidsWithALocatedOneLineError(name: String) throws {
        let bytes = try JSONTestSuiteFiles.bytes(name)
        switch try Self.outcome(name) {
        case .success(let value):
            Issue.record("\(name) accepted as \(value.serialized(.compact).prefix(80))")
        case .failure(let error):
            #expect(isOneLine(error.description), "\(name): \(error.description)")
            #expect(error.line >= 1 && error.column >= 1 && error.offset <= bytes.count, "\(name): \(error)")
        }
    }

    @Test(arguments: files(prefix: "i_"))
    func implementationDefinedCasesGoThePinnedWay(name: String) throws {
        let expected = try #require(Self.implementationDefined[name] as Bool?, "\(name) is new: pin which way it goes")
        switch try Self.outcome(name) {
        case .success(let value):
            #expect(expected, "\(name) accepted, pinned as refused")
            #expect(try JSONValue.parse(value.serialized(.compact)) == value, "\(name)")
        case .failure(let error):
            #expect(!expected, "\(name) refused, pinned as accepted: \(error)")
            #expect(isOneLine(error.description), "\(name): \(error.description)")
        }
    }
}

/// Where JSONTestSuite's `test_parsing/` files are.
enum JSONTestSuiteFiles {
    static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["GQLC_JSONTESTSUITE"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return TestPaths.sharedFixtures.deletingLastPathComponent().appendingPathComponent("jsontestsuite")
    }

    static var parsingDirectory: URL { directory.appendingPathComponent("test_parsing") }
    static var available: Bool { FileManager.default.fileExists(atPath: parsingDirectory.path) }
    static var missingNote: Comment {
        "JSONTestSuite not found at \(parsingDirectory.path); set GQLC_JSONTESTSUITE to its folder to run these tests"
    }

    static func names(prefix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parsingDirectory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: parsingDirectory.appendingPathComponent(name)))
    }
}
