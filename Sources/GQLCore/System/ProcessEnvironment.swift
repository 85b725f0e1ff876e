#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment variables and the user's home directory, read from the C library.
public enum ProcessEnvironment {
    /// Every `NAME=value` of the environment; for a name given twice, the first wins (as `getenv` reads it).
    public static func current() -> [String: String] {
        #if canImport(Darwin)
        let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = _NSGetEnviron().pointee
        #else
        let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        #endif
        var result: [String: String] = [:]
        guard var entry = table else { return result }  // null after clearenv()
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), equals != text.startIndex {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }

    /// The home directory of the user running the process, from the password database; nil if it has none.
    public static func passwordHomeDirectory() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        let path = String(cString: directory)
        return path.isEmpty ? nil : path
    }

    /// True when something (a file, a directory, a device) exists at `path`.
    public static func pathExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
