import GQLCore

/// How a bulk `create`, `update` or `delete` runs: `--concurrency N` and `--rejects FILE`.
struct BulkSettings: Equatable, Sendable {
    /// Requests in flight.
    var concurrency = Defaults.concurrency
    /// Where failed and unsent input lines are written, whole, for a re-run.
    var rejects: String?
}

/// The options of the bulk commands, declared once so that their help reads the same everywhere.
enum BulkOptions {

    static let input = OptionSpec(
        long: "input", value: "FILE|-",
        help: """
            Read records from FILE ('-' for standard input): one JSON object, NDJSON (one object per \
            line) or a JSON array, streamed. More than one record makes a bulk job (see Bulk).
            """)
    static let concurrency = OptionSpec(
        long: "concurrency", value: "N", default: String(Defaults.concurrency),
        help: "Bulk jobs: keep up to N requests in flight.")
    static let rejects = OptionSpec(
        long: "rejects", value: "FILE",
        help: "Bulk jobs: write each failed or unsent input record, whole, to FILE (a re-run on FILE finishes the job).")

    /// The bulk commands, whose help differs in what a retry and the input's extra fields mean.
    enum Command {
        case create, update, delete
    }

    /// The Bulk section of `command`'s help page.
    static func help(for command: Command) -> HelpSection {
        HelpSection("Bulk", [
            .paragraph(
                """
                With --input holding several records (NDJSON, a JSON array, or JSON values one after \
                another, as 'gqlc list --output ndjson' and jq print them), each record is one request, \
                --concurrency N at a time. Memory stays flat however long the input. stdout gets one NDJSON \
                line per record done, the record as the server returned it, in input order. A failed \
                record goes to stderr with its input line number and the server's message, and its input \
                line to --rejects FILE. A summary line ends stderr. Exit status: 0 when every record was \
                done, 3 when some failed, 1 when all failed, 130 when interrupted, 7 or 141 when output failed.
                """),
            .paragraph(
                """
                --fields A,B asks the server for those fields of each record only (key fields are always \
                included) and prints them; --output table, tsv or raw prints the records as 'gqlc list' \
                does (a table's columns are fitted to its first 50 rows). On a terminal, a progress line \
                on stderr counts the records done and failed; --quiet turns it off.
                """),
            .paragraph(
                """
                Failures that may pass (network errors, timeouts, HTTP 429 and 5xx, throttling errors) \
                are retried (--retries); when the server throttles, every worker slows down together and \
                speeds up again as requests succeed, as the AWS SDKs' adaptive retry mode does, and stderr \
                says so. A steady share of throttles that slowing down does not lower is no reason to slow \
                further; a throttled record was not applied, and is sent again beyond --retries.
                """ + " " + retries(command)),
            .paragraph(
                """
                Ctrl-C stops sending: what finished is printed, records in flight are reported (they may \
                have been applied), and --rejects holds them and the rest of the input. When stdout or \
                --rejects cannot be written (the reader of a pipe went away, a full disk), no more records \
                are started: the ones in flight finish, the rest go to --rejects, the summary says what was \
                done, and the status is 141 (SIGPIPE) for a closed pipe, else 7. A new --rejects file is \
                readable by its owner only (0600).
                """),
        ])
    }

    /// What a retry of `command` cannot do twice, and what happens to the input's other fields.
    private static func retries(_ command: Command) -> String {
        switch command {
        case .create:
            """
            Retries never duplicate: a create keeps the key it was given, or one generated before its first \
            attempt. Fields that the create input does not take (read-only fields, associations, \
            __typename) are dropped, so 'gqlc list MODEL --output ndjson' output can be fed back; a \
            note on stderr says when read-only values such as createdAt are dropped (the server sets them).
            """
        case .update:
            """
            A retried update sends the same values again, so it cannot apply twice. Fields that the \
            update input does not take (read-only fields, associations, __typename) are dropped, so \
            records that 'gqlc list MODEL --output ndjson' printed can be edited and fed back.
            """
        case .delete:
            """
            Each record is deleted by its key; its other fields are ignored, so 'gqlc list MODEL \
            --output ndjson' output can be fed back. A record that a retried delete finds gone was \
            deleted by its first attempt, and counts as done.
            """
        }
    }


    /// A whole-app job's `--concurrency`: the default, or the number given (at most 256).
    static func jobConcurrency(_ arguments: CommandArguments) throws(UsageError) -> Int {
        guard let text = arguments.options.value(concurrency) else { return Defaults.concurrency }
        return min(try ValueParsing.positiveInteger(text, for: concurrency), 256)
    }

    /// `--concurrency` and `--rejects`.
    static func settings(_ arguments: CommandArguments) throws(UsageError) -> BulkSettings {
        var settings = BulkSettings()
        if let text = arguments.options.value(concurrency) {
            settings.concurrency = try ValueParsing.positiveInteger(text, for: concurrency)
            guard settings.concurrency <= 256 else {
                throw ValueParsing.invalid(text, for: concurrency, expected: "a whole number from 1 to 256")
            }
        }
        if let path = arguments.options.value(rejects) {
            guard !path.isEmpty, path != "-" else {
                throw ValueParsing.invalid(path, for: rejects, expected: "a file name")
            }
            settings.rejects = path
        }
        return settings
    }
}
