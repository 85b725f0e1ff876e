import Testing

@testable import gqlc

@Suite struct FrontendTests {
    @Test func runnableCommandsReachTheRunnerWithTheirExitCode() {
        let runner = RecordingRunner(exitCode: .notFound)
        let result = runGQLC(
            ["get", "Post", "--id", "p1", "--dry-run"], environment: ["GQLC_API_KEY": "k"], runner: runner)
        #expect(result.code == .notFound)
        #expect(result.output == "ran get\n")
        let received = runner.invocations
        #expect(received.count == 1)
        #expect(received.first?.command == .get(GetInvocation(model: "Post", record: .id("p1"), includes: [], followIncludedLists: true)))
        #expect(received.first?.globals.dryRun == true)
        #expect(received.first?.globals.context.apiKey?.value.value == "k")
    }

    @Test(arguments: [["help"], ["--version"], ["lsit"], ["get", "--help"], ["get"]])
    func helpVersionAndErrorsNeverRun(arguments: [String]) {
        let runner = RecordingRunner()
        _ = runGQLC(arguments, runner: runner)
        #expect(runner.invocations.isEmpty)
    }

    @Test func exitCodesMatchTheOverview() {
        #expect(ExitCode.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 130, 141, 143])
    }
}
