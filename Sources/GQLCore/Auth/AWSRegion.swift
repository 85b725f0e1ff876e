/// Finds the region to sign for: `--region`, the region in an AppSync endpoint's host name
/// (`<id>.appsync-api.<region>.amazonaws.com`), the config file's region, the AWS profile's `region`, then `$AWS_REGION` and
/// `$AWS_DEFAULT_REGION`. The API's own host and config come before the shell's defaults, which are
/// often set for some other work and would give a signature AppSync refuses for its scope.
///
/// ```swift
/// let region = try AWSRegion.resolve(flag: nil, environment: env, fileRegion: nil, filePath: nil, url: endpoint.url)
/// ```
public enum AWSRegion {
    /// The first region found, checked to look like one.
    public static func resolve(
        flag: String?, environment: [String: String], fileRegion: String?, filePath: String?, url: EndpointURL,
        profile: AWSProfileRegion? = nil
    ) throws(AWSAuthError) -> String {
        let host = url.host
        var candidates: [(value: String?, source: String?)] = [
            (flag, nil),
            (fromAppSyncHost(host), "the endpoint host \(host)"),
        ]
        if let filePath { candidates.append((fileRegion, filePath)) }
        if let profile { candidates.append((profile.region, "profile '\(profile.name)' in \(profile.path)")) }
        candidates += [
            (environment["AWS_REGION"], "$AWS_REGION"),
            (environment["AWS_DEFAULT_REGION"], "$AWS_DEFAULT_REGION"),
        ]
        for candidate in candidates {
            guard let region = candidate.value?.trimmingSpaces, !region.isEmpty else { continue }
            guard isValid(region) else { throw .invalidRegion(region, source: candidate.source) }
            return region
        }
        var looked = ["the endpoint host \(host.isEmpty ? "(none)" : host) (not an AppSync host)"]
        if let filePath { looked.append("\(filePath) (no region)") }
        if let profile { looked.append("profile '\(profile.name)' in \(profile.path) (no region)") }
        looked += ["$AWS_REGION", "$AWS_DEFAULT_REGION"]
        throw .missingRegion(looked: looked)
    }

    /// The region of an AppSync API host, `abc.appsync-api.eu-west-1.amazonaws.com` → `eu-west-1`, or nil.
    public static func fromAppSyncHost(_ host: String) -> String? {
        let labels = host.lowercased().split(separator: ".").map(String.init)
        guard let index = labels.firstIndex(of: "appsync-api"), index > 0, index + 2 < labels.count,
              labels[index + 2] == "amazonaws"
        else { return nil }
        let region = labels[index + 1]
        return isValid(region) ? region : nil
    }

    /// Lowercase letters, digits and dashes, starting with a letter: `us-east-1`, `cn-north-1`, `us-gov-west-1`.
    static func isValid(_ region: String) -> Bool {
        guard let first = region.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return region.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}

/// The `region` setting of the AWS profile in use, and where it is (or would be).
public struct AWSProfileRegion: Sendable, Equatable {
    /// The profile's name.
    public var name: String
    /// Its region, nil when it has none.
    public var region: String?
    /// The config file's path.
    public var path: String
}
