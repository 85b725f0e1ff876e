/// Why a file of events cannot be published; the caller names the file.
public enum EventsInputError: Error, Sendable, Equatable {
    /// Line `line` (from 1) is not JSON.
    case invalidJSON(line: Int, JSONParseError)
    /// Nothing but blank lines.
    case noEvents
}

extension EventsPublisher {
    /// The events of an NDJSON text: one JSON value per line, blank lines skipped.
    public static func events(lines text: String) throws(EventsInputError) -> [JSONValue] {
        var events: [JSONValue] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
            do {
                events.append(try JSONValue.parse(String(line)))
            } catch {
                throw .invalidJSON(line: number + 1, error)
            }
        }
        guard !events.isEmpty else { throw .noEvents }
        return events
    }

    /// `{"successful": [{"identifier", "index"}], "failed": [{"index", "error"}]}`, and whether any failed.
    public static func summary(_ outcomes: [Outcome]) -> (answer: JSONValue, someFailed: Bool) {
        let successful = outcomes.filter { $0.error == nil }.map { outcome -> JSONValue in
            ["identifier": outcome.identifier.map(JSONValue.string) ?? .null, "index": .number(JSONNumber(outcome.index))]
        }
        let failed = outcomes.filter { $0.error != nil }.map { outcome -> JSONValue in
            ["index": .number(JSONNumber(outcome.index)), "error": .string(outcome.error ?? "")]
        }
        return (["successful": .array(successful), "failed": .array(failed)], !failed.isEmpty)
    }
}

extension EventsAPI {
    /// `file` with its `custom.events` key, region and default authorization type standing in for its `data` ones
    /// (and no additional types), so that the auth is chosen for the Events API as it is for GraphQL.
    public static func authorizationFile(_ file: SchemaFile?) -> SchemaFile? {
        guard let config = file?.service.events else { return file }
        var eventsFile = file
        eventsFile?.service.apiKey = config.apiKey ?? file?.service.apiKey
        eventsFile?.service.region = config.region ?? file?.service.region
        eventsFile?.service.defaultAuthorizationType = config.defaultAuthorizationType ?? file?.service.defaultAuthorizationType
        eventsFile?.service.additionalAuthorizationTypes = []
        return eventsFile
    }
}
