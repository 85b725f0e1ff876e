/// A snapshot directory's `manifest.json`: which models it holds, how many records each, and whether each was listed to
/// its end.
///
/// ```json
/// {"format": "gqlc-snapshot/1", "models": [{"name": "Post", "file": "Post.ndjson", "count": 500, "complete": true}],
///  "schema": {"sha256": "…"}, "endpoint": "https://…/graphql", "takenAt": "2026-11-26T21:00:00Z"}
/// ```
public struct SnapshotManifest: Sendable, Equatable {
    /// The format this version writes and reads.
    public static let format = "gqlc-snapshot/1"
    /// The manifest's file name in the directory.
    public static let fileName = "manifest.json"

    /// One model's entry.
    public struct Entry: Sendable, Equatable {
        /// The model's name.
        public var name: String
        /// The NDJSON file, relative to the directory (`Post.ndjson`).
        public var file: String
        /// Records in the file.
        public var count: Int
        /// Whether the listing reached its end.
        public var complete: Bool
        /// Why the model was not listed (its list operation is disabled, the auth mode may not read it), if it was not.
        public var skipped: String?

        /// An entry for `name`; not yet listed unless told otherwise.
        public init(name: String, file: String? = nil, count: Int = 0, complete: Bool = false, skipped: String? = nil) {
            self.name = name
            self.file = file ?? name + ".ndjson"
            self.count = count
            self.complete = complete
            self.skipped = skipped
        }
    }

    /// Each model's entry, in order.
    public var models: [Entry]
    /// SHA-256 (hex) of the model schema file the snapshot was taken with.
    public var schemaSHA256: String?
    /// The endpoint the snapshot was taken from.
    public var endpoint: String?
    /// When the snapshot was started, ISO 8601 UTC.
    public var takenAt: String

    /// A manifest of `models`, taken with that schema from `endpoint` at `takenAt`.
    public init(models: [Entry], schemaSHA256: String?, endpoint: String?, takenAt: String) {
        self.models = models
        self.schemaSHA256 = schemaSHA256
        self.endpoint = endpoint
        self.takenAt = takenAt
    }

    /// Whether every model was listed to its end.
    public var isComplete: Bool { models.allSatisfy(\.complete) }

    /// The entry for `name`.
    public func entry(_ name: String) -> Entry? { models.first { $0.name == name } }

    // MARK: JSON

    /// The manifest as `manifest.json` holds it.
    public var json: JSONValue {
        let models: [JSONValue] = self.models.map { entry in
            var object: JSONObject = [
                "name": .string(entry.name), "file": .string(entry.file), "count": .number(JSONNumber(entry.count)),
                "complete": .bool(entry.complete),
            ]
            if let skipped = entry.skipped { object["skipped"] = .string(skipped) }
            return .object(object)
        }
        return .object([
            "format": .string(Self.format), "models": .array(models),
            "schema": .object(["sha256": schemaSHA256.map(JSONValue.string) ?? .null]),
            "endpoint": endpoint.map(JSONValue.string) ?? .null, "takenAt": .string(takenAt),
        ])
    }

    /// Reads `directory/manifest.json`; nil when there is none.
    public static func read(directory: String) throws(SnapshotError) -> SnapshotManifest? {
        let path = directory + "/" + fileName
        let bytes: [UInt8]
        do {
            bytes = try FileReader.bytes(atPath: path)
        } catch .notFound {
            return nil
        } catch {
            throw .unreadable(error.description)
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw .invalidManifest(path: path, reason: "invalid JSON at \(error.line):\(error.column): \(error.message)")
        }
        guard value["format"]?.stringValue == format else {
            let found = value["format"]?.stringValue.map { "'\($0)'" } ?? "none"
            throw .invalidManifest(path: path, reason: "format is \(found); this gqlc reads '\(format)'")
        }
        guard let list = value["models"]?.arrayValue else { throw .invalidManifest(path: path, reason: "no 'models' list") }
        var models: [Entry] = []
        for (index, item) in list.enumerated() {
            guard let name = item["name"]?.stringValue, let file = item["file"]?.stringValue,
                case .number(let count)? = item["count"], let number = count.intValue, case .bool(let complete)? = item["complete"]
            else {
                throw .invalidManifest(path: path, reason: "models[\(index)] needs name, file, count and complete")
            }
            guard !file.contains("/"), file != "..", !file.isEmpty else {
                throw .invalidManifest(path: path, reason: "models[\(index)].file must be a file name in the directory")
            }
            models.append(Entry(name: name, file: file, count: number, complete: complete, skipped: item["skipped"]?.stringValue))
        }
        return SnapshotManifest(
            models: models, schemaSHA256: value["schema"]?["sha256"]?.stringValue, endpoint: value["endpoint"]?.stringValue,
            takenAt: value["takenAt"]?.stringValue ?? "")
    }

    /// Writes `directory/manifest.json` atomically.
    public func write(directory: String) throws(SnapshotError) {
        do {
            try FileWriter.write(Array((json.serialized(.pretty) + "\n").utf8), to: directory + "/" + Self.fileName)
        } catch {
            throw .writeFailed(error.description)
        }
    }
}

/// Why a snapshot cannot be taken, read or restored.
public enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(String)
    case invalidManifest(path: String, reason: String)
    case writeFailed(String)
    /// The directory holds a snapshot already (and it is not being resumed).
    case notEmpty(String)
    /// Resuming a directory without a manifest.
    case nothingToResume(String)
    /// A model name that the schema does not have.
    case unknownModel(String, known: [String])
    /// A record file line that is not a JSON object.
    case invalidRecord(file: String, line: Int, reason: String)
    /// A directory that could not be made (the first of the path that could not).
    case cannotCreate(path: String, reason: String)
    /// Restoring from a directory without a manifest.
    case noSnapshot(String)
    /// A model the snapshot in `directory` does not hold.
    case notInSnapshot(String, directory: String, known: [String])
    /// The snapshot's models do not fit the target's schema (the differences were reported); nothing was sent.
    case doesNotFit

    /// The error, as one line.
    public var description: String {
        switch self {
        case .unreadable(let reason): return reason
        case .invalidManifest(let path, let reason): return "\(path): \(reason)"
        case .writeFailed(let reason): return "cannot write the snapshot: \(reason)"
        case .notEmpty(let directory):
            return "\(directory) already holds a snapshot (\(SnapshotManifest.fileName)); resume it, or choose another directory"
        case .nothingToResume(let directory): return "\(directory) holds no snapshot to resume (no \(SnapshotManifest.fileName))"
        case .unknownModel(let name, let known):
            return "unknown model '\(name)'\(Suggestions.didYouMean(name, in: known))"
        case .invalidRecord(let file, let line, let reason): return "\(file):\(line): \(reason)"
        case .cannotCreate(let path, let reason): return "cannot create \(path): \(reason)"
        case .noSnapshot(let directory): return "\(directory) holds no snapshot (no \(SnapshotManifest.fileName))"
        case .notInSnapshot(let name, let directory, let known):
            return "the snapshot in \(directory) has no model '\(name)'\(Suggestions.didYouMean(name, in: known))"
        case .doesNotFit: return "the snapshot does not fit the target's schema; nothing was sent"
        }
    }
}
