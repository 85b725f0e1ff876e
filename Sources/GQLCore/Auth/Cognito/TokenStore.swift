#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One signed-in user of one user pool and app client, as stored.
public struct StoredSignIn: Sendable, Equatable {
    /// The name the user typed.
    public var username: String
    public var accessToken: String
    public var idToken: String
    public var refreshToken: String?

    public init(username: String, accessToken: String, idToken: String, refreshToken: String?) {
        self.username = username
        self.accessToken = accessToken
        self.idToken = idToken
        self.refreshToken = refreshToken
    }

    /// The internal user name (the access token's `username`), which SECRET_HASH on refresh needs.
    public var internalUsername: String? { JWTClaims(token: accessToken)?.string("username") }

    /// The earlier expiry of the two tokens, from their own `exp`.
    public var expiry: Timestamp? {
        [JWTClaims(token: accessToken)?.expiry, JWTClaims(token: idToken)?.expiry].compactMap { $0 }.min()
    }

    /// The same sign-in with refreshed tokens (a refresh token is kept when none comes back).
    public func refreshed(with tokens: CognitoTokens) -> StoredSignIn {
        StoredSignIn(username: username, accessToken: tokens.accessToken, idToken: tokens.idToken,
                     refreshToken: tokens.refreshToken ?? refreshToken)
    }
}

/// The token file: `$XDG_CONFIG_HOME/gqlc/tokens.json` (else `~/.config/gqlc/tokens.json`), one entry per user pool
/// and app client. The directory is made 0700 and the file 0600, written to a temporary file and renamed into place;
/// a file that others can read is refused.
public struct TokenStore: Sendable {
    public let directory: String
    public var path: String { directory + "/tokens.json" }

    public init(directory: String) {
        self.directory = directory
    }

    /// The store for this environment, or nil when there is neither `XDG_CONFIG_HOME` nor a home directory.
    public static func standard(environment: [String: String]) -> TokenStore? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return TokenStore(directory: config + "/gqlc") }
        guard let home = environment["HOME"].flatMap({ $0.isEmpty ? nil : $0 }) ?? ProcessEnvironment.passwordHomeDirectory() else {
            return nil
        }
        return TokenStore(directory: home + "/.config/gqlc")
    }

    /// The sign-in stored under `key`, or nil.
    public func signIn(for key: String) throws(CognitoError) -> StoredSignIn? {
        guard let entry = try entries()[key]?.objectValue,
              let username = entry["username"]?.stringValue, let access = entry["accessToken"]?.stringValue,
              let id = entry["idToken"]?.stringValue
        else { return nil }
        let refresh = entry["refreshToken"]?.stringValue
        ProcessSecrets.register([access, id, refresh ?? ""])
        return StoredSignIn(username: username, accessToken: access, idToken: id, refreshToken: refresh)
    }

    /// Stores (or, with nil, forgets) the sign-in under `key`, leaving the other entries as they were.
    public func store(_ signIn: StoredSignIn?, for key: String) throws(CognitoError) {
        var all = try entries()
        if let signIn {
            var entry: JSONObject = [
                "username": .string(signIn.username), "accessToken": .string(signIn.accessToken), "idToken": .string(signIn.idToken),
            ]
            if let refresh = signIn.refreshToken { entry["refreshToken"] = .string(refresh) }
            all[key] = .object(entry)
        } else {
            all[key] = nil
        }
        let document: JSONValue = ["version": 1, "signIns": .object(all)]
        try replaceFile(with: Array((document.serialized(.pretty) + "\n").utf8))
    }

    private func entries() throws(CognitoError) -> JSONObject {
        var status = stat()
        // Whoever may write the directory may replace the token file with one of their own.
        if stat(directory, &status) == 0, status.st_mode & 0o022 != 0 {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw .tokenStore(
                "the directory \(directory) can be changed by other users (mode \(mode)); fix it with: chmod go-w \(directory)")
        }
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return [:] }
            throw .tokenStore("cannot read the token file \(path): \(String(cString: strerror(errno)))")
        }
        if status.st_mode & 0o077 != 0 {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw .tokenStore("the token file \(path) can be read by other users (mode \(mode)); fix it with: chmod 600 \(path)")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileReader.bytes(atPath: path)
        } catch {
            throw .tokenStore("cannot read the token file: \(error)")
        }
        guard let value = try? JSONValue.parse(bytes), let signIns = value["signIns"]?.objectValue else {
            throw .unrecognizedTokenFile(path: path)
        }
        return signIns
    }

    /// Creates the directory (0700) and replaces the file atomically with a 0600 temporary file.
    private func replaceFile(with bytes: [UInt8]) throws(CognitoError) {
        try makeDirectories()
        let temporary = "\(directory)/.tokens.\(getpid()).\(RandomUUID.string()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary)") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = failure("cannot write the token file \(path)")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        // A full disk or an I/O error may show only at fsync or close: both are checked before the rename.
        let synced = fsync(descriptor) == 0
        let closed = close(descriptor) == 0
        guard synced, closed, rename(temporary, path) == 0 else {
            let error = failure("cannot write the token file \(path)")
            unlink(temporary)
            throw error
        }
    }

    /// `mkdir -p` with 0700 for what it creates.
    private func makeDirectories() throws(CognitoError) {
        var current = ""
        for component in directory.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST { throw failure("cannot create the directory \(current)") }
        }
    }

    private func failure(_ what: String) -> CognitoError {
        .tokenStore("\(what): \(String(cString: strerror(errno)))")
    }
}
