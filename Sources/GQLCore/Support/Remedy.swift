/// Something to do outside the failed call that would fix it: sign in, add or remove an environment.
///
/// The core says it in its own words (``label``); a front end names the command that does it (`run gqlc login`)
/// through ``RemedialMessage/message(remedy:)`` or ``ParameterizedMessage/message(naming:remedy:)``, so the core
/// never names a command of its front end.
public enum Remedy: Sendable, Equatable, CaseIterable {
    /// Sign in to the user pool.
    case signIn
    /// Sign in to the user pool again, the stored sign-in being unusable.
    case signInAgain
    /// Add an environment of this name to the config file.
    case addEnvironment(String)
    /// Remove the environment of this name from the config file.
    case removeEnvironment(String)
    /// Take the models from the API itself, by introspection (after "or").
    case pullSchema
    /// A GraphQL document sent as written can select what the models leave out.
    case rawDocument
    /// Give the parameter (a front end says how: its flag, or its variable).
    case give(Parameter)
    /// Pull the API's schema into the cache (from the parameter's API, when given), as the command that does it is
    /// named: `run X`, `pulled by X`.
    case schemaPull(from: Parameter?)

    /// One of each kind, for checks that every remedy has a front end's words.
    public static let allCases: [Remedy] = [
        .signIn, .signInAgain, .addEnvironment("NAME"), .removeEnvironment("NAME"), .pullSchema, .rawDocument,
        .schemaPull(from: nil), .schemaPull(from: .endpoint),
    ] + Parameter.allCases.filter { $0 != .fieldValue }.map(Remedy.give)

    /// The remedy in plain words, as the core's own messages say it.
    public var label: String {
        switch self {
        case .signIn: "sign in"
        case .signInAgain: "sign in again"
        case .addEnvironment: "add one that defines it"
        case .removeEnvironment: "remove it first"
        case .pullSchema: "the models pulled from the API by introspection"
        case .rawDocument: "a document sent as written can select it"
        case .give(let parameter): "give the \(parameter.label)"
        case .schemaPull(let parameter): "a schema pull" + (parameter.map { " from the \($0.label)" } ?? "")
        }
    }
}

/// An error whose message says how to fix it. Its `description` says the remedy by ``Remedy/label``; a front end
/// calls ``message(remedy:)`` with its own words.
public protocol RemedialMessage: CustomStringConvertible {
    /// The one-line message, with each remedy said by `name`.
    func message(remedy name: (Remedy) -> String) -> String
}

extension RemedialMessage {
    /// The message in the core's words.
    public var description: String { message(remedy: \.label) }
}
