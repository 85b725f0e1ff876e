#if canImport(Glibc)
    import Glibc
#endif
import Testing

@testable import GQLCore

/// The snapshot manifest: what it writes reads back the same, and a foreign or broken manifest is refused by name.
@Suite struct SnapshotManifestTests {
    func directory() -> String {
        var template = Array("/tmp/gqlc-manifest-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    @Test func writesAndReadsBack() throws {
        let path = directory()
        let manifest = SnapshotManifest(
            models: [.init(name: "Post", count: 5, complete: true), .init(name: "Secret", skipped: "its list operation is disabled")],
            schemaSHA256: "ab", endpoint: "http://x/graphql", takenAt: "2026-11-26T22:10:22Z")
        try manifest.write(directory: path)
        #expect(try SnapshotManifest.read(directory: path) == manifest)
        #expect(manifest.json["models"]?[0] == ["name": "Post", "file": "Post.ndjson", "count": 5, "complete": true])
        #expect(!manifest.isComplete)
    }

    @Test func foreignFormatsAndPathsAreRefused() throws {
        let path = directory()
        try FileWriter.write(Array(#"{"format": "other/2", "models": []}"#.utf8), to: path + "/manifest.json")
        #expect(throws: SnapshotError.invalidManifest(path: path + "/manifest.json", reason: "format is 'other/2'; this gqlc reads 'gqlc-snapshot/1'")) {
            try SnapshotManifest.read(directory: path)
        }
        let escaping = #"{"format": "gqlc-snapshot/1", "models": [{"name": "P", "file": "../P.ndjson", "count": 1, "complete": true}]}"#
        try FileWriter.write(Array(escaping.utf8), to: path + "/manifest.json")
        #expect(throws: SnapshotError.invalidManifest(path: path + "/manifest.json", reason: "models[0].file must be a file name in the directory")) {
            try SnapshotManifest.read(directory: path)
        }
        #expect(try SnapshotManifest.read(directory: directory()) == nil)
    }

    @Test func timestampsAreISO8601() {
        #expect(Timestamp(secondsSince1970: 1_795_000_000.7).iso8601UTC == "2026-11-18T11:06:40Z")
    }
}
