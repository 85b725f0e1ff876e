import GQLCore

extension ModelCommandRunner {
    /// The columns of `--output table|tsv|raw` (``RecordColumns``): the `--fields` paths as given, else the model's
    /// own scalar and enum fields. `raw` needs exactly one scalar field.
    func recordColumns(_ modelName: String, fields: [String]?, format: GlobalOptions.OutputFormat? = nil) throws(RunFailure) -> [String] {
        let output = GlobalOptions.outputOption.flagName
        do throws(RecordColumnsError) {
            return try RecordColumns.columns(of: modelName, in: schema, fields: fields, format: format ?? globals.output)
        } catch {
            switch error {
            case .rawNeedsOneField:
                throw .usage("'\(output) raw' prints one field per line; name it with \(SharedOptions.fields.flagName) FIELD")
            case .rawNeedsScalar(let problem):
                throw .usage("'\(output) raw' prints a single scalar field; \(problem): use \(output) ndjson and jq")
            }
        }
    }
}
