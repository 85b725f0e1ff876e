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
    /// whole. A body stream alone would make libcurl send `Transfer-Encoding: chunked`, so ``attach(_:to:)``
    /// sends an explicit `Content-Length` and disables libcurl's chunked header, keeping the wire format of an
    /// `httpBody` request.
    ///
    /// libcurl re-sends only on a reused connection that answered nothing at all, where the server most likely
    /// closed the idle connection unread. It happens below GraphQLClient's retries, so for mutations too, as in
    /// any libcurl client.
    final class RewindableBody: NSObject, URLSessionTaskDelegate, Sendable {
        /// The body bytes; every stream handed out reads them from the start.
        let bytes: Data

        private init(_ bytes: Data) {
            self.bytes = bytes
        }

        /// Gives `request` the body `bytes` as a stream with a fixed length, and returns the delegate that the task
        /// needs to send it again. An empty body is left out: there is nothing to rewind, so it returns nil.
        /// Either way a `Content-Length` or `Transfer-Encoding` header given by the caller is replaced.
        static func attach(_ bytes: [UInt8], to request: inout URLRequest) -> RewindableBody? {
            guard !bytes.isEmpty else {
                // libcurl sends `Content-Length: 0` itself; a given length or encoding would contradict it.
                request.setValue(nil, forHTTPHeaderField: "Content-Length")
                request.setValue(nil, forHTTPHeaderField: "Transfer-Encoding")
                return nil
            }
            let body = RewindableBody(Data(bytes))
            request.httpBodyStream = InputStream(data: body.bytes)
            request.setValue(String(bytes.count), forHTTPHeaderField: "Content-Length")
            // libcurl gets this as `Transfer-Encoding:  ` and takes a blank value as "send no such header", so it
            // adds no chunked encoding of its own and sends the stream as is, bounded by the Content-Length above.
            request.setValue(" ", forHTTPHeaderField: "Transfer-Encoding")
            return body
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
        ) {
            completionHandler(InputStream(data: bytes))
        }

        /// Follows a redirect as URLSession does without a delegate, which never sends the body again (a 307 goes
        /// on as an empty POST, a 302 as a GET), so the body's length and stream stay behind.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            var redirected = request
            redirected.httpBodyStream = nil
            redirected.setValue(nil, forHTTPHeaderField: "Content-Length")
            redirected.setValue(nil, forHTTPHeaderField: "Transfer-Encoding")
            completionHandler(redirected)
        }
    }
#endif
