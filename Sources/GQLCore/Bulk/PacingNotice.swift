/// What a bulk job's pacing is doing and why, for the person watching: emitted by ``AdaptiveRateLimiter`` when
/// pacing starts, when it slows to half the pace last said or below, when throttles turn out not to depend on the rate, and when the
/// server asks every request to wait. Rare by design: a few lines per job, never one per request.
public enum PacingNotice: Sendable, Equatable, CustomStringConvertible {
    /// The server throttled for the first time: requests are now paced at `rate` per second.
    case started(rate: Double)
    /// Throttles keep coming: the pace has fallen to half the pace last said (or the highest since) or below.
    case changed(rate: Double)
    /// Slowing down did not make throttles rarer: about `fraction` of the answers are throttled whatever the rate,
    /// so they are no reason to slow further; the pace is back at `rate` per second.
    case independentOfRate(fraction: Double, rate: Double)
    /// The server asked (`Retry-After`) for no request during `seconds`: every worker waits.
    case retryAfter(seconds: Double)

    /// One line for people, without a program name.
    public var description: String {
        switch self {
        case .started(let rate):
            return "the server is throttling requests; pacing them at \(Self.perSecond(rate))"
        case .changed(let rate):
            return "pacing requests at \(Self.perSecond(rate)) (the server is throttling)"
        case .independentOfRate(let fraction, let rate):
            return "about \(Int((fraction * 100).rounded()))% of requests are throttled whatever the pace, so slowing down "
                + "does not help; pacing them at \(Self.perSecond(rate)) and retrying the throttled ones"
        case .retryAfter(let seconds):
            return "the server asked to wait \(formatSeconds(seconds.rounded(.up))) (Retry-After); every request waits"
        }
    }

    /// `12 requests/s`, `0.5 requests/s`.
    private static func perSecond(_ rate: Double) -> String {
        let text = rate >= 10 ? String(Int(rate.rounded())) : formatC("%.2g", rate)
        return text + " requests/s"
    }
}
