import Foundation
import Testing

@testable import GQLCore

/// The spool a diff's differences wait in: everything appended comes back in order, past its in-memory buffer,
/// and no file is left behind, even while it is open.
@Suite struct SpoolFileTests {
    @Test func replaysWhatWasAppendedAndLeavesNoFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-spool-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = try SpoolFile(directory: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
        var expected = ""
        for index in 0..<20_000 {  // about 300 KB: several flushes of the 64 KiB buffer
            let line = "+ Post id=p\(index)\n"
            try spool.append(line)
            expected += line
        }
        #expect(spool.count == expected.utf8.count)
        var read: [UInt8] = []
        try spool.replay { chunk in
            read += chunk
            return true
        }
        #expect(String(decoding: read, as: UTF8.self) == expected)
        // Stopping early reads no further.
        var chunks = 0
        try spool.replay { _ in
            chunks += 1
            return false
        }
        #expect(chunks == 1)
    }

    @Test func aDirectoryThatCannotHoldItIsNamed() {
        #expect(throws: SpoolError("cannot create a temporary file in /nonexistent-gqlc: No such file or directory")) {
            try SpoolFile(directory: "/nonexistent-gqlc")
        }
    }

    @Test func theDirectoryIsTMPDIRElseTmp() {
        #expect(SpoolFile.directory(environment: ["TMPDIR": "/var/tmp"]) == "/var/tmp")
        #expect(SpoolFile.directory(environment: ["TMPDIR": ""]) == "/tmp")
        #expect(SpoolFile.directory(environment: [:]) == "/tmp")
    }
}
