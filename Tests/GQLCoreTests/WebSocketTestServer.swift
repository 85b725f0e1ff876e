import Foundation
@testable import GQLCore

/// DevServers/WebSocketServer/ws_test_server.py (Python `websockets`, an independent RFC 6455 implementation) in a
/// child process, for the WebSocket client tests. It stops when this object is stopped or the test process
/// ends (the server exits when its stdin closes).
final class WebSocketTestServer: @unchecked Sendable {
    /// The project's virtualenv Python, made by `make venv` with the packages in Tests/requirements.txt.
    static let python = TestPaths.repositoryRoot.appendingPathComponent(".venv/bin/python").path
    static var isAvailable: Bool { unavailableReason == nil }

    /// Why the server cannot run here (nil when it can): the venv's Python must import websockets and trustme.
    static let unavailableReason: String? = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return "\(python) does not exist" }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import websockets, trustme"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        do {
            try check.run()
            check.waitUntilExit()
        } catch {
            return "\(python) could not be run (\(error))"
        }
        return check.terminationStatus == 0 ? nil : "\(python) cannot import websockets and trustme"
    }()

    let port: Int
    /// The port of the raw scenarios (frames written byte by byte).
    let rawPort: Int
    /// The test CA's certificate (PEM) when serving wss://.
    let caFile: String?
    private let process = Process()
    private let input = Pipe()
    private let output = LineCollector()

    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    init(tls: Bool = false) throws {
        let script = TestPaths.repositoryRoot.appendingPathComponent("DevServers/WebSocketServer/ws_test_server.py").path
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [script] + (tls ? ["--tls"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = input
        try process.run()
        output.read(from: pipe.fileHandleForReading)
        caFile = tls ? String(try output.waitForLine(prefix: "ca ").dropFirst(3)) : nil
        guard let port = Int(try output.waitForLine(prefix: "listening ").dropFirst(10)),
              let rawPort = Int(try output.waitForLine(prefix: "raw ").dropFirst(4)) else {
            throw StartError(description: "the WebSocket test server printed no port")
        }
        self.port = port
        self.rawPort = rawPort
    }

    /// The first line printed that starts with `prefix`, waiting for it. The time limit only stops a broken
    /// test from hanging; nothing is asserted about speed.
    func waitForLine(prefix: String) throws -> String {
        try output.waitForLine(prefix: prefix)
    }

    deinit { stop() }

    func url(_ path: String, secure: Bool = false) throws -> WebSocketURL {
        try WebSocketURL("\(secure ? "wss" : "ws")://127.0.0.1:\(port)\(path)")
    }

    /// A URL of the raw scenarios.
    func rawURL(_ path: String) throws -> WebSocketURL {
        try WebSocketURL("ws://127.0.0.1:\(rawPort)\(path)")
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.waitUntilExit() }
    }
}

/// The lines a child process prints, collected on a thread of their own.
private final class LineCollector: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false

    func read(from reader: FileHandle) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = reader.availableData
                condition.lock()
                defer {
                    condition.broadcast()
                    condition.unlock()
                }
                if chunk.isEmpty {
                    ended = true
                    return
                }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
        }
    }

    func waitForLine(prefix: String, limit: TimeInterval = 60) throws -> String {
        let deadline = Date(timeIntervalSinceNow: limit)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
            if ended || !condition.wait(until: deadline) {
                throw WebSocketTestServer.StartError(description: "the WebSocket test server printed no '\(prefix)…' line "
                    + "(it needs the venv's websockets and trustme: make venv); it printed: \(lines)")
            }
        }
    }
}
