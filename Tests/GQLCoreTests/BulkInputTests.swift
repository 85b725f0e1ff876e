import Synchronization
import Testing
@testable import GQLCore

/// Hands out the bytes in chunks of `size`, so that items straddle chunk boundaries.
private struct SmallChunks: ByteChunkSource {
    var bytes: [UInt8]
    let size: Int

    mutating func next() throws(FileReadError) -> [UInt8] {
        let chunk = Array(bytes.prefix(size))
        bytes.removeFirst(chunk.count)
        return chunk
    }
}

private func items(_ text: String, chunk: Int = 3) throws -> [(line: Int, text: String)] {
    var reader = BulkInputReader(source: SmallChunks(bytes: Array(text.utf8), size: chunk))
    var result: [(Int, String)] = []
    while let item = try reader.next() { result.append((item.line, String(decoding: item.bytes, as: UTF8.self))) }
    return result
}

@Suite struct BulkInputTests {
    @Test func ndjsonLinesAreItemsWithTheirLineNumbers() throws {
        let found = try items("{\"id\":\"a\"}\n\n{\"id\":\"b\", \"t\":\"}{\"}\r\n{\"id\":\"c\"}")
        #expect(found.map(\.line) == [1, 3, 4])
        #expect(found.map(\.text) == [#"{"id":"a"}"#, #"{"id":"b", "t":"}{"}"#, #"{"id":"c"}"#])
    }

    @Test func arrayElementsAreItems() throws {
        let found = try items("[\n  {\"id\": \"a\"},\n  {\"id\": [1, 2]},\n  \"c\"\n]\n")
        #expect(found.map(\.text) == [#"{"id": "a"}"#, #"{"id": [1, 2]}"#, #""c""#])
        #expect(found.map(\.line) == [2, 3, 4])
        #expect(try items("[]").isEmpty)
    }

    @Test func prettyValuesOneAfterAnotherAreItems() throws {
        let found = try items("{\n  \"id\": \"a\"\n}\n{\n  \"id\": \"b\"\n}\n")
        #expect(found.map(\.line) == [1, 4])
        #expect(try found.map { try JSONValue.parse($0.text)["id"]?.stringValue } == ["a", "b"])
    }

    @Test func aLineCutShortDoesNotSwallowTheNextRecord() throws {
        let found = try items("{\"id\": \"a\", \"t\": \n{\"id\": \"b\"}\n")
        #expect(found.count == 2)
        #expect(found[1].text == #"{"id": "b"}"#)
        var reader = BulkInputReader(source: BufferedChunks(Array("{\"id\":\n{\"id\":\"b\"}".utf8)))
        let first = try #require(try reader.next())
        #expect(throws: JSONParseError.self) { try first.parse() }
    }

