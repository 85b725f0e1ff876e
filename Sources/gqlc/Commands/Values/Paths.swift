/// Where to read text from: a file path, or standard input (spelled `-`).
enum InputSource: Equatable, Sendable {
    case standardInput
    case file(String)

    /// `-` is standard input; anything else is a path.
    init(argument: String) {
        self = argument == "-" ? .standardInput : .file(argument)
    }
}
