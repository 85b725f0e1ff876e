/// What the network side reports for `--verbose`. Header values are already redacted when emitted.
public enum TraceEvent: Sendable, Equatable {
    /// An attempt is about to be sent (`attempt` counts from 1).
    case request(method: String, url: String, headers: [HTTPHeader], bodyBytes: Int, attempt: Int)
    /// The GraphQL operation being sent (once per operation, before its first attempt).
    case operation(document: String, variables: JSONObject, operationName: String?)
    /// A response arrived after `seconds`.
    case response(status: Int, headers: [HTTPHeader], bytes: Int, seconds: Double)
    /// An attempt failed without a response after `seconds`.
    case failure(TransportError, seconds: Double)
    /// Retry number `retry` of at most `maxRetries` will be sent after `delay` seconds.
    case retry(retry: Int, maxRetries: Int, reason: RetryReason, delay: Double)
    /// A list page was received (`page` counts from 1).
    case page(page: Int, items: Int, nextToken: Bool)

    /// The event as text lines for stderr, `curl -v` style: `> ` for what is sent, `< ` for what came back,
    /// `* ` for notes. Multi-line values (the document) keep their lines.
    public var lines: [String] { lines(naming: \.label) }

    /// The lines, with parameters in messages named by `name` (see ``ParameterizedMessage``).
    public func lines(naming name: (Parameter) -> String) -> [String] {
        switch self {
        case .request(let method, let url, let headers, let bodyBytes, let attempt):
            let suffix = attempt > 1 ? " (attempt \(attempt))" : ""
            return ["> \(method) \(url)\(suffix)"] + headers.map { "> \($0.name): \($0.value)" } + ["> (\(bodyBytes) bytes)"]
        case .operation(let document, let variables, let operationName):
            var lines = ["* operation\(operationName.map { " \($0)" } ?? ""):"]
            lines += document.split(separator: "\n", omittingEmptySubsequences: false).map { "*   \($0)" }
            lines.append("* variables: \(JSONValue.object(variables).serialized())")
            return lines
        case .response(let status, let headers, let bytes, let seconds):
            return ["< HTTP \(status) (\(bytes) bytes in \(Self.milliseconds(seconds)))"] + headers.map { "< \($0.name): \($0.value)" }
        case .failure(let error, let seconds):
            return ["* \(error.message(naming: name)) after \(Self.milliseconds(seconds))"]
        case .retry(let retry, let maxRetries, let reason, let delay):
            return ["* retry \(retry)/\(maxRetries) after \(reason.description), waiting \(Self.milliseconds(delay))"]
        case .page(let page, let items, let nextToken):
            return ["* page \(page): \(items) item\(items == 1 ? "" : "s")\(nextToken ? ", more to come" : ", last page")"]
        }
    }

    /// For a retry worth telling about even without `--verbose`: one that waits at least
    /// ``Defaults/retryNoticeSeconds`` (a `Retry-After`, a long backoff) or follows an attempt that timed out (which
    /// already took the whole timeout). Nil for other events and short waits.
    public var retryNotice: String? {
        guard case .retry(let retry, let maxRetries, let reason, let delay) = self,
              delay >= Defaults.retryNoticeSeconds || reason == .timeout else { return nil }
        let wait = delay >= 1 ? formatSeconds(delay.rounded()) : Self.milliseconds(delay)
        return "\(reason) on attempt \(retry) of \(maxRetries + 1); waiting \(wait) before retrying"
    }

    private static func milliseconds(_ seconds: Double) -> String {
        "\(Int((seconds * 1000).rounded())) ms"
    }
}

/// Receives trace events; called on the thread that runs the request.
public typealias TraceSink = @Sendable (TraceEvent) -> Void
