#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain POSIX threads for a bulk job's workers, which block in network I/O: a dispatch queue's pool grows
/// slowly when its threads block, which would cap the job's concurrency.
public enum WorkerThreads {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `count` copies of `body` (each given its number) on their own threads while `meanwhile` runs on
    /// this one, then waits for all of them. A worker whose thread cannot be made runs here after `meanwhile`.
    public static func run(count: Int, _ body: @escaping @Sendable (Int) -> Void, meanwhile: () -> Void) {
        var threads: [pthread_t] = []
        var leftOver: [Int] = []
        for number in 0..<count {
            let box = Unmanaged.passRetained(Body { body(number) }).toOpaque()
            var thread = pthread_t()
            let made = pthread_create(&thread, nil, { raw in
                guard let raw else { return nil }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, box)
            if made == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Body>.fromOpaque(box).release()
                leftOver.append(number)
            }
        }
        meanwhile()
        for number in leftOver { body(number) }
        for thread in threads { pthread_join(thread, nil) }
    }
}

extension GraphQLError {
    /// Whether the error says the server is throttling: AppSync's and DynamoDB's throttling error types.
    public var isThrottling: Bool {
        guard let type = errorType else { return false }
        return type.contains("Throttl") || type.contains("TooManyRequests")
            || type.contains("ProvisionedThroughputExceeded") || type.contains("RequestLimitExceeded")
    }
}
