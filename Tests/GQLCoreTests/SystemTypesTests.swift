import Foundation
import Glibc
import Synchronization
import Testing
@testable import GQLCore

/// The small types that replace Foundation in the process, each checked against an independent reference:
/// the C library (`gmtime_r`, `printf`) or Foundation itself, which tests may still use.
@Suite struct TimestampTests {
    /// The C library's UTC calendar for `seconds`, as `YYYYMMDDTHHMMSSZ`.
    static func libcCompact(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return pad(parts.tm_year + 1900, 4) + pad(parts.tm_mon + 1, 2) + pad(parts.tm_mday, 2) + "T"
            + pad(parts.tm_hour, 2) + pad(parts.tm_min, 2) + pad(parts.tm_sec, 2) + "Z"
    }

    @Test(arguments: [
        (0.0, "19700101T000000Z"),  // the epoch
        (-1, "19691231T235959Z"),  // a second before it
        (-86_400.5, "19691230T235959Z"),  // fractions round down, also before the epoch
        (951_782_400, "20000229T000000Z"),  // 2000 is a leap year (divisible by 400)
        (951_868_800, "20000301T000000Z"),
        (1_709_164_800, "20240229T000000Z"),  // an ordinary leap day
        (4_107_542_400, "21000301T000000Z"),  // 2100 is not a leap year: 28 February, then 1 March
        (1_440_938_160, "20150830T123600Z"),  // AWS's SigV4 example instant
        (4_102_444_799, "20991231T235959Z"),
        (253_402_300_799, "99991231T235959Z"),
    ])
    func compactUTCMatchesKnownInstants(seconds: Double, expected: String) {
        #expect(Timestamp(secondsSince1970: seconds).compactUTC == expected)
    }

    /// Every day boundary from 1900 to 2200, plus odd seconds, formats as the C library's gmtime does.
    @Test func compactUTCMatchesGmtimeAcrossCenturies() {
        for seconds in stride(from: -2_208_988_800, through: 7_258_118_400, by: 86_400 * 7 + 3_601) {
            let ours = Timestamp(secondsSince1970: Double(seconds)).compactUTC
            if ours != Self.libcCompact(seconds) {
                Issue.record("\(seconds): \(ours) != \(Self.libcCompact(seconds))")
                return
            }
        }
    }

    @Test func calendarDatesRoundTripAndInvalidOnesAreRefused() {
        #expect(Timestamp(year: 1970, month: 1, day: 1)?.secondsSince1970 == 0)
        #expect(Timestamp(year: 2000, month: 2, day: 29, hour: 12)?.secondsSince1970 == 951_825_600)
        #expect(Timestamp(year: 2015, month: 8, day: 30, hour: 12, minute: 36)?.compactUTC == "20150830T123600Z")
        #expect(Timestamp(year: 2100, month: 2, day: 29) == nil)
        #expect(Timestamp(year: 2023, month: 2, day: 29) == nil)
        #expect(Timestamp(year: 2024, month: 4, day: 31) == nil)
        #expect(Timestamp(year: 2024, month: 13, day: 1) == nil)
        #expect(Timestamp(year: 2024, month: 1, day: 1, hour: 24) == nil)
    }

    @Test func nowAgreesWithFoundationsClock() {
        let ours = Timestamp.now().secondsSince1970
        let foundation = Date().timeIntervalSince1970
        #expect(abs(ours - foundation) < 60)
    }

    @Test func arithmetic() {
        let start = Timestamp(secondsSince1970: 100)
        #expect(start.adding(seconds: 61).seconds(since: start) == 61)
        #expect(start < start.adding(seconds: 0.5))
    }
}

@Suite struct RandomUUIDTests {
    @Test func versionFourUppercaseTextThatFoundationReadsBack() throws {
        var seen = Set<String>()
        for _ in 0..<1000 {
            let text = RandomUUID.string()
            let characters = Array(text)
            #expect(characters.count == 36)
            #expect([8, 13, 18, 23].allSatisfy { characters[$0] == "-" })
            #expect(characters[14] == "4")  // version 4
            #expect("89AB".contains(characters[19]))  // RFC 4122 variant
            #expect(text.allSatisfy { $0 == "-" || ("0"..."9").contains($0) || ("A"..."F").contains($0) })
            #expect(try #require(UUID(uuidString: text)).uuidString == text)
            seen.insert(text)
        }
        #expect(seen.count == 1000)
    }

    @Test func aSeededGeneratorGivesTheSameUUID() {
        struct Counter: RandomNumberGenerator {
            var state: UInt64 = 0
            mutating func next() -> UInt64 {
                state &+= 0x9E37_79B9_7F4A_7C15
                return state
            }
        }
        var first = Counter()
        var second = Counter()
        #expect(RandomUUID.string(using: &first) == RandomUUID.string(using: &second))
    }
}

