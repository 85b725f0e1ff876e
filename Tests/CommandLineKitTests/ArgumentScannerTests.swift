import CommandLineKit
import Testing

/// The generic tokenizer, exercised on a small made-up command set so that each convention is isolated.
@Suite struct ArgumentScannerTests {
    static let verbose = OptionSpec(long: "verbose", short: "v", help: "")
    static let quiet = OptionSpec(long: "quiet", short: "q", help: "")
    static let header = OptionSpec(long: "header", short: "H", value: "LINE", repeatable: true, help: "")
    static let name = OptionSpec(long: "name", value: "NAME", help: "")
    static let count = OptionSpec(long: "count", value: "N", help: "")
    static let tag = OptionSpec(long: "tag", value: "T", repeatable: true, help: "")
    static let dryRun = OptionSpec(long: "dry-run", help: "")
    static let token = OptionSpec(long: "token", value: "T", valueMayStartWithDash: true, help: "")
    static let run = CommandSpec(
        name: "run", abstract: "", synopsis: ["ARG..."], options: [name, count, tag, dryRun, token])
    static let stop = CommandSpec(name: "stop", abstract: "", synopsis: [], options: [])

    func scan(_ arguments: [String]) throws(UsageError) -> ScannedCommandLine {
        var scanner = ArgumentScanner(
            programName: "tool", globalOptions: [Self.verbose, Self.quiet, Self.header], commands: [Self.run, Self.stop])
        return try scanner.scan(arguments)
    }

