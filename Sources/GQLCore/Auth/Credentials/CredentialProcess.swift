#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a profile's `credential_process` as botocore does: the command line split as a POSIX shell would split
/// words (quotes and backslashes), run directly without a shell, its standard output parsed as the JSON the
/// AWS CLI documents (`Version` 1, `AccessKeyId`, `SecretAccessKey`, optional `SessionToken`, `Expiration`).
enum CredentialProcess {
    /// The credentials the command prints.
    static func run(_ commandLine: String, profile: String, environment: [String: String]) throws(AWSAuthError) -> (AWSCredentials, Timestamp?) {
        let arguments: [String]
        do {
            arguments = try split(commandLine)
        } catch {
            throw .credentialProcessFailed(profile: profile, reason: "cannot be split into words: \(error.reason)")
        }
        guard let program = arguments.first else {
            throw .credentialProcessFailed(profile: profile, reason: "is empty")
        }
        let result: (status: Int32, stdout: [UInt8], stderr: [UInt8])
        do {
            result = try spawn(arguments)
        } catch {
            throw .credentialProcessFailed(profile: profile, reason: "could not start '\(program)': \(error.reason)")
        }
        let errorText = String(decoding: result.stderr, as: UTF8.self).trimmingWhitespace
        guard result.status == 0 else {
            let said = errorText.isEmpty ? "" : ": " + errorText.oneLine(lineBreaks: .collapsed, cut: .middle(400))
            throw .credentialProcessFailed(profile: profile, reason: "('\(program)') failed with exit status \(result.status)\(said)")
        }
        guard let value = try? JSONValue.parse(result.stdout), value.objectValue != nil else {
            throw .credentialProcessFailed(profile: profile, reason: "('\(program)') did not print a JSON object")
        }
        guard value["Version"]?.numberText == "1" else {
            throw .credentialProcessFailed(profile: profile, reason: "('\(program)') printed Version \(value["Version"]?.description ?? "(none)"); only Version 1 is supported")
        }
        guard let keyID = value["AccessKeyId"]?.stringValue, !keyID.isEmpty else {
            throw .credentialProcessFailed(profile: profile, reason: "('\(program)') printed no AccessKeyId")
        }
        guard let secret = value["SecretAccessKey"]?.stringValue, !secret.isEmpty else {
            throw .credentialProcessFailed(profile: profile, reason: "('\(program)') printed no SecretAccessKey")
        }
        var expiration: Timestamp?
        if let text = value["Expiration"]?.stringValue {
            guard let parsed = ISO8601.parse(text) else {
                throw .credentialProcessFailed(profile: profile, reason: "('\(program)') printed an Expiration that is not an ISO 8601 date-time")
            }
            expiration = parsed
        }
        return (AWSCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: value["SessionToken"]?.stringValue), expiration)
    }

    struct Failure: Error { var reason: String }

    /// Words as `shlex.split` (POSIX mode) makes them: whitespace separates, '…' keeps everything, "…" keeps
    /// all as written but `\"` and `\\`, a backslash outside quotes escapes the next character.
    static func split(_ text: String) throws(Failure) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = Array(text).makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\n", "\r":
                if inWord { words.append(current); current = ""; inWord = false }
            case "'":
                inWord = true
                while true {
                    guard let next = iterator.next() else { throw Failure(reason: "no closing quotation") }
                    if next == "'" { break }
                    current.append(next)
                }
            case "\"":
                inWord = true
                while true {
                    guard let next = iterator.next() else { throw Failure(reason: "no closing quotation") }
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { throw Failure(reason: "no closing quotation") }
                        if escaped != "\"" && escaped != "\\" { current.append("\\") }
                        current.append(escaped)
                        continue
                    }
                    current.append(next)
                }
            case "\\":
                inWord = true
                guard let escaped = iterator.next() else { throw Failure(reason: "no escaped character") }
                current.append(escaped)
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// Runs `arguments` (the program found on `PATH`), reading both outputs until it exits.
    private static func spawn(_ arguments: [String]) throws(Failure) -> (status: Int32, stdout: [UInt8], stderr: [UInt8]) {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw Failure(reason: String(cString: strerror(errno)))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for descriptor in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        close(outPipe[1])
        close(errPipe[1])
        guard started == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw Failure(reason: String(cString: strerror(started)))
        }
        var outputs: [[UInt8]] = [[], []]
        var open = [outPipe[0], errPipe[0]]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while open.contains(where: { $0 >= 0 }) {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for (slot, entry) in fds.enumerated() where entry.fd >= 0 && entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if outputs[slot].count < FileReader.maximumSize { outputs[slot] += buffer[0..<count] }
                } else if count == 0 || errno != EINTR {
                    close(entry.fd)
                    open[slot] = -1
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7f) == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), outputs[0], outputs[1])
    }
}