    @Test func aBrokenArrayIsAnErrorWithItsPosition() throws {
        var reader = BulkInputReader(source: BufferedChunks(Array("[{\"a\":1}\n{\"a\":2}]".utf8)))
        _ = try reader.next()
        #expect(throws: BulkInputError.syntax(line: 2, column: 1, message: "expected ',' or ']' after an array element")) {
            try reader.next()
        }
        var unclosed = BulkInputReader(source: BufferedChunks(Array("[{\"a\":1}".utf8)))
        _ = try unclosed.next()
        #expect(throws: BulkInputError.self) { try unclosed.next() }
    }

    @Test func parseErrorsUseTheInputsLineNumbers() throws {
        var reader = BulkInputReader(source: BufferedChunks(Array("{}\n{}\n{\"a\": tru}\n".utf8)))
        _ = try reader.next()
        _ = try reader.next()
        let third = try #require(try reader.next())
        do {
            _ = try third.parse()
            Issue.record("expected a parse error")
        } catch {
            #expect(error.line == 3)
        }
    }

    /// The items of `text` as (line, column, text, parse error or nil).
    private func parsed(_ text: String, limit: Int = BulkInputItem.maximumSize) throws -> [(Int, Int, String, String?)] {
        var reader = BulkInputReader(source: SmallChunks(bytes: Array(text.utf8), size: 5), maximumItemSize: limit)
        var result: [(Int, Int, String, String?)] = []
        while let item = try reader.next() {
            var problem: String?
            do { _ = try item.parse() } catch { problem = error.description }
            result.append((item.line, item.column, item.isOversized ? "<oversized>" : String(decoding: item.bytes, as: UTF8.self), problem))
        }
        return result
    }

    @Test func aLineThatIsNotAllJSONIsOneItemWithItsTrueColumn() throws {
        let found = try parsed("{\"id\":\"a\"}\nnot json\n{\"id\":\"p0\",\"title\":\"x\"} trailing\n  {\"id\":\"b\"}\n")
        #expect(found.map(\.2) == [#"{"id":"a"}"#, "not json", #"{"id":"p0","title":"x"} trailing"#, #"{"id":"b"}"#])
        #expect(found[1].3 == "2:2: unexpected character 'o'; expected 'null'")
        #expect(found[2].3 == "3:25: unexpected character 't'; expected the end of the input after the JSON value")
        #expect(found[3].0 == 4 && found[3].1 == 3 && found[3].3 == nil)
    }

    @Test func binaryGarbageIsOneItemPerLine() throws {
        let found = try parsed("{}\n\u{01}\u{7f}{ \"x [\n\"\u{02}\n{}\n")
        #expect(found.map(\.0) == [1, 2, 3, 4])
        #expect(found.map { $0.3 == nil } == [true, false, false, true])
    }

    @Test func severalValuesOnALineAreItemsWhenAllParse() throws {
        let found = try parsed("{\"id\":\"a\"} {\"id\":\"b\"}{\"id\":\"c\"}\n\"k1\" \"k2\"\n")
        #expect(found.map(\.2) == [#"{"id":"a"}"#, #"{"id":"b"}"#, #"{"id":"c"}"#, #""k1""#, #""k2""#])
        #expect(found.map(\.1) == [1, 12, 22, 1, 6])
        #expect(found.allSatisfy { $0.3 == nil })
    }

    @Test func ndjsonLinesAreNeverJoinedOnceTheFirstRecordFitsItsLine() throws {
        // After a one-line first record, an unclosed line does not swallow the indented line after it.
        let found = try parsed("{\"a\":1}\n{\"b\": [1,\n  2]}\n{\"c\":3}\n")
        #expect(found.map(\.0) == [1, 2, 3, 4])
        #expect(found.map { $0.3 == nil } == [true, false, false, true])
    }

    @Test func aPrettyValueWithTrailingTextIsOneFailureAndTheNextValueIsRead() throws {
        let found = try parsed("{\n  \"id\": \"a\"\n}\n{\n  \"id\": \"b\"\n} junk\n{\n  \"id\": \"c\"\n}\n")
        #expect(found.map(\.0) == [1, 4, 7])
        #expect(found[1].3 == "6:3: unexpected character 'j'; expected the end of the input after the JSON value")
        #expect(found[0].3 == nil && found[2].3 == nil)
    }

    @Test func anObjectWrittenWithoutIndentationIsOneRecord() throws {
        let found = try parsed("{\n\"id\": \"a\",\n\"tags\": [\n\"x\"\n]\n}\n")
        #expect(found.count == 1 && found[0].3 == nil)
    }

    @Test func anOversizedRecordIsOneItemAndTheInputGoesOn() throws {
        let long = String(repeating: "x", count: 40)
        let found = try parsed("{\"a\":1}\n{\"t\":\"\(long)\"}\n{\"b\":2}\n", limit: 32)
        #expect(found.map(\.2) == [#"{"a":1}"#, "<oversized>", #"{"b":2}"#])
        #expect(found.map(\.0) == [1, 2, 3])
        // At the limit a line is kept; one byte over (a CR counts until the line is cut), it is read past.
        let fits = "{\"t\":\"" + String(repeating: "x", count: 24) + "\"}"
        let lines = try parsed("{\"a\":1}\n\(fits)\n\(fits)\r\n\(fits)x\n\(fits)", limit: 32)
        #expect(lines.map(\.2) == [#"{"a":1}"#, fits, "<oversized>", "<oversized>", fits])
        #expect(lines.map(\.0) == [1, 2, 3, 4, 5])
        var array = BulkInputReader(source: BufferedChunks(Array("[{\"t\":\"\(long)\"}, 1]".utf8)), maximumItemSize: 32)
        #expect(try array.next()?.isOversized == true)
        #expect(try array.next()?.bytes == [UInt8(ascii: "1")])
        #expect(try array.next() == nil)
    }

    @Test func anArrayElementsParseErrorHasItsTrueColumn() throws {
        var reader = BulkInputReader(source: BufferedChunks(Array("[1, {\"a\": tru}]".utf8)))
        _ = try reader.next()
        let second = try #require(try reader.next())
        #expect(throws: JSONParseError(message: "unexpected character '}'; expected 'true'", line: 1, column: 14, offset: 9)) {
            try second.parse()
        }
    }

    @Test func aRejectLineIsTheItemOnOneLine() throws {
        let item = BulkInputItem(index: 0, line: 1, bytes: Array("{\n  \"a\": 1\n}".utf8))
        #expect(String(decoding: item.rejectLine, as: UTF8.self) == "{\"a\":1}\n")
    }
}

