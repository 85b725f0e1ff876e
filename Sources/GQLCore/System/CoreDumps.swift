#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Limits the process sets on itself.
public enum ProcessLimits {
    /// A crash must not write the process's memory (its API key, tokens, secret key) to a core file: the core size
    /// limit is 0 for this process (systemd-coredump and apport honour it too).
    public static func disableCoreDumps() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        #if canImport(Glibc)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        #else
            _ = setrlimit(RLIMIT_CORE, &none)
        #endif
    }
}
