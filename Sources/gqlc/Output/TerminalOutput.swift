import GQLCore

/// The core's writers set up from the run's options and console: the format, the JSON layout, colour and width.
extension ResultPrinter {
    /// A printer to the console's output. `columns` are the record formats' columns (dot paths); JSON ignores them.
    /// Without columns (`raw`, which has no schema), a table or TSV takes the records' own keys.
    init(console: Console, globals: GlobalOptions, columns: [String] = []) {
        let style: JSONStyle = switch (globals.output, globals.layout) {
        case (.json, .pretty): .pretty
        case (.json, .automatic): console.outputIsTerminal ? .pretty : .compact
        default: .compact
        }
        self.init(
            sink: console.output, format: globals.output, style: style, coloured: Palette.isOn(globals, console: console),
            width: console.width, columns: columns)
    }
}

extension Palette {
    /// Whether standard output is coloured: `--color always|never`, else (`auto`, which `NO_COLOR` and `TERM=dumb`
    /// have already turned to `never`) when it is a terminal.
    static func isOn(_ globals: GlobalOptions, console: Console) -> Bool {
        switch globals.color {
        case .always: true
        case .never: false
        case .auto: console.outputIsTerminal
        }
    }
}

extension ProgressReporter {
    /// A reporter on standard error when progress should be shown, else nil: only when standard error is a terminal,
    /// standard output is not a pipe or socket, and neither `--quiet` nor `--verbose` is given.
    static func make(console: Console, globals: GlobalOptions) -> ProgressReporter? {
        guard console.errorIsTerminal, !console.outputMaySharePipe, !globals.quiet, !globals.verbose else { return nil }
        return ProgressReporter(sink: console.error)
    }
}