/// A clock the test moves by hand.
private final class ManualClock: Sendable {
    let time = Mutex(1000.0)
    func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
    var now: Double { time.withLock { $0 } }
}

@Suite struct AdaptiveRateLimiterTests {
    @Test func noLimitUntilTheFirstThrottle() {
        let clock = ManualClock()
        let limiter = AdaptiveRateLimiter(now: { clock.now }, sleep: { clock.advance($0) })
        for _ in 0..<100 {
            limiter.beforeAttempt(cancellation: nil)
            limiter.afterAttempt(throttled: false)
        }
        #expect(limiter.rate == nil)
        #expect(clock.now == 1000)  // never waited
    }

    @Test func aThrottleCutsTheRateAndSuccessesClimbBackOnTheCubicCurve() {
        let clock = ManualClock()
        let limiter = AdaptiveRateLimiter(now: { clock.now }, sleep: { clock.advance($0) })
        // 40 requests a second for 3 seconds, measured in half-second buckets.
        for _ in 0..<120 {
            clock.advance(0.025)
            limiter.afterAttempt(throttled: false)
        }
        limiter.afterAttempt(throttled: true)
        let cut = limiter.rate ?? 0
        // botocore: the new rate is 0.7 × the measured send rate (about 40/s here).
        #expect(cut > 0.7 * 30 && cut < 0.7 * 45)
        // Waiting for tokens now takes time: the bucket is on.
        let before = clock.now
        for _ in 0..<10 { limiter.beforeAttempt(cancellation: nil) }
        #expect(clock.now > before)
        // Successes over the next seconds bring the rate back up past where it was cut.
        for _ in 0..<200 {
            clock.advance(0.02)
            limiter.afterAttempt(throttled: false)
        }
        #expect((limiter.rate ?? 0) > cut)
        // A round of answers with throttles in it cuts again, from the current rate.
        let high = limiter.rate ?? 0
        for _ in 0..<AdaptiveRateLimiter.roundLength {
            clock.advance(0.02)
            limiter.afterAttempt(throttled: true)
        }
        #expect((limiter.rate ?? 0) < high)
    }

    @Test func theRateNeverFallsBelowHalfARequestPerSecond() {
        let clock = ManualClock()
        let limiter = AdaptiveRateLimiter(now: { clock.now }, sleep: { clock.advance($0) })
        for _ in 0..<(20 * AdaptiveRateLimiter.roundLength) { limiter.afterAttempt(throttled: true) }
        #expect(limiter.rate == 0.5)
    }
}
