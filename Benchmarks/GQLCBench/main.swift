import Foundation
import GQLCore

/// GQLCBench: throughput benchmarks for gqlc's core, run by `make bench`. The interface below is stable.
let usage = """
    usage:
      GQLCBench make-list-response FILE [--mb N]
          Writes a deterministic AppSync-style list response
          ({"data":{"listPosts":{"items":[...],"nextToken":"..."}}}) of about N MB (default 50), compact.
      GQLCBench json FILE [--runs N]
          Parses FILE and writes it back as compact JSON, N times (default 5), and prints the medians:
            parse_mbps=<MB/s> write_mbps=<MB/s> parse_ms=<ms> write_ms=<ms> bytes=<input size>
          then one line for people. MB is 10^6 bytes. Build with -c release for meaningful numbers.
      GQLCBench --help
    """

struct UsageError: Error, CustomStringConvertible {
    let description: String
}

/// Reads `--name VALUE` as a positive integer, or `fallback` when absent.
func positiveOption(_ name: String, in arguments: [String], default fallback: Int) throws -> Int {
    guard let index = arguments.firstIndex(of: name) else { return fallback }
    guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
        throw UsageError(description: "\(name) needs a positive whole number, e.g. \(name) \(fallback)")
    }
    return value
}

func runCommand(_ arguments: [String]) throws {
    guard let command = arguments.first, command != "--help", command != "-h", command != "help" else {
        print(usage)
        return
    }
    let rest = Array(arguments.dropFirst())
    guard let path = rest.first, !path.hasPrefix("--") else {
        throw UsageError(description: "'\(command)' needs a FILE argument")
    }
    let known: Set<String> = command == "json" ? ["--runs"] : ["--mb"]
    var position = 1
    while position < rest.count {
        guard known.contains(rest[position]) else {
            throw UsageError(description: "unknown option '\(rest[position])' for '\(command)'")
        }
        position += 2
    }
    switch command {
    case "make-list-response":
        let megabytes = try positiveOption("--mb", in: rest, default: 50)
        var generator = ListResponseGenerator()
        let response = generator.makeResponse(targetBytes: megabytes * 1_000_000)
        var writer = JSONWriter(style: .compact)
        writer.write(response)
        do { try Data(writer.bytes).write(to: URL(fileURLWithPath: path)) } catch {
            throw UsageError(description: "cannot write \(path): \(error.localizedDescription)")
        }
        print("wrote \(writer.bytes.count) bytes to \(path)")
    case "json":
        let runs = try positiveOption("--runs", in: rest, default: 5)
        let result = try JSONBenchmark(path: path, runs: runs).run()
        print(result.machineLine)
        print(result.humanLine)
    default:
        let suggestion = Suggestions.didYouMean(command, in: ["make-list-response", "json"])
        throw UsageError(description: "unknown command '\(command)'" + (suggestion.isEmpty ? "; see --help" : suggestion))
    }
}

do {
    try runCommand(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("GQLCBench: \(error)\n".utf8))
    exit(2)
}
