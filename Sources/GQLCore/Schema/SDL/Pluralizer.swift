/// English plurals as the `pluralize` npm package makes them, which the Amplify transformer and codegen use
/// for `list<Plural>` names: `Blog → Blogs`, `Library → Libraries`, `Person → People`, `Series → Series`,
/// `SSN → SSNS`, `TodoMetadata → TodoMetadata`.
struct Pluralizer {
    /// The rules compiled once, for a schema's many names (compiled regexes are not `Sendable`, so they are not static).
    private let compiledRules: [(Regex<AnyRegexOutput>, String)]
    private let compiledUncountables: [Regex<AnyRegexOutput>]

    init() {
        compiledRules = Self.rules.compactMap { entry in Self.pattern(entry.0).map { ($0, entry.1) } }
        compiledUncountables = Self.uncountablePatterns.compactMap(Self.pattern)
    }

    /// The plural of one name (compiling the rules for it).
    static func plural(_ word: String) -> String { Pluralizer().plural(word) }

    /// The plural of a model name.
    func plural(_ word: String) -> String {
        let token = word.lowercased()
        if Self.uncountableWords.contains(token) || Self.irregularPlurals.contains(token) { return Self.restoreCase(word, token) }
        if let irregular = Self.irregularSingulars[token] { return Self.restoreCase(word, irregular) }
        for pattern in compiledUncountables where (try? pattern.firstMatch(in: word)) != nil { return word }
        for (pattern, replacement) in compiledRules.reversed() {
            guard let match = try? pattern.firstMatch(in: word) else { continue }
            let result = Self.interpolate(replacement, match)
            let matched = String(word[match.range])
            let head = String(word[..<match.range.lowerBound])
            if matched.isEmpty { return head + Self.restoreCase(head.last.map(String.init) ?? "", result) }
            return head + Self.restoreCase(matched, result)
        }
        return word
    }

    /// `pluralize`'s `restoreCase`: the replacement takes the case of the text it replaces.
    private static func restoreCase(_ word: String, _ token: String) -> String {
        if word == token { return token }
        if word == word.lowercased() { return token.lowercased() }
        if word == word.uppercased() { return token.uppercased() }
        if let first = word.first, first.isUppercase {
            return (token.first.map { String($0).uppercased() } ?? "") + token.dropFirst().lowercased()
        }
        return token.lowercased()
    }

    private static func interpolate(_ replacement: String, _ match: Regex<AnyRegexOutput>.Match) -> String {
        var result = ""
        var characters = replacement.makeIterator()
        while let character = characters.next() {
            guard character == "$", let digit = characters.next() else {
                result.append(character)
                continue
            }
            if let index = digit.wholeNumberValue, index < match.output.count, let text = match.output[index].substring {
                result += text
            }
        }
        return result
    }

    private static func pattern(_ text: String) -> Regex<AnyRegexOutput>? {
        (try? Regex(text + "$"))?.ignoresCase()
    }

    /// `pluralize`'s plural rules in the order it adds them; the last matching one wins.
    private static let rules: [(String, String)] = [
        ("s?", "s"),
        ("[^\\u{0}-\\u{7F}]", "$0"),
        ("([^aeiou]ese)", "$1"),
        ("(ax|test)is", "$1es"),
        ("(alias|[^aou]us|t[lm]as|gas|ris)", "$1es"),
        ("(e[mn]u)s?", "$1s"),
        ("([^l]ias|[aeiou]las|[ejzr]as|[iu]am)", "$1"),
        ("(alumn|syllab|vir|radi|nucle|fung|cact|stimul|termin|bacill|foc|uter|loc|strat)(?:us|i)", "$1i"),
        ("(alumn|alg|vertebr)(?:a|ae)", "$1ae"),
        ("(seraph|cherub)(?:im)?", "$1im"),
        ("(her|at|gr)o", "$1oes"),
        ("(agend|addend|millenni|dat|extrem|bacteri|desiderat|strat|candelabr|errat|ov|symposi|curricul|automat|quor)(?:a|um)", "$1a"),
        ("(apheli|hyperbat|periheli|asyndet|noumen|phenomen|criteri|organ|prolegomen|hedr|automat)(?:a|on)", "$1a"),
        ("sis", "ses"),
        ("(?:(kni|wi|li)fe|(ar|l|ea|eo|oa|hoo)f)", "$1$2ves"),
        ("([^aeiouy]|qu)y", "$1ies"),
        ("([^ch][ieo][ln])ey", "$1ies"),
        ("(x|ch|ss|sh|zz)", "$1es"),
        ("(matr|cod|mur|sil|vert|ind|append)(?:ix|ex)", "$1ices"),
        ("\\b((?:tit)?m|l)(?:ice|ouse)", "$1ice"),
        ("(pe)(?:rson|ople)", "$1ople"),
        ("(child)(?:ren)?", "$1ren"),
        ("eaux", "$0"),
        ("m[ae]n", "men"),
    ]

    private static let uncountablePatterns = [
        "pok[eé]mon", "[^aeiou]ese", "deer", "fish", "measles", "o[iu]s", "pox", "sheep",
    ]

    private static let irregularSingulars: [String: String] = [
        "i": "we", "me": "us", "he": "they", "she": "they", "them": "them", "myself": "ourselves",
        "yourself": "yourselves", "itself": "themselves", "herself": "themselves", "himself": "themselves",
        "themself": "themselves", "is": "are", "was": "were", "has": "have", "this": "these", "that": "those",
        "echo": "echoes", "dingo": "dingoes", "volcano": "volcanoes", "tornado": "tornadoes", "torpedo": "torpedoes",
        "genus": "genera", "viscus": "viscera", "stigma": "stigmata", "stoma": "stomata", "dogma": "dogmata",
        "lemma": "lemmata", "schema": "schemata", "anathema": "anathemata", "ox": "oxen", "axe": "axes",
        "die": "dice", "yes": "yeses", "foot": "feet", "eave": "eaves", "goose": "geese", "tooth": "teeth",
        "quiz": "quizzes", "human": "humans", "proof": "proofs", "carve": "carves", "valve": "valves",
        "looey": "looies", "thief": "thieves", "groove": "grooves", "pickaxe": "pickaxes", "passerby": "passersby",
    ]

    private static let irregularPlurals = Set(irregularSingulars.values)

    private static let uncountableWords: Set<String> = [
        "adulthood", "advice", "agenda", "aid", "aircraft", "alcohol", "ammo", "analytics", "anime", "athletics",
        "audio", "bison", "blood", "bream", "buffalo", "butter", "carp", "cash", "chassis", "chess", "clothing",
        "cod", "commerce", "cooperation", "corps", "debris", "diabetes", "digestion", "elk", "energy", "equipment",
        "excretion", "expertise", "firmware", "flounder", "fun", "gallows", "garbage", "graffiti", "hardware",
        "headquarters", "health", "herpes", "highjinks", "homework", "housework", "information", "jeans", "justice",
        "kudos", "labour", "literature", "machinery", "mackerel", "mail", "media", "mews", "moose", "music", "mud",
        "manga", "news", "only", "personnel", "pike", "plankton", "pliers", "police", "pollution", "premises",
        "rain", "research", "rice", "salmon", "scissors", "series", "sewage", "shambles", "shrimp", "software",
        "staff", "swine", "tennis", "traffic", "transportation", "trout", "tuna", "wealth", "welfare", "whiting",
        "wildlife", "wooley",
    ]
}
