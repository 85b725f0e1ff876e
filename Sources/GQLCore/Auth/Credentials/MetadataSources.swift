#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
/// Why a metadata source gave nothing: it is not there (a laptop has no instance metadata service).
struct SourceUnavailable: Error, Equatable {
    var reason: String
}

extension AWSCredentialChain {
    /// The container endpoint (ECS task roles, EKS Pod Identity): `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI`
    /// under `http://169.254.170.2`, or `AWS_CONTAINER_CREDENTIALS_FULL_URI`, with the `Authorization` header
    /// from `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE` or `AWS_CONTAINER_AUTHORIZATION_TOKEN`. Nil when neither URI is set.
    ///
    /// As botocore's `ContainerMetadataFetcher`, a full URI over plain http must name a loopback address or one
    /// of the ECS/EKS hosts, so that the token and the credentials never cross a network in the clear.
    func container() throws(AWSAuthError) -> ResolvedCredentials? {
        let url: String
        if let relative = env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") {
            url = "http://169.254.170.2" + (relative.hasPrefix("/") ? relative : "/" + relative)
        } else if let full = env("AWS_CONTAINER_CREDENTIALS_FULL_URI") {
            url = full
        } else {
            return nil
        }
        let source = "the container credentials endpoint"
        guard let endpoint = EndpointURL(string: url) else {
            throw .serviceRefused(source: source, code: nil, message: "'\(url)' is not a URL")
        }
        if endpoint.scheme != "https", !Self.isContainerHost(endpoint.host) {
            throw .invalidSetting(
                variable: "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                reason: "'\(url)' is plain \(endpoint.scheme) to \(endpoint.host), which is allowed only to a loopback "
                    + "address or one of \(Self.containerHosts.joined(separator: ", ")); use https")
        }
        var headers: [HTTPHeader] = [HTTPHeader(name: "Accept", value: "application/json")]
        if let token = try containerAuthorization() {
            headers.append(HTTPHeader(name: "Authorization", value: token))
        }
        let request = HTTPRequest(url: endpoint, method: "GET", headers: headers, body: [], timeout: 2, caFile: services.caFile)
        let response = try services.send(request, source: source)
        let (credentials, expiration) = try services.metadataCredentials(response, source: source)
        return ResolvedCredentials(credentials: credentials, source: "\(source) \(url)", expiration: expiration)
    }

    /// The hosts besides loopback addresses that botocore lets container credentials come from over plain http:
    /// the ECS endpoint, the EKS Pod Identity agent (IPv4, IPv6) and `localhost`.
    static let containerHosts = ["169.254.170.2", "169.254.170.23", "fd00:ec2::23", "localhost"]

    /// Whether `host` is a loopback address (127.0.0.0/8, ::1) or one of ``containerHosts``.
    static func isContainerHost(_ host: String) -> Bool {
        let host = host.lowercased()
        if containerHosts.contains(host) { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        return false
    }

    /// The `Authorization` value: the token file's text (without its trailing line break), else
    /// `AWS_CONTAINER_AUTHORIZATION_TOKEN`; nil without either. A token with a line break is refused, as botocore does.
    private func containerAuthorization() throws(AWSAuthError) -> String? {
        let token: String
        let variable: String
        if let tokenFile = env("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE") {
            do {
                token = try FileReader.text(atPath: tokenFile).trimmingWhitespace
            } catch {
                throw .unreadableFile(what: "the container authorization token", error: error)
            }
            variable = "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"
        } else if let value = env("AWS_CONTAINER_AUTHORIZATION_TOKEN") {
            (token, variable) = (value, "AWS_CONTAINER_AUTHORIZATION_TOKEN")
        } else {
            return nil
        }
        if token.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) {
            throw .invalidSetting(variable: variable, reason: "the token has a line break inside, which a header value cannot hold")
        }
        return token
    }

    /// IMDSv2, as botocore's `InstanceMetadataFetcher`: a session token by `PUT /latest/api/token`, the role
    /// name from `/latest/meta-data/iam/security-credentials/`, then its credentials. One attempt of one
    /// second each (`AWS_METADATA_SERVICE_TIMEOUT`, `AWS_METADATA_SERVICE_NUM_ATTEMPTS`), so a laptop does not
    /// wait; `AWS_EC2_METADATA_SERVICE_ENDPOINT` moves it. Success with nil: the instance has no role.
    func instanceMetadata() -> Result<ResolvedCredentials?, SourceUnavailable> {
        let base = env("AWS_EC2_METADATA_SERVICE_ENDPOINT") ?? "http://169.254.169.254"
        let timeout = env("AWS_METADATA_SERVICE_TIMEOUT").flatMap(Double.init) ?? Defaults.instanceMetadataTimeout
        let attempts = max(1, env("AWS_METADATA_SERVICE_NUM_ATTEMPTS").flatMap { Int($0) } ?? Defaults.instanceMetadataAttempts)
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        func get(_ path: String, method: String = "GET", headers: [HTTPHeader]) -> Result<HTTPResponse, SourceUnavailable> {
            guard let url = EndpointURL(string: root + path) else { return .failure(SourceUnavailable(reason: "'\(base)' is not a URL")) }
            var last = SourceUnavailable(reason: "not reachable at \(base)")
            for _ in 0..<attempts {
                do {
                    let response = try services.transport.send(
                        HTTPRequest(url: url, method: method, headers: headers, body: [], timeout: timeout), cancellation: services.cancellation)
                    if response.status < 500 { return .success(response) }
                    last = SourceUnavailable(reason: "HTTP \(response.status) from \(base)")
                } catch {
                    last = SourceUnavailable(reason: "not reachable at \(base)")
                }
            }
            return .failure(last)
        }
        var headers: [HTTPHeader] = []
        switch get("/latest/api/token", method: "PUT", headers: [HTTPHeader(name: "X-aws-ec2-metadata-token-ttl-seconds", value: "21600")]) {
        case .failure(let reason): return .failure(reason)
        case .success(let response) where response.isSuccess:
            headers.append(HTTPHeader(name: "X-aws-ec2-metadata-token", value: String(decoding: response.body, as: UTF8.self)))
        case .success(let response) where [403, 404, 405].contains(response.status):
            break  // IMDSv1 only, as botocore falls back.
        case .success(let response):
            return .failure(SourceUnavailable(reason: "HTTP \(response.status) for a session token from \(base)"))
        }
        let listPath = "/latest/meta-data/iam/security-credentials/"
        let role: String
        switch get(listPath, headers: headers) {
        case .failure(let reason): return .failure(reason)
        case .success(let response) where response.status == 404: return .success(nil)
        case .success(let response) where response.isSuccess:
            guard let first = String(decoding: response.body, as: UTF8.self).split(whereSeparator: \.isNewline).first else { return .success(nil) }
            role = first.trimmingSpaces
        case .success(let response):
            return .failure(SourceUnavailable(reason: "HTTP \(response.status) for the role name from \(base)"))
        }
        switch get(listPath + role, headers: headers) {
        case .failure(let reason): return .failure(reason)
        case .success(let response):
            let source = "the instance metadata service (role \(role))"
            do throws(AWSAuthError) {
                let (credentials, expiration) = try services.metadataCredentials(response, source: source)
                return .success(ResolvedCredentials(credentials: credentials, source: source, expiration: expiration))
            } catch {
                return .failure(SourceUnavailable(reason: error.message(naming: \.label)))
            }
        }
    }
}
