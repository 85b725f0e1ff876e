import CCurlShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why libcurl could not be used.
public enum LibCurlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No libcurl could be loaded; `reasons` holds the loader's message for each name tried.
    case notFound(reasons: [String])
    /// A libcurl was loaded but lacks a function gqlc needs (too old).
    case missingFunction(String, library: String)
    /// `curl_global_init` failed with this code.
    case initFailed(Int32)

    /// A one-line message for people.
    public var description: String {
        switch self {
        case .notFound(let reasons):
            return "libcurl could not be loaded (\(reasons.joined(separator: "; "))); gqlc needs libcurl 7.x or 8.x to send requests"
        case .missingFunction(let name, let library):
            return "\(library) has no \(name); gqlc needs libcurl 7.x or 8.x"
        case .initFailed(let code):
            return "libcurl failed to initialise (curl_global_init returned \(code))"
        }
    }
}

/// The system libcurl, loaded with `dlopen` on first use, so that commands that send nothing never load it and
/// the build needs neither curl headers nor `-lcurl`.
///
/// `curl_global_init` runs once, inside the first ``load()``; gqlc makes that call from its main thread before it
/// starts any transfer. Variadic functions (`curl_easy_setopt`, `curl_easy_getinfo`) go
/// through the C trampolines of `CCurlShim`; use the typed wrappers below.
///
/// ```swift
/// let curl = try LibCurl.load()
/// guard let handle = curl.easyInit() else { … }
/// curl.setopt(handle, CURLOPT_URL, "https://example.com/graphql")
/// ```
public struct LibCurl: @unchecked Sendable {
    // Function pointers into a library that stays loaded for the life of the process; all are immutable.

    /// The file name that was loaded, e.g. `libcurl.so.4`.
    public let libraryName: String
    /// `curl_version()`, e.g. `libcurl/7.88.1 OpenSSL/3.0.15 zlib/1.2.13 …`.
    public let version: String

    public let easyInit: gqlc_curl_easy_init_fn
    public let easyCleanup: gqlc_curl_easy_cleanup_fn
    public let easyReset: gqlc_curl_easy_reset_fn
    public let easyDuphandle: gqlc_curl_easy_duphandle_fn
    public let easyPerform: gqlc_curl_easy_perform_fn
    public let easySend: gqlc_curl_easy_send_fn
    public let easyRecv: gqlc_curl_easy_recv_fn
    public let slistAppend: gqlc_curl_slist_append_fn
    public let slistFreeAll: gqlc_curl_slist_free_all_fn
    public let multiInit: gqlc_curl_multi_init_fn
    public let multiCleanup: gqlc_curl_multi_cleanup_fn
    public let multiAddHandle: gqlc_curl_multi_add_handle_fn
    public let multiRemoveHandle: gqlc_curl_multi_remove_handle_fn
    public let multiPerform: gqlc_curl_multi_perform_fn
    /// `curl_multi_poll` (7.66+), else `curl_multi_wait`: both wait on curl's sockets plus extra descriptors.
    public let multiPoll: gqlc_curl_multi_wait_fn
    /// `curl_multi_wakeup` (7.68+), nil on older libcurl.
    public let multiWakeup: gqlc_curl_multi_wakeup_fn?
    public let multiInfoRead: gqlc_curl_multi_info_read_fn
    private let easyStrerrorFn: gqlc_curl_easy_strerror_fn
    private let multiStrerrorFn: gqlc_curl_multi_strerror_fn
    private let easySetoptFn: UnsafeMutableRawPointer
    private let easyGetinfoFn: UnsafeMutableRawPointer

    /// The names tried in order, unless `GQLC_LIBCURL` names the one library to load.
    #if canImport(Darwin)
        public static let candidates = ["/usr/lib/libcurl.4.dylib", "libcurl.4.dylib", "libcurl.dylib"]
    #else
        public static let candidates = ["libcurl.so.4", "libcurl-gnutls.so.4"]
    #endif

    // Swift runs this once, thread-safely, on first access.
    private static let loaded: Result<LibCurl, LibCurlError> = Result { () throws(LibCurlError) in try open() }

    /// The process's libcurl: loaded and globally initialised on the first call, the same value afterwards.
    public static func load() throws(LibCurlError) -> LibCurl {
        try loaded.get()
    }

