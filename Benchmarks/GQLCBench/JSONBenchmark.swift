import Dispatch
import Foundation
import GQLCore

/// Times `JSONValue.parse` and the compact `JSONWriter` on one file.
struct JSONBenchmark {
    struct Result {
        var inputBytes: Int
        var outputBytes: Int
        var parseNanoseconds: UInt64
        var writeNanoseconds: UInt64

        var parseMBps: Double { megabytesPerSecond(inputBytes, parseNanoseconds) }
        var writeMBps: Double { megabytesPerSecond(outputBytes, writeNanoseconds) }

        /// One `key=value` line for scripts (`make bench`), in a fixed order.
        var machineLine: String {
            "parse_mbps=\(format(parseMBps)) write_mbps=\(format(writeMBps)) parse_ms=\(format(milliseconds(parseNanoseconds)))"
                + " write_ms=\(format(milliseconds(writeNanoseconds))) bytes=\(inputBytes)"
        }

        /// The same numbers for a person.
        var humanLine: String {
            "parsed \(format(Double(inputBytes) / 1_000_000)) MB in \(format(milliseconds(parseNanoseconds))) ms"
                + " (\(format(parseMBps)) MB/s); wrote compact in \(format(milliseconds(writeNanoseconds))) ms"
                + " (\(format(writeMBps)) MB/s); median of runs"
        }
    }

    enum Failure: Error, CustomStringConvertible {
        case unreadable(String, String)
        case invalidJSON(String, JSONParseError)
        case mismatch(String)

        var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
            case .invalidJSON(let path, let error): return "\(path):\(error)"
            case .mismatch(let path): return "\(path): the written JSON does not parse back to the same value"
            }
        }
    }

    let path: String
    let runs: Int

    func run() throws -> Result {
        let data: [UInt8]
        do { data = Array(try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
            throw Failure.unreadable(path, error.localizedDescription)
        }
        var parseTimes: [UInt64] = []
        var writeTimes: [UInt64] = []
        var value: JSONValue = .null
        var outputBytes = 0
        for _ in 0..<runs {
            value = .null  // Releasing the previous run's value is not part of parsing.
            let parseStart = DispatchTime.now().uptimeNanoseconds
            do { value = try JSONValue.parse(data) } catch { throw Failure.invalidJSON(path, error) }
            parseTimes.append(DispatchTime.now().uptimeNanoseconds - parseStart)

            let writeStart = DispatchTime.now().uptimeNanoseconds
            var writer = JSONWriter(style: .compact)
            writer.write(value)
            writeTimes.append(DispatchTime.now().uptimeNanoseconds - writeStart)
            outputBytes = writer.bytes.count
        }
        // Not timed: the output must mean the same as the input.
        var check = JSONWriter(style: .compact)
        check.write(value)
        guard (try? JSONValue.parse(check.bytes)) == value else { throw Failure.mismatch(path) }
        return Result(
            inputBytes: data.count, outputBytes: outputBytes,
            parseNanoseconds: median(parseTimes), writeNanoseconds: median(writeTimes))
    }
}

private func median(_ values: [UInt64]) -> UInt64 {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[sorted.count / 2]
}

private func megabytesPerSecond(_ bytes: Int, _ nanoseconds: UInt64) -> Double {
    Double(bytes) / 1_000_000 / (Double(max(nanoseconds, 1)) / 1_000_000_000)
}

private func milliseconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1_000_000 }

private func format(_ value: Double) -> String { String(format: "%.1f", value) }