@Suite struct ProcessEnvironmentTests {
    @Test func readsWhatSetenvWrote() {
        let name = "GQLC_ENV_TEST_\(getpid())"
        setenv(name, "a=b c", 1)
        defer { unsetenv(name) }
        let environment = ProcessEnvironment.current()
        #expect(environment[name] == "a=b c")
        #expect(environment[name] == ProcessInfo.processInfo.environment[name])
        #expect(environment["PATH"] == String(cString: getenv("PATH")))
    }

    @Test func pathsAndHome() {
        #expect(ProcessEnvironment.pathExists("/"))
        #expect(ProcessEnvironment.pathExists("/dev/null"))
        #expect(!ProcessEnvironment.pathExists("/no/such/path/for/gqlc"))
        #expect(ProcessEnvironment.passwordHomeDirectory()?.hasPrefix("/") ?? true)
    }
}

@Suite struct CFormatTests {
    /// `%.3g` as C formats it, with Foundation's `String(format:)` (which calls the same printf) as the reference.
    @Test(arguments: [0.25, 0.001234, 1234.5, 9.995, 99.95, 999.5, 1e-5, 123_456_789.123, 2.675, 1.125, -0.5, 30.0])
    func threeSignificantDigits(value: Double) {
        #expect(formatC("%.3g", value) == String(format: "%.3g", value))
    }

    @Test func timeoutMessagesUseIt() {
        #expect(TransportError.timeout(seconds: 0.25).description.hasPrefix("no response within 0.25 s"))
        #expect(TransportError.timeout(seconds: 30).description.hasPrefix("no response within 30 s"))
        #expect(TransportError.timeout(seconds: 1234.5).description.hasPrefix("no response within 1.23e+03 s"))
    }
}

@Suite struct CancellationFlagWaitTests {
    @Test func aWaitWithoutCancellationEndsUnset() {
        let flag = CancellationFlag()
        #expect(flag.wait(seconds: 0.05) == false)
        #expect(flag.wait(seconds: 0) == false)
    }

    /// A waiter on another thread wakes once the flag is set, after the handlers have run.
    @Test func cancelWakesAWaiterAfterTheHandlers() async {
        let flag = CancellationFlag()
        let handlerRan = Latch()
        flag.onCancel { handlerRan.set() }
        let started = Latch()
        let waiter = Thread {
            started.set()
            // Long enough that only the cancellation can end it within the test's run.
            let woke = flag.wait(seconds: 3_600)
            #expect(woke)
            #expect(handlerRan.isSet)
        }
        waiter.start()
        while !started.isSet { await Task.yield() }
        flag.cancel()
        while !waiter.isFinished { try? await Task.sleep(nanoseconds: 1_000_000) }
        #expect(flag.wait(seconds: 3_600))  // already set: returns at once
    }

    /// A reader waiting on a pipe that stays open and silent wakes on cancellation; one with data does not wait.
    @Test func aReaderWaitingOnAQuietPipeWakesOnCancellation() async {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        let flag = CancellationFlag()
        let readEnd = fds[0]
        let started = Latch()
        let waiter = Thread {
            started.set()
            #expect(flag.waitUntilReadable(readEnd) == false)
        }
        waiter.start()
        while !started.isSet { await Task.yield() }
        flag.cancel()
        while !waiter.isFinished { try? await Task.sleep(nanoseconds: 1_000_000) }

        let other = CancellationFlag()
        var byte: UInt8 = 7
        #expect(write(fds[1], &byte, 1) == 1)
        #expect(other.waitUntilReadable(readEnd))
        close(fds[1])
        fds[1] = -1
    }

    @Test func aHandlerAddedAfterCancellationRunsAtOnce() {
        let flag = CancellationFlag()
        flag.cancel()
        let ran = Latch()
        #expect(flag.onCancel { ran.set() } == -1)
        #expect(ran.isSet)
    }
}

/// A thread-safe boolean that turns true once.
private final class Latch: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

/// FileReader opens a FIFO without waiting for its writer, then waits for the writer's bytes: it must not take the
/// moment before the writer comes for the end of the file.
@Suite struct FileReaderFIFOTests {
    @Test func aFIFOOpenedBeforeItsWriterIsReadWhole() throws {
        let path = "/tmp/gqlc-fifo-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let writer = Thread {
            let descriptor = open(path, O_WRONLY)  // blocks until the reader has opened it
            let bytes = Array("written after the reader opened".utf8)
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        writer.start()
        let text = try FileReader.text(atPath: path)
        #expect(text == "written after the reader opened")
    }
}