    private static func open() throws(LibCurlError) -> LibCurl {
        var reasons: [String] = []
        let chosen = getenv("GQLC_LIBCURL").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : [$0] }
        let names = chosen ?? candidates
        for name in names {
            guard let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): cannot be loaded")
                continue
            }
            let curl = try LibCurl(handle: handle, name: name)
            try curl.globalInit(handle)
            return curl
        }
        throw .notFound(reasons: reasons)
    }

    private init(handle: UnsafeMutableRawPointer, name: String) throws(LibCurlError) {
        func symbol(_ symbolName: String) throws(LibCurlError) -> UnsafeMutableRawPointer {
            guard let address = dlsym(handle, symbolName) else { throw .missingFunction(symbolName, library: name) }
            return address
        }
        func function<F>(_ symbolName: String, as type: F.Type) throws(LibCurlError) -> F {
            unsafeBitCast(try symbol(symbolName), to: type)
        }
        libraryName = name
        let versionFn = try function("curl_version", as: gqlc_curl_version_fn.self)
        version = versionFn().map { String(cString: $0) } ?? "libcurl"
        easyInit = try function("curl_easy_init", as: gqlc_curl_easy_init_fn.self)
        easyCleanup = try function("curl_easy_cleanup", as: gqlc_curl_easy_cleanup_fn.self)
        easyReset = try function("curl_easy_reset", as: gqlc_curl_easy_reset_fn.self)
        easyDuphandle = try function("curl_easy_duphandle", as: gqlc_curl_easy_duphandle_fn.self)
        easyPerform = try function("curl_easy_perform", as: gqlc_curl_easy_perform_fn.self)
        easySend = try function("curl_easy_send", as: gqlc_curl_easy_send_fn.self)
        easyRecv = try function("curl_easy_recv", as: gqlc_curl_easy_recv_fn.self)
        slistAppend = try function("curl_slist_append", as: gqlc_curl_slist_append_fn.self)
        slistFreeAll = try function("curl_slist_free_all", as: gqlc_curl_slist_free_all_fn.self)
        multiInit = try function("curl_multi_init", as: gqlc_curl_multi_init_fn.self)
        multiCleanup = try function("curl_multi_cleanup", as: gqlc_curl_multi_cleanup_fn.self)
        multiAddHandle = try function("curl_multi_add_handle", as: gqlc_curl_multi_add_handle_fn.self)
        multiRemoveHandle = try function("curl_multi_remove_handle", as: gqlc_curl_multi_remove_handle_fn.self)
        multiPerform = try function("curl_multi_perform", as: gqlc_curl_multi_perform_fn.self)
        if let poll = dlsym(handle, "curl_multi_poll") {
            multiPoll = unsafeBitCast(poll, to: gqlc_curl_multi_wait_fn.self)
        } else {
            multiPoll = try function("curl_multi_wait", as: gqlc_curl_multi_wait_fn.self)
        }
        multiWakeup = dlsym(handle, "curl_multi_wakeup").map { unsafeBitCast($0, to: gqlc_curl_multi_wakeup_fn.self) }
        multiInfoRead = try function("curl_multi_info_read", as: gqlc_curl_multi_info_read_fn.self)
        easyStrerrorFn = try function("curl_easy_strerror", as: gqlc_curl_easy_strerror_fn.self)
        multiStrerrorFn = try function("curl_multi_strerror", as: gqlc_curl_multi_strerror_fn.self)
        easySetoptFn = try symbol("curl_easy_setopt")
        easyGetinfoFn = try symbol("curl_easy_getinfo")
    }

    private func globalInit(_ handle: UnsafeMutableRawPointer) throws(LibCurlError) {
        guard let address = dlsym(handle, "curl_global_init") else {
            throw .missingFunction("curl_global_init", library: libraryName)
        }
        let code = unsafeBitCast(address, to: gqlc_curl_global_init_fn.self)(CURL_GLOBAL_ALL)
        guard code == CURLE_OK else { throw .initFailed(code) }
    }

    // MARK: Messages

    /// libcurl's text for a result code, e.g. "Couldn't connect to server".
    public func strerror(_ code: CURLcode) -> String {
        easyStrerrorFn(code).map { String(cString: $0) } ?? "libcurl error \(code)"
    }

    /// libcurl's text for a multi-interface result code.
    public func multiStrerror(_ code: CURLMcode) -> String {
        multiStrerrorFn(code).map { String(cString: $0) } ?? "libcurl multi error \(code)"
    }

    // MARK: curl_easy_setopt

    /// Sets a long option (`CURLOPT_TIMEOUT_MS`, `CURLOPT_NOSIGNAL`, `CURLOPT_CONNECT_ONLY`…).
    @discardableResult
    public func setopt(_ handle: OpaquePointer, _ option: CURLoption, _ value: Int) -> CURLcode {
        gqlc_curl_setopt_long(easySetoptFn, handle, option, value)
    }

    /// Sets a string option; libcurl copies the string. nil restores the default.
    @discardableResult
    public func setopt(_ handle: OpaquePointer, _ option: CURLoption, _ value: String?) -> CURLcode {
        guard let value else { return gqlc_curl_setopt_pointer(easySetoptFn, handle, option, nil) }
        return value.withCString { gqlc_curl_setopt_pointer(easySetoptFn, handle, option, $0) }
    }

    /// Sets a pointer option (a list, callback data, a buffer that outlives the transfer); nil clears it.
    @discardableResult
    public func setopt(_ handle: OpaquePointer, _ option: CURLoption, pointer value: UnsafeRawPointer?) -> CURLcode {
        gqlc_curl_setopt_pointer(easySetoptFn, handle, option, value)
    }

    /// Sets a `curl_off_t` option (`CURLOPT_POSTFIELDSIZE_LARGE`).
    @discardableResult
    public func setopt(_ handle: OpaquePointer, _ option: CURLoption, offset value: Int64) -> CURLcode {
        gqlc_curl_setopt_off_t(easySetoptFn, handle, option, value)
    }

    /// Sets `CURLOPT_WRITEFUNCTION` or `CURLOPT_HEADERFUNCTION`.
    @discardableResult
    public func setopt(_ handle: OpaquePointer, _ option: CURLoption, write value: curl_write_callback?) -> CURLcode {
        gqlc_curl_setopt_write_function(easySetoptFn, handle, option, value)
    }

    /// Sets `CURLOPT_READFUNCTION`.
    @discardableResult
    public func setopt(_ handle: OpaquePointer, _ option: CURLoption, read value: curl_read_callback?) -> CURLcode {
        gqlc_curl_setopt_read_function(easySetoptFn, handle, option, value)
    }

    /// Sets `CURLOPT_SEEKFUNCTION`.
    @discardableResult
    public func setopt(_ handle: OpaquePointer, _ option: CURLoption, seek value: curl_seek_callback?) -> CURLcode {
        gqlc_curl_setopt_seek_function(easySetoptFn, handle, option, value)
    }

    /// Sets `CURLOPT_XFERINFOFUNCTION`.
    @discardableResult
    public func setopt(_ handle: OpaquePointer, _ option: CURLoption, progress value: curl_xferinfo_callback?) -> CURLcode {
        gqlc_curl_setopt_xferinfo_function(easySetoptFn, handle, option, value)
    }

    /// Sets `CURLOPT_PREREQFUNCTION`; `CURLE_UNKNOWN_OPTION` from a libcurl older than 7.80.
    @discardableResult
    public func setopt(_ handle: OpaquePointer, _ option: CURLoption, prerequest value: curl_prereq_callback?) -> CURLcode {
        gqlc_curl_setopt_prereq_function(easySetoptFn, handle, option, value)
    }

    // MARK: curl_easy_getinfo

    /// A long item (`CURLINFO_RESPONSE_CODE`…), nil if libcurl has none.
    public func getinfoLong(_ handle: OpaquePointer, _ info: CURLINFO) -> Int? {
        var value = 0
        return gqlc_curl_getinfo_long(easyGetinfoFn, handle, info, &value) == CURLE_OK ? value : nil
    }

    /// A string item (`CURLINFO_EFFECTIVE_URL`…), copied.
    public func getinfoString(_ handle: OpaquePointer, _ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard gqlc_curl_getinfo_string(easyGetinfoFn, handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// A socket item (`CURLINFO_ACTIVESOCKET`), nil when there is none.
    public func getinfoSocket(_ handle: OpaquePointer, _ info: CURLINFO) -> Int32? {
        var value: curl_socket_t = CURL_SOCKET_BAD
        guard gqlc_curl_getinfo_socket(easyGetinfoFn, handle, info, &value) == CURLE_OK, value != CURL_SOCKET_BAD else {
            return nil
        }
        return value
    }

    // MARK: Lists

    /// A `curl_slist` of `lines` (header lines, `Name: value`); free it with `slistFreeAll`. nil for no lines.
    public func makeList(_ lines: [String]) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let appended = line.withCString({ slistAppend(list, $0) }) else { continue }
            list = appended
        }
        return list
    }
}
