import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// A request body that URLSession on Linux can send again from the start.
    ///
    /// When a kept-alive connection turns out to be closed by the server just as a request goes out (no answer
    /// at all), libcurl re-sends the request on a new connection and first asks URLSession to rewind the body.
    /// For a body given as `httpBody` (or an upload task's data) swift-corelibs-foundation reports the rewind as
    /// done without doing it, so the new connection gets the headers and no body: the server waits for the body,
    /// libcurl spins on a writable socket, and the request only ends at its deadline.
    ///
    /// Given as a stream instead, with this object as the task's delegate, the rewind asks
    /// `urlSession(_:task:needNewBodyStream:)` for a fresh stream over the same bytes, and the re-sent request is
    /// whole. libcurl only does this for a reused connection that answered nothing; a body stream alone would
    /// make libcurl send `Transfer-Encoding: chunked`, so ``prepare(_:)`` sends an explicit `Content-Length`
    /// and disables libcurl's chunked header, keeping the wire format of an `httpBody` request.
    final class RewindableBody: NSObject, URLSessionTaskDelegate, Sendable {
        /// The body bytes; every stream handed out reads them from the start.
        let bytes: Data

        init(_ bytes: [UInt8]) {
            self.bytes = Data(bytes)
        }

        /// Gives `request` this body as a stream with a fixed length. An empty body is left out entirely.
        func prepare(_ request: inout URLRequest) {
            guard !bytes.isEmpty else { return }
            request.httpBodyStream = InputStream(data: bytes)
            request.setValue(String(bytes.count), forHTTPHeaderField: "Content-Length")
            // libcurl drops a header given with no value after the colon; without its own Transfer-Encoding
            // header it sends the stream as is, bounded by the Content-Length above.
            request.setValue(" ", forHTTPHeaderField: "Transfer-Encoding")
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
        ) {
            completionHandler(InputStream(data: bytes))
        }
    }
#endif
