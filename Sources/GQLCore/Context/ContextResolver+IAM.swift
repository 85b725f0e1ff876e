import Synchronization

extension ContextResolver {
    /// The signer for IAM auth at `url`, with its region and credentials from the AWS credential chain; the notes say
    /// where the credentials came from (never the secrets).
    public func signer(for url: EndpointURL, file: SchemaFile?) throws(ContextError) -> SigV4Signer {
        let caFile = try caFile()
        do throws(AWSAuthError) {
            let chain = AWSCredentialChain(
                environment: settings.awsEnvironment, explicitProfile: settings.profile,
                services: CredentialServices(
                    transport: transport, timeout: settings.timeout, caFile: caFile, cancellation: cancellation),
                mfaCode: { [prompts] serial in prompts.mfaCode(serial: serial) })
            let files = try chain.loadFiles()
            try chain.requireNamedProfile(in: files)
            let region = try AWSRegion.resolve(
                flag: settings.region, environment: settings.awsEnvironment, fileRegion: file?.service.region,
                filePath: file?.path, url: url, profile: chain.profileRegion(in: files))
            // Resolved once, however many clients sign (an orphan check, a cascade plan, bulk workers,
            // reconnections): a credential_process runs once, an MFA code is asked once, SSO is called once.
            let (found, refreshing) = try credentials.value { () throws(AWSAuthError) in
                let fetchedAt = now()
                let found = try chain.resolve(files: files)
                note(.credentials(found))
                let onRefresh = notes.map { notes in { @Sendable (event: RefreshingCredentials.Event) in notes(.credentialsRefresh(event)) } }
                let refreshing = found.expiration == nil ? nil : RefreshingCredentials(
                    chain: chain, initial: found, fetchedAt: fetchedAt, onRefresh: onRefresh)
                return (found, refreshing)
            }
            var signer = SigV4Signer(credentials: found.credentials, region: region)
            signer.credentialSource = found.source
            signer.refreshing = refreshing
            return signer
        } catch {
            throw .awsAuth(error)
        }
    }

    /// Whether requests are signed (IAM auth).
    ///
    /// The IAM setting wins over an API key or token given at a lower level, loses to one given at a higher level and
    /// clashes with one given at the same level. Without it, a schema file whose default authorization type is
    /// `AWS_IAM`, or a profile (as with the AWS CLI), turns IAM on unless an API key or token was given. A profile or
    /// region without IAM is an error: silently ignoring them would leave the user believing their AWS settings were
    /// used.
    public func usesIAM(file: SchemaFile?) throws(ContextError) -> Bool {
        let signs = try iamIsChosen(file: file)
        if !signs, settings.profile != nil,
           let (other, origin) = settings.apiKey.map({ (Parameter.apiKey, $0.origin) })
               ?? settings.authToken.map({ (Parameter.authToken, $0.origin) })
        {
            throw .profileWithOtherAuth(other, origin: origin)
        }
        if !signs, let parameter = settings.profile != nil ? Parameter.profile : settings.region != nil ? .region : nil {
            throw .iamOnly(parameter)
        }
        return signs
    }

    private func iamIsChosen(file: SchemaFile?) throws(ContextError) -> Bool {
        let explicit = [(settings.apiKey?.origin, Parameter.apiKey), (settings.authToken?.origin, Parameter.authToken)]
        if let iam = settings.iam {
            for case (let origin?, let parameter) in explicit {
                if origin.rank > iam.origin.rank { return false }
                if origin.rank == iam.origin.rank { throw .iamWithOtherAuth(iam: iam.origin, other: parameter, origin: origin) }
            }
            return true
        }
        let hasKeyOrToken = settings.apiKey != nil || settings.authToken != nil
        return !hasKeyOrToken && (settings.profile != nil || file?.service.defaultAuthorizationType == "AWS_IAM")
    }
}

/// The AWS credentials of one resolver, resolved on first use and kept: every copy of the ``ContextResolver`` shares
/// them.
final class SharedCredentials: Sendable {
    private let resolved = Mutex<(ResolvedCredentials, RefreshingCredentials?)?>(nil)

    /// The credentials, from `resolve` the first time (under the lock, so that two threads never both resolve).
    func value(
        _ resolve: () throws(AWSAuthError) -> (ResolvedCredentials, RefreshingCredentials?)
    ) throws(AWSAuthError) -> (ResolvedCredentials, RefreshingCredentials?) {
        try resolved.withLock { (cached: inout (ResolvedCredentials, RefreshingCredentials?)?) throws(AWSAuthError) in
            if let cached { return cached }
            let made = try resolve()
            cached = made
            return made
        }
    }
}
