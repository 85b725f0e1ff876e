import Testing

@testable import gqlc

@Suite struct DiagnosticsTests {
    /// A 400-character CJK message is 1,200 bytes of UTF-8: short enough to print whole. Deciding by bytes and
    /// cutting by scalars printed it as 729 characters, "(-500 characters omitted)" and its tail repeated.
    @Test func aFourHundredCharacterCJKMessageIsPrintedWhole() {
        let message = String(repeating: "服务器错误", count: 80)
        #expect(message.count == 400 && message.utf8.count == 1200)
        #expect(message.oneLine(cut: .middle(Diagnostics.maximumLength)) == message)
        #expect(Diagnostics.oneLine(message) == message)
    }

    @Test(arguments: ["x", "é", "服", "🙂", "👩‍👩‍👧"])
    func aLongMessageKeepsItsStartAndEndAndCountsWhatItOmits(unit: String) {
        let head = "<" + String(repeating: unit, count: 599)
        let tail = String(repeating: unit, count: 299) + ">"
        let short = Diagnostics.oneLine(head + String(repeating: unit, count: 1100) + tail)
        #expect(short == head + "… (1100 characters omitted) …" + tail)
    }

    @Test func aMessageAtTheLimitIsKeptAndOneMoreCharacterShortensIt() {
        let limit = String(repeating: "字", count: Diagnostics.maximumLength)
        #expect(Diagnostics.oneLine(limit) == limit)
        #expect(Diagnostics.oneLine(limit + "字").contains("(101 characters omitted)"))
    }
}
