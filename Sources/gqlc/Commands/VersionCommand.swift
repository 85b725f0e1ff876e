/// `gqlc version`: the same line as `gqlc --version`, for people who reach for a command (as in gh and kubectl).
enum VersionCommand {
    static let spec = CommandSpec(
        name: "version",
        abstract: "Print the version of gqlc (as --version does).",
        synopsis: [""],
        examples: [Example("The version, e.g. for a bug report", "gqlc version")])
}
