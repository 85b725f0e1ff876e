import Foundation

/// Reads the JSON values that options carry: `--filter JSON` or `--filter @FILE`, and `--input FILE` or `--input -`.
/// Errors name the option and, for syntax errors, the line and column.
public enum JSONArgument {
    /// `--filter`'s value: JSON text, or `@path` to read it from a file.
    public static func filter(_ argument: String) throws(RequestBuildError) -> JSONValue {
        if argument.hasPrefix("@") { return try file(String(argument.dropFirst()), option: "--filter") }
        return try parse(argument, option: "--filter")
    }

    /// `--input`'s value: a path, or `-` for `standardInput` (which the caller reads).
    public static func input(_ argument: String, standardInput: () -> Data) throws(RequestBuildError) -> JSONValue {
        guard argument == "-" else { return try file(argument, option: "--input") }
        return try parse(standardInput(), option: "--input")
    }

    /// JSON text given to `option`.
    public static func parse(_ text: String, option: String) throws(RequestBuildError) -> JSONValue {
        do {
            return try JSONValue.parse(text)
        } catch {
            throw RequestBuildError.invalidJSON(error).about(option, nil)
        }
    }

    /// JSON bytes (standard input) given to `option`; invalid UTF-8 is an error, not silently replaced.
    public static func parse(_ data: Data, option: String) throws(RequestBuildError) -> JSONValue {
        do {
            return try JSONValue.parse(data)
        } catch {
            throw RequestBuildError.invalidJSON(error).about(option, nil)
        }
    }

    /// The JSON in the file at `path`, given to `option`.
    public static func file(_ path: String, option: String) throws(RequestBuildError) -> JSONValue {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RequestBuildError.unreadableFile(path: path, reason: Self.reason(error)).about(option, nil)
        }
        do {
            return try JSONValue.parse(Array(data))
        } catch {
            throw RequestBuildError.atPath(path, error: .invalidJSON(error)).about(option, nil)
        }
    }

    private static func reason(_ error: any Error) -> String {
        let cocoa = error as NSError
        if cocoa.domain == NSCocoaErrorDomain {
            switch cocoa.code {
            case NSFileReadNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError: return "permission denied"
            default: break
            }
        }
        return cocoa.localizedDescription
    }
}
