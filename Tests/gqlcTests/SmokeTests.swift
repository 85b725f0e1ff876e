import Testing
@testable import gqlc

@Suite struct FrontendSmokeTests {
    @Test func executableTargetIsImportable() {
        #expect(Bool(true))
    }
}
