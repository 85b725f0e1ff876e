import Foundation
import Glibc
import Testing

@testable import GQLCore

/// The one file reader: files, FIFOs, devices, and each way of failing, worded the same everywhere.
@Suite struct FileReaderTests {
    private static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-reader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func readsARegularFileAndDevNull() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/a.json"
        try Data("{\"é\":1}".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try FileReader.text(atPath: path) == "{\"é\":1}")
        #expect(try FileReader.bytes(atPath: "/dev/null") == [])
        #expect(try FileReader.text([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], name: "bom") == "{}")
        #expect(throws: FileReadError.invalidUTF8(path: "bom", offset: 4)) { try FileReader.text([0xEF, 0xBB, 0xBF, 0x61, 0xC3], name: "bom") }
    }

    @Test func readsAFIFOOnce() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        let text = String(repeating: "x", count: 200_000)  // more than one pipe buffer
        let writer = Thread {
            let descriptor = open(path, O_WRONLY)
            text.utf8CString.withUnsafeBufferPointer { buffer in
                var offset = 0
                while offset < buffer.count - 1 {
                    let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - 1 - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(descriptor)
        }
        writer.start()
        #expect(try FileReader.text(atPath: path) == text)
    }

    @Test func eachFailureSaysWhatItIs() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: FileReadError.notFound(path: directory + "/missing")) { try FileReader.bytes(atPath: directory + "/missing") }
        #expect(throws: FileReadError.isDirectory(path: directory)) { try FileReader.bytes(atPath: directory) }
        let bad = directory + "/bad.txt"
        try Data([0x61, 0x62, 0xFF, 0x63]).write(to: URL(fileURLWithPath: bad))
        #expect(throws: FileReadError.invalidUTF8(path: bad, offset: 2)) { try FileReader.text(atPath: bad) }
        #expect(throws: FileReadError.tooLarge(path: bad, limit: 3)) { try FileReader.bytes(atPath: bad, limit: 3) }
        #expect(throws: FileReadError.tooLarge(path: "/dev/zero", limit: 1 << 20)) {
            try FileReader.bytes(atPath: "/dev/zero", limit: 1 << 20)
        }
        #expect(FileReadError.notFound(path: "x.json").description == "x.json: no such file")
        #expect(FileReadError.isDirectory(path: "d").description == "d: is a directory, not a file")
        #expect(FileReadError.permissionDenied(path: "p").description == "p: permission denied")
    }
}
