/// How a watched listing is kept live.
public enum WatchMode {
    /// By listing again every `every` seconds.
    case polling(every: Double)
    /// Through the model's subscriptions (see
    /// ``SubscribeOperation/watching(_:conditions:includes:builder:withFilterObject:)``) over a real-time connection.
    case subscriptions(SubscribeOperation, RealtimeContext)
}

extension WatchOperation {
    /// Watches in `mode` on `screen`, as `gqlc list --watch` does, reading the table's keys meanwhile: what the
    /// subscriptions say besides changes goes to `listener`, and `end` is told how the watch ended when that is to be
    /// said, and gives the status of that ending.
    ///
    /// A polled listing's failure is told while it is still on the screen; the subscriptions' ending before the screen
    /// is put away, and a failure of their listing after it. The last status `end` gave is the watch's, unless the
    /// person watching left the table (``LiveEnding/left``) and no listing of the subscriptions failed.
    public func run<Status>(
        _ mode: WatchMode, on screen: WatchScreen, in context: APIContext, cancellation: CancellationFlag,
        listener: inout LiveListener, end: (LiveEnding) -> Status
    ) -> Status {
        var status: Status?
        switch mode {
        case .polling(let seconds):
            screen.startPolling(every: seconds)
            screen.withKeys(cancellation: cancellation) {
                let kind = poll(every: seconds, in: context, cancellation: cancellation) { report in
                    if case .listingFailed(let result) = report { status = end(.listingFailed(result)) }
                    return screen.show(report)
                }
                screen.finish()
                if status == nil { status = end(.ended(kind)) }
            }
        case .subscriptions(let subscriptions, let realtime):
            screen.withKeys(cancellation: cancellation) {
                let kind = run(subscriptions, in: context, realtime: realtime) { report in
                    screen.show(report) { event in _ = listener.hear(event) }
                }
                status = end(listener.ending(kind))
            }
            screen.finish()
            // A failed listing is the watch's status even when the person watching left (`q` cut it short).
            if let failure = screen.listingFailure { return end(.listingFailed(failure)) }
        }
        guard !screen.quitByKey, let status else { return end(.left) }
        return status
    }
}
