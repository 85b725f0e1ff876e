import GQLCore
import Synchronization

extension Session {
    /// The signer for IAM auth at `url`, with its region and credentials from the AWS credential chain;
    /// `--verbose` names where the credentials came from (never the secrets).
    func signer(for url: EndpointURL, file: SchemaFile?) throws(RunFailure) -> SigV4Signer {
        let caFile = try caFile()
        do throws(AWSAuthError) {
            let chain = AWSCredentialChain(
                environment: globals.awsEnvironment, explicitProfile: globals.profile,
                services: CredentialServices(
                    transport: CurlTransport.shared, timeout: globals.timeout, caFile: caFile, cancellation: cancellation),
                mfaCode: { [cancellation] serial in
                    // On the terminal only (standard input may be a document); nil without one.
                    try? Prompter(fromStandardInput: false, cancellation: cancellation).line("MFA code for \(serial)", secret: false)
                        .trimmingWhitespace
                })
            let files = try chain.loadFiles()
            try chain.requireNamedProfile(in: files)
            let region = try AWSRegion.resolve(
                flag: globals.region, environment: globals.awsEnvironment, fileRegion: file?.service.region,
                filePath: file?.path, url: url, profile: chain.profileRegion(in: files))
            // Resolved once for the run, however many clients sign (an orphan check, a cascade plan, bulk workers,
            // reconnections): a credential_process runs once, an MFA code is asked once, SSO is called once.
            let (found, refreshing) = try credentials.value { () throws(AWSAuthError) in
                let fetchedAt = Timestamp.now()
                let found = try chain.resolve(files: files)
                if globals.verbose {
                    console.error.write("* credentials: \(HeaderRedaction.keyID(found.credentials.accessKeyID)) from \(found.source)\n")
                }
                let refreshing = found.expiration == nil ? nil : RefreshingCredentials(
                    chain: chain, initial: found, fetchedAt: fetchedAt, onRefresh: globals.verbose ? Self.reportRefresh(to: console) : nil)
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

    /// `--verbose` lines for a refresh of temporary credentials: the new key id and its source, or why the
    /// refresh failed (never a secret).
    private static func reportRefresh(to console: Console) -> @Sendable (RefreshingCredentials.Event) -> Void {
        { event in
            switch event {
            case .refreshed(let found):
                console.error.write("* credentials refreshed: \(HeaderRedaction.keyID(found.credentials.accessKeyID)) from \(found.source)\n")
            case .failed(let error, let keeping):
                console.error.write("* credentials refresh failed, still using \(HeaderRedaction.keyID(keeping)): \(error.commandLineMessage)\n")
            }
        }
    }

    /// Whether requests are signed (IAM auth).
    ///
    /// `--iam` wins over an API key or token from the environment, and clashes with one on the command line;
    /// `GQLC_IAM` loses to one given by flag and clashes with one from the environment. Without either, a schema
    /// file whose default authorization type is `AWS_IAM`, or `--profile` (as with the AWS CLI), turns IAM on
    /// unless an API key or token was given. `--profile` or `--region` without IAM is an error: silently ignoring
    /// them would leave the user believing their AWS settings were used.
    func usesIAM(file: SchemaFile?) throws(RunFailure) -> Bool {
        let signs = try iamIsChosen(file: file)
        if !signs, globals.profile != nil,
           let other = globals.apiKey.map({ $0.origin.describe(GlobalOptions.apiKeyOption) })
               ?? globals.authToken.map({ $0.origin.describe(GlobalOptions.authTokenOption) })
        {
            throw RunFailure.usage(
                "--profile takes IAM (SigV4) credentials, but \(other) chooses another auth; "
                    + "leave out one of them")
        }
        if !signs, let option = globals.profile != nil ? GlobalOptions.profileOption
            : globals.region != nil ? GlobalOptions.regionOption : nil
        {
            throw RunFailure.usage(
                "\(option.flagName) applies to IAM (SigV4) auth only, which this request does not use; "
                    + "add --iam, or leave out \(option.flagName)")
        }
        return signs
    }

    private func iamIsChosen(file: SchemaFile?) throws(RunFailure) -> Bool {
        let explicit = [(globals.apiKey?.origin, GlobalOptions.apiKeyOption), (globals.authToken?.origin, GlobalOptions.authTokenOption)]
        if let iam = globals.iam {
            for case (let origin?, let option) in explicit {
                if origin.rank > iam.origin.rank { return false }
                if origin.rank == iam.origin.rank {
                    throw RunFailure.usage(
                        "\(iam.origin.describe(GlobalOptions.iamOption)) and \(origin.describe(option)) cannot be used together: "
                            + "IAM auth signs requests instead of sending an API key or token")
                }
            }
            return true
        }
        let hasKeyOrToken = globals.apiKey != nil || globals.authToken != nil
        return !hasKeyOrToken && (globals.profile != nil || file?.service.defaultAuthorizationType == "AWS_IAM")
    }
}
/// The AWS credentials of one run, resolved on first use and kept: every copy of the run's ``Session`` shares them.
final class RunCredentials: Sendable {
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
