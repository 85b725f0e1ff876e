import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An NDJSON file of records, written a page at a time so that memory stays flat.
public final class RecordFileWriter {
    /// The file written.
    public let path: String
    private var descriptor: Int32
    private var writer = JSONWriter(style: .compact)

    /// Creates (or empties) the file.
    public init(path: String) throws(SnapshotError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .writeFailed("\(path): \(String(cString: strerror(errno)))") }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Appends one line per record.
    public func append(_ records: [JSONValue]) throws(SnapshotError) {
        writer.bytes.removeAll(keepingCapacity: true)
        for record in records {
            writer.write(record)
            writer.bytes.append(UInt8(ascii: "\n"))
        }
        try append(bytes: writer.bytes)
    }

    /// Appends `bytes` (whole lines) as they are.
    public func append(bytes: [UInt8]) throws(SnapshotError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .writeFailed("\(path): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// Flushes to disk and closes the file.
    public func finish() throws(SnapshotError) {
        guard descriptor >= 0 else { return }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        descriptor = -1
        if !synced { throw .writeFailed("\(path): \(String(cString: strerror(errno)))") }
    }
}

/// Where a restore reads a model's records from, one item at a time: a snapshot file, or a listing of another API.
public protocol RecordStream {
    /// The next record's item, or nil at the end (or when the source failed: see ``failure``).
    mutating func nextItem() throws(BulkInputError) -> BulkInputItem?
    /// Why the records ended early, when they did (a listing that failed).
    var failure: String? { get }
    /// How the source failed, for the exit status (`list` would end the same way); `graphQLErrors` unless it says.
    var failureKind: ResultKind { get }
    /// Releases the source.
    func close()
    /// The next record's value (nil when its text is not JSON) and its line (0 for none), or nil at the end: a
    /// source that holds parsed records hands them over as they are.
    mutating func nextValue() throws(BulkInputError) -> (value: JSONValue?, line: Int)?
}

extension RecordStream {
    /// `graphQLErrors`, unless the source says otherwise.
    public var failureKind: ResultKind { .graphQLErrors }

    /// The next item parsed (nil when its text is not JSON) with its line.
    public mutating func nextValue() throws(BulkInputError) -> (value: JSONValue?, line: Int)? {
        guard let item = try nextItem() else { return nil }
        return (try? item.parse(), item.line)
    }
}

/// Reads an NDJSON record file one line at a time (memory stays flat), as ``BulkInputReader`` splits it.
public struct RecordFileReader: RecordStream {
    /// A file does not fail part way: read errors are thrown.
    public var failure: String? { nil }

    /// The file read.
    public let path: String
    private var reader: BulkInputReader<DescriptorChunks>
    private let descriptor: Int32

    /// Opens the file at `path`; throws when it cannot be read.
    public init(path: String) throws(SnapshotError) {
        self.path = path
        do {
            descriptor = try FileReader.openForReading(path: path)
        } catch {
            throw .unreadable(error.description)
        }
        reader = BulkInputReader(source: DescriptorChunks(descriptor: descriptor, name: path))
    }

    /// The next line's item, unparsed, or nil at the end.
    public mutating func nextItem() throws(BulkInputError) -> BulkInputItem? { try reader.next() }

    /// The next record with its line, or nil at the end.
    public mutating func next() throws(SnapshotError) -> (record: JSONObject, item: BulkInputItem)? {
        let item: BulkInputItem
        do {
            guard let read = try reader.next() else { return nil }
            item = read
        } catch {
            throw .invalidRecord(file: path, line: 0, reason: error.description)
        }
        let value: JSONValue
        do {
            value = try item.parse()
        } catch {
            throw .invalidRecord(file: path, line: error.line, reason: "invalid JSON at \(error.line):\(error.column): \(error.message)")
        }
        guard case .object(let object) = value else {
            throw .invalidRecord(file: path, line: item.line, reason: "expected a JSON object, found \(value.kindDescription)")
        }
        return (object, item)
    }

    /// Closes the file.
    public func close() { closeDescriptor(descriptor) }
}

private func closeDescriptor(_ descriptor: Int32) { close(descriptor) }

/// One rejects file per model (`DIR/MODEL.ndjson`, in the snapshot's line format), opened on first use: a restore's
/// failed or unsent records.
final class RejectFiles: Sendable {
    let directory: String
    private let files = Mutex<[String: RecordFileWriter]>([:])

    init(directory: String) { self.directory = directory }

    private let firstFailure = Mutex<String?>(nil)

    /// `PATH: reason` of the first file that could not be opened or written: records meant for it may be missing.
    var failure: String? { firstFailure.withLock { $0 } }

    func write(_ line: [UInt8], model: String) {
        files.withLock { files in
            do throws(SnapshotError) {
                if files[model] == nil { files[model] = try RecordFileWriter(path: directory + "/" + model + ".ndjson") }
                try files[model]?.append(bytes: line)
            } catch {
                note(error)
            }
        }
    }

    func close() {
        files.withLock { files in
            for file in files.values {
                do throws(SnapshotError) { try file.finish() } catch { note(error) }
            }
            files = [:]
        }
    }

    private func note(_ error: SnapshotError) {
        let text = if case .writeFailed(let reason) = error { reason } else { error.description }
        firstFailure.withLock { if $0 == nil { $0 = text } }
    }
}
