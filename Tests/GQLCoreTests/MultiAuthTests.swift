import Testing
@testable import GQLCore

/// The auth mode per model, in the order amplify-js's DataStore multiAuthStrategy tries rules (kind: custom, owner,
/// groups, private, public; then provider: function, userPools, oidc, iam, apiKey), and the config keys it reads.
@Suite struct MultiAuthTests {
    static let owner = AuthRule(allow: "owner", provider: "userPools", ownerField: "owner")
    static let publicKey = AuthRule(allow: "public", provider: "apiKey")
    static let privateIAM = AuthRule(allow: "private", provider: "iam")
    static let groups = AuthRule(allow: "groups", provider: "oidc", groups: ["admin"])
    static let custom = AuthRule(allow: "custom", provider: "function")

    @Test func candidatesFollowAmplifysOrder() {
        #expect(MultiAuth.candidates([Self.publicKey, Self.privateIAM, Self.owner, Self.groups, Self.custom])
            == [.lambda, .userPool, .oidc, .iam, .apiKey])
        // A rule without a provider: public means apiKey, the others userPools.
        #expect(MultiAuth.candidates([AuthRule(allow: "public"), AuthRule(allow: "private")]) == [.userPool, .apiKey])
    }

    @Test func choosesTheFirstConfiguredMode() {
        let rules = [Self.publicKey, Self.owner]
        #expect(MultiAuth.choose(rules: rules, configured: [.apiKey, .userPool], signedIn: true) == .userPool)
        #expect(MultiAuth.choose(rules: rules, configured: [.apiKey], signedIn: true) == .apiKey)
        // Not signed in: another allowed mode first, the user pool only when nothing else is allowed.
        #expect(MultiAuth.choose(rules: rules, configured: [.apiKey, .userPool], signedIn: false) == .apiKey)
        #expect(MultiAuth.choose(rules: [Self.owner], configured: [.apiKey, .userPool], signedIn: false) == .userPool)
        #expect(MultiAuth.choose(rules: [Self.privateIAM], configured: [.apiKey, .userPool], signedIn: true) == nil)
    }

    @Test func amplifyOutputsNamesThePoolAndEveryType() throws {
        let text = #"""
            {"auth": {"user_pool_id": "us-east-1_AbC", "user_pool_client_id": "client1", "aws_region": "us-east-1"},
             "data": {"url": "https://x/graphql", "default_authorization_type": "API_KEY",
                      "authorization_types": ["AMAZON_COGNITO_USER_POOLS", "AWS_IAM"]}}
            """#
        let file = try SchemaLoader.load(bytes: Array(text.utf8), path: "amplify_outputs.json")
        #expect(file.service.userPoolId == "us-east-1_AbC")
        #expect(file.service.userPoolClientId == "client1")
        #expect(file.service.authModes == [.apiKey, .userPool, .iam])
    }

    @Test func legacyConfigNamesThePoolAndEveryType() throws {
        let text = #"""
            {"aws_appsync_graphqlEndpoint": "https://x/graphql", "aws_appsync_authenticationType": "AMAZON_COGNITO_USER_POOLS",
             "aws_appsync_additionalAuthenticationTypes": "API_KEY, AWS_IAM",
             "aws_user_pools_id": "eu-west-1_Xyz", "aws_user_pools_web_client_id": "web1"}
            """#
        let file = try SchemaLoader.load(bytes: Array(text.utf8), path: "amplifyconfiguration.json")
        #expect(file.service.userPoolId == "eu-west-1_Xyz")
        #expect(file.service.userPoolClientId == "web1")
        #expect(file.service.authModes == [.userPool, .apiKey, .iam])
    }

    @Test func userPoolEndpointAndKey() {
        let config = UserPoolConfig(poolId: "cn-north-1_Q1", clientId: "c")
        #expect(config.region == "cn-north-1")
        #expect(config.endpointURL == "https://cognito-idp.cn-north-1.amazonaws.com.cn/")
        #expect(config.storeKey == "cn-north-1_Q1/c")
        #expect(CognitoSRP(poolId: "us-east-1_AbC123").poolName == "AbC123")
    }
}
