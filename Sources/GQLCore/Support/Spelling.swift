// `Suggestions` (did-you-mean by edit distance) lives in the Spelling module, which CommandLineKit shares;
// re-exported so that GQLCore's files and its users see it as before.
@_exported import Spelling