    func error(_ arguments: [String]) -> String? {
        do {
            _ = try scan(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func separateAndAttachedValuesAreTheSame() throws {
        let separate = try scan(["run", "--name", "a b", "--count", "3"])
        let attached = try scan(["run", "--name=a b", "--count=3"])
        #expect(separate.options == attached.options)
        #expect(separate.options.value(Self.name) == "a b")
        #expect(separate.options.value(Self.count) == "3")
    }

    @Test func attachedValueMayContainEqualsOrBeEmpty() throws {
        let scanned = try scan(["run", "--name=a=b", "--tag="])
        #expect(scanned.options.value(Self.name) == "a=b")
        #expect(scanned.options.values(Self.tag) == [""])
    }

    @Test func repeatableOptionsKeepEveryValueInOrder() throws {
        let scanned = try scan(["run", "--tag", "b", "--tag=a", "-H", "X: 1", "--header", "Y: 2"])
        #expect(scanned.options.values(Self.tag) == ["b", "a"])
        #expect(scanned.options.values(Self.header) == ["X: 1", "Y: 2"])
    }

    @Test func positionalsAndOptionsInterleave() throws {
        let scanned = try scan(["run", "one", "--count", "2", "two", "--dry-run", "three"])
        #expect(scanned.command?.name == "run")
        #expect(scanned.positionals == ["one", "two", "three"])
        #expect(scanned.options.contains(Self.dryRun))
    }

    @Test func doubleDashMakesEverythingAfterItPositional() throws {
        let scanned = try scan(["run", "--count", "1", "--", "--name", "-v", "--", "x"])
        #expect(scanned.positionals == ["--name", "-v", "--", "x"])
        #expect(!scanned.options.contains(Self.name))
        #expect(!scanned.options.contains(Self.verbose))
    }

    @Test func commandNameMayFollowDoubleDash() throws {
        let scanned = try scan(["-v", "--", "run", "-x"])
        #expect(scanned.command?.name == "run")
        #expect(scanned.positionals == ["-x"])
    }

    @Test func loneDashIsPositional() throws {
        #expect(try scan(["run", "-", "--name", "n"]).positionals == ["-"])
        #expect(try scan(["run", "--name", "-"]).options.value(Self.name) == "-")
    }

    @Test func globalsWorkBeforeAndAfterTheCommand() throws {
        let before = try scan(["-v", "-H", "A: b", "run", "x"])
        let after = try scan(["run", "x", "-v", "-H", "A: b"])
        #expect(before.options == after.options)
        #expect(before.positionals == after.positionals)
    }

    @Test func shortSwitchesBundleAndShortValuesAttach() throws {
        let bundled = try scan(["-vq", "run"])
        #expect(bundled.options.contains(Self.verbose) && bundled.options.contains(Self.quiet))
        #expect(try scan(["-HX-A: 1", "run"]).options.values(Self.header) == ["X-A: 1"])
        #expect(try scan(["-H=X-A: 1", "run"]).options.values(Self.header) == ["X-A: 1"])
        #expect(try scan(["-vHX: 1", "run"]).options.values(Self.header) == ["X: 1"])
    }

    @Test func negativeNumbersAreValuesButOtherDashWordsAreNot() throws {
        #expect(try scan(["run", "--count", "-3"]).options.value(Self.count) == "-3")
        #expect(try scan(["run", "--count", "-0.5"]).options.value(Self.count) == "-0.5")
        #expect(error(["run", "--count", "-v"]) == "option '--count' needs a value (--count N); write '--count=-v' if '-v' is the value")
        #expect(try scan(["run", "--name=-v"]).options.value(Self.name) == "-v")
    }

    @Test func opaqueValuesMayStartWithADash() throws {
        #expect(try scan(["run", "--token", "-AbC_9", "x"]).options.value(Self.token) == "-AbC_9")
        #expect(try scan(["run", "--token", "--verbose"]).options.value(Self.token) == "--verbose")
    }

    @Test func switchesRepeatHarmlesslyAndTheLastSingleValueWins() throws {
        #expect(try scan(["-v", "run", "-v", "--verbose"]).options.contains(Self.verbose))
        #expect(try scan(["run", "--name", "a", "--name", "b"]).options.values(Self.name) == ["b"])
    }

    @Test func errorsNameTheProblem() {
        #expect(error(["run", "--count"]) == "option '--count' needs a value (--count N)")
        #expect(error(["run", "--dry-run=yes"]) == "option '--dry-run' takes no value (got '--dry-run=yes')")
        #expect(error(["run", "-v=1"]) == "option '-v' takes no value (got '-v=1')")
        #expect(error(["rnu"]) == "unknown command 'rnu'; did you mean 'run'?")
        #expect(error(["zzzzzz"]) == "unknown command 'zzzzzz'; run 'tool help' for the list of commands")
        #expect(error(["run", "--cuont", "1"]) == "unknown option '--cuont'; did you mean '--count'?")
        #expect(error(["run", "--xyzzy"]) == "unknown option '--xyzzy' for 'run'; run 'tool run --help' for its options")
        #expect(error(["run", "-z"]) == "unknown option '-z' for 'run'; run 'tool run --help' for its options")
        #expect(error(["run", "-vz"]) == "unknown option '-z' (in '-vz') for 'run'; run 'tool run --help' for its options")
        #expect(error(["run", "-count", "1"]) == "unknown option '-count'; did you mean '--count'?")
    }

    @Test func commandOptionsBeforeTheCommandAreExplained() {
        #expect(error(["--count", "1", "run"]) == "option '--count' belongs after the command, as in 'tool run --count N'")
        #expect(error(["--verbos", "run"]) == "unknown option '--verbos'; did you mean '--verbose'?")
        #expect(error(["--xyzzy", "run"]) == "unknown option '--xyzzy'; run 'tool help' for the options")
    }

    @Test func synonymsFromOtherToolsComeBeforeSpelling() throws {
        var scanner = ArgumentScanner(
            programName: "tool", globalOptions: [Self.verbose], commands: [Self.run],
            suggestions: FlagSuggestions(synonyms: ["number": "count", "loud": "verbose"]))
        #expect(throws: UsageError("unknown option '--number'; did you mean '--count'?")) { try scanner.scan(["run", "--number", "1"]) }
        #expect(throws: UsageError("unknown option '--loud'; did you mean '--verbose'?")) { try scanner.scan(["--loud", "run"]) }
        // Without the synonym, `--number` is too far from `--count` to be suggested.
        #expect(error(["run", "--number", "1"]) == "unknown option '--number' for 'run'; run 'tool run --help' for its options")
    }

    @Test func fieldValuesGivenAsOptionsAreExplained() throws {
        let set = CommandSpec(
            name: "set", abstract: "", synopsis: ["FIELD=VALUE..."],
            arguments: [ArgumentSpec(name: "FIELD=VALUE", help: "")], options: [Self.name, OptionSpec(long: "idle", help: "")])
        var scanner = ArgumentScanner(
            programName: "tool", globalOptions: [], commands: [set], assignmentWords: ["id"], assignmentWrappers: ["key"])
        func message(_ arguments: [String]) -> String? {
            do { _ = try scanner.scan(arguments) } catch { return error.message }
            return nil
        }
        #expect(message(["set", "--color", "red"]) == "unknown option '--color' for 'set'; give fields as FIELD=VALUE: 'color=red'")
        #expect(message(["set", "--size"]) == "unknown option '--size' for 'set'; give fields as FIELD=VALUE: 'size=VALUE'")
        // Close to an option: the option is suggested, unless the word is an assignment word.
        #expect(message(["set", "--nam", "x"]) == "unknown option '--nam'; did you mean '--name'?")
        #expect(message(["set", "--idl"]) == "unknown option '--idl'; did you mean '--idle'?")
        #expect(message(["set", "--id", "u1"]) == "unknown option '--id' for 'set'; give fields as FIELD=VALUE: 'id=u1'")
        #expect(message(["set", "--id", "a=b"]) == "unknown option '--id' for 'set'; give fields as FIELD=VALUE: 'id=a=b'")
        #expect(message(["set", "--key", "id=u1"]) == "unknown option '--key' for 'set'; give fields as FIELD=VALUE: 'id=u1'")
        #expect(message(["set", "--key", "u1"]) == "unknown option '--key' for 'set'; give fields as FIELD=VALUE: 'key=u1'")
        // Not a field name.
        #expect(message(["set", "--2x"]) == "unknown option '--2x' for 'set'; run 'tool set --help' for its options")
    }

    @Test func aWordOfItsOwnBeforeDoubleDashMentionsAnOption() {
        #expect(ArgumentScanner.mentions([Self.verbose], in: ["run", "--cuont", "-v"]))
        #expect(ArgumentScanner.mentions([Self.quiet, Self.verbose], in: ["--verbose"]))
        #expect(!ArgumentScanner.mentions([Self.verbose], in: ["run", "--", "-v"]))
        #expect(!ArgumentScanner.mentions([Self.verbose], in: ["run", "-vq", "--verbose=1"]))
    }

    @Test func optionsOfTheCommandAreUnknownBeforeItIsNamed() {
        // `stop` has no options, so `--count` after it is unknown even though `run` has it.
        #expect(error(["stop", "--count", "1"]) == "unknown option '--count' for 'stop'; run 'tool stop --help' for its options")
    }
}
