"""Seeded generators of malformed input for ``gqlc raw``: GraphQL documents (mutations of the example
operations) and variables (``--vars`` files, ``--var`` arguments). Same seed, same cases.

A document case's ``data`` is the document's bytes and ``extra['via']`` says how it reaches gqlc: ``file``,
``stdin`` or ``query`` (``--query=TEXT``). ``extra['base']`` names the example it came from, whose variables
and operation name the test passes along. A variables case's ``data`` is the ``--vars`` file (or None) and
``extra['vars']`` the ``--var`` arguments.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

import graphql
from graphql.language import NonNullTypeNode, OperationDefinitionNode

from generators import BIG_NUMBERS, INVALID_UTF8, REPO_ROOT, SCHEMA_EXAMPLES, Case, mutated

QUERY_DIRECTORIES = [REPO_ROOT / "DevServers" / "StarWars" / "queries", SCHEMA_EXAMPLES / "queries"]
# argv holds at most 128 KiB per argument (MAX_ARG_STRLEN); longer documents go by file.
LONGEST_ARGUMENT = 100_000
BOM = "\ufeff".encode()

# GraphQL's punctuators, keywords and look-alikes, plus characters a lexer must refuse or ignore.
DOCUMENT_TOKENS = ["{", "}", "(", ")", "[", "]", ":", "!", "$", "@", "...", "..", ".", "=", "|", "&", '"', '"""',
                   "#", ",", "\\", "\\u", "\\u{", "\\ud800", "'", "query", "mutation", "subscription", "fragment",
                   "on", "null", "true", "type", "extend", "schema", "0", "-", "1e", "01", "1.", ".5", "0x1", "1e999",
                   "$episode", "@include(if: true)", "... on Droid", "...heroSummary", "\u0001", "\u0085", "\u009b",
                   "\u2028", "\t", "\r", "\n", "\r\n", "\ufeff", "é", "😀", " ", "服务器", "e\u0301", "👩‍👩‍👧",
                   "\u202e", "Ω≈ç"]


@dataclass(frozen=True)
class BaseDocument:
    """A valid example operation, with what it needs to be sent: its variables file, the operation to run
    when there are several, and ``--var`` values for required variables that no file gives."""

    name: str
    text: bytes
    variables: Path | None
    operation: str | None
    arguments: tuple[str, ...]


def base_documents() -> list[BaseDocument]:
    bases = []
    for directory in QUERY_DIRECTORIES:
        for path in sorted(directory.glob("*.graphql")):
            variables = next((candidate for suffix in (".variables.json", ".vars.json")
                              if (candidate := path.with_name(path.stem + suffix)).exists()), None)
            given = json.loads(variables.read_text()) if variables else {}
            operations = [definition for definition in graphql.parse(path.read_text()).definitions
                          if isinstance(definition, OperationDefinitionNode)]
            required = [variable.variable.name.value for variable in operations[0].variable_definitions
                        if isinstance(variable.type, NonNullTypeNode) and variable.default_value is None]
            bases.append(BaseDocument(
                path.name, path.read_bytes(), variables,
                operations[0].name.value if len(operations) > 1 and operations[0].name else None,
                tuple(f"--var={name}=1" for name in required if name not in given)))
    return bases


# MARK: Documents

def mutate_document(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    """One mutation that means something to a GraphQL lexer or parser; the rest go to ``mutate_bytes``."""
    kind = rng.choice(["token", "token", "nest", "huge-string", "line-breaks", "bom", "invalid-utf8", "bytes"])
    at = rng.randrange(len(data) + 1)
    if kind == "token":
        return kind, data[:at] + rng.choice(DOCUMENT_TOKENS).encode() + data[at:]
    if kind == "nest":
        depth = rng.choice([2, 255, 256, 257, 600, 5000, 100_000])
        opener = rng.choice([b"{", b"["])
        closer = b"}" if opener == b"{" else b"]"
        if rng.random() < 0.5:  # unclosed
            return f"nest-open-{depth}", data[:at] + opener * depth + data[at:]
        braces = [i + 1 for i, byte in enumerate(data) if byte == ord("{")] or [at]
        at = rng.choice(braces)
        if opener == b"{":  # a field nested `depth` selection sets deep: valid syntax, if deep
            nested = b" n {" * depth + b" n" + b" }" * depth
        else:  # a list value `depth` lists deep, as a field's argument
            nested = b" n(a: " + b"[" * depth + b"1" + b"]" * depth + b")"
        return f"nest-{opener.decode()}-{depth}", data[:at] + nested + data[at:]
    if kind == "huge-string":
        size = rng.choice([1_000, 20_000, 200_000])
        shape = rng.choice(['"', '"""', "#"])
        text = shape.encode() + rng.choice([b"x", b"\xc3\xa9", b"\\n", b"\\\\"]) * size
        closing = b"\n" if shape == "#" else shape.encode()
        return f"huge-{shape}-{size}", data[:at] + text + (closing if rng.random() < 0.8 else b"") + data[at:]
    if kind == "line-breaks":
        return kind, re.sub(rb"\n", lambda _: rng.choice([b"\n", b"\r\n", b"\r", b"\n\r"]), data)
    if kind == "bom":
        return kind, (BOM + data) if rng.random() < 0.5 else data[:at] + BOM + data[at:]
    if kind == "invalid-utf8":
        return kind, data[:at] + rng.choice(INVALID_UTF8) + data[at:]
    return mutated(rng, data, rounds=1)


def mutated_document(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    names = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        name, data = mutate_document(rng, data)
        names.append(name)
    return "+".join(names), data


def fixed_document_cases() -> list[Case]:
    """Hand-made documents with the exit code they must give (all sent by file)."""
    def case(label, data, expect):
        return Case(label, data.encode() if isinstance(data, str) else data, expect, {"via": "file"})

    return [
        case("empty", "", 2),
        case("whitespace", " \n\t\r\n", 2),
        case("only-comment", "# nothing here\n", 2),
        case("bom-only", BOM, 2),
        case("bom-first", BOM + b"{ hero { name } }", 0),
        case("crlf", "query Q {\r\n  hero {\r\n    name\r\n  }\r\n}\r\n", 0),
        case("cr-only", "query Q {\r  hero {\r    name\r  }\r}\r", 0),
        case("unclosed-100000", "{" * 100_000, 2),
        case("balanced-100000", "{ a" + " { a" * 100_000 + " }" * 100_001, 2),
        case("list-100000", "{ a(x: " + "[" * 100_000 + "]" * 100_000 + ") }", 2),
        case("nest-100", "{ a" + " { a" * 100 + " }" * 101, 0),
        case("nest-300", "{ a" + " { a" * 300 + " }" * 301, 2),
        case("string-2mb", '{ a(x: "' + "x" * 2_000_000 + '") }', 0),
        case("block-string-300kb", '{ a(x: """' + "é\n" * 100_000 + '""") }', 0),
        case("comment-1mb", "#" + "x" * 1_000_000 + "\n{ a }", 0),
        case("line-100000-error-at-end", "{ " + "a " * 50_000 + "( }", 2),
        case("error-after-100000-lines", "{\n" + "a\n" * 100_000 + "}}", 2),
        case("invalid-utf8", b"{ a(x: \"\xff\") }", 2),
        case("utf16", "{ a }".encode("utf-16"), 2),
        case("nul-in-string", b'{ a(x: "\x00") }', 0),  # any scalar but '"', '\\' and line ends
        case("escape-in-error-line", '{ a(x: "\u009b31m\u0085\u001b[2J") ) }', 2),
        case("subscription", "subscription S { onCreatePost { id } }", 0),  # printed by --dry-run, as a query is
        case("two-anonymous", "{ a } { b }", 2),
        case("unused-fragment", "{ a } fragment F on T { b }", 2),
        case("undeclared-variable", "{ a(x: $nope) }", 2),
        case("type-definition", "type Query { a: Int }", 2),
    ]


def document_cases(rng: random.Random, count: int) -> list[Case]:
    """Fixed cases, the unchanged examples (which must be accepted), then ``count`` mutations."""
    cases = fixed_document_cases()
    bases = base_documents()
    cases += [Case(f"{base.name}:unchanged", base.text, 0, {"via": "file", "base": base}) for base in bases]
    for i in range(count):
        base = rng.choice(bases)
        how, data = mutated_document(rng, base.text)
        via = rng.choice(["file", "stdin", "query"])
        if via == "query":
            data = data.replace(b"\x00", b"")
            if len(data) > LONGEST_ARGUMENT:
                via = "file"
        cases.append(Case(f"{base.name}:{how}:{via}#{i}", data, None, {"via": via, "base": base, "cross_check": True}))
    return cases


# MARK: Lexical corners

# Argument values and whole documents at the edges of GraphQL's grammar, for the comparison with graphql-core.
LEXICAL_VALUES = [
    "1e", "1.e5", "-0", "00", "01", "1.5e+3", "1.5E-3", "0x1", "1_0", ".5", "-.5", "1ea", "1.2.3", "1.", "-", "--1",
    "+1", "1e+", "1.5a", "1e5e", "9" * 400, "- 1", "-a", "0a", "1.0e", r'"\u{0}"', r'"\u{D800}"', r'"\u{110000}"',
    r'"\u{10FFFF}"', r'"\uD83D\uDE00"', r'"\uDE00"', r'"\uD83D"', r'"\uD83Dx"', r'"\uD83D\u0041"', r'"\x"', r'"\/"',
    r'"\u{}"', r'"\u{1F600"', r'"\u00E"', r'"\U0041"', '"""a\\"""b"""', '""""', '"""""', '""""""', '"""\r"""',
    '"a\rb"', '"\\\n"', '"""\x00"""', '"\t"', '"\x7f\x85"', "$v", "$ v", "$1", "$", "NULL", "on", "[]",
    "[1 2]", "[1,,2]", "{}", "{a: 1}", "{a: 1 a: 2}", "{a 1}", "{1: 2}", '{"a": 1}', "@x", "é", "a-b", "a.b"]
LEXICAL_DOCUMENTS = [
    "{ a..b }", "{ . ..a }", "{ ....F }", "{ ...on T { a } }", "{ ... @d { a } }", "{ ... { a } }", "{ a }\u00a0",
    "{ a }\u2028", "{ a \x0b }", "{ a \x0c }", "{ a # c\r b }", "{ a }#", "{ a }\ufeff", "\ufeff\ufeff{ a }",
    "{ a &b }", "{ a | b }", "{ a(b: 1)(c: 2) }", "{ a @d() }", "{ a() }", "query Q() { a }",
    "query Q($a: Int = $b) { a(x: $a) }", "query Q($a: Int!!) { a(x: $a) }", "query Q($a: [Int) { a(x: $a) }",
    "query Q($a: Int = 1 @d) { a(x: $a) }", "query Q @d($x: 1) { a }", "{ a: b: c }", "{ a: }", "{ a { } }",
    "extend type T { a: Int }", "schema { query: Q }", "directive @d on FIELD", '"desc" query Q { a }',
    "{ a(x: 1 y: 2) }", ",,{,a,},,", "fragment F($x: Int) on T { a } { ...F }", "fragment F on [T] { a } { ...F }",
    'fragment on on T { a } { ...on }', '{ a(x: """\n  a\n  """) }', "query Q { a } query Q { b }", '{ a(x: "\\']


def lexical_cases(rng: random.Random, count: int) -> list[Case]:
    """``count`` of the lexical corners (all of them once ``count`` is large enough), by any route."""
    documents = [f"{{ f(a: {value}) }}" for value in LEXICAL_VALUES] + LEXICAL_DOCUMENTS
    chosen = rng.sample(documents, min(count, len(documents)))
    return [Case(f"lexical:{document[:40]!r}#{i}", document.encode(), None,
                 {"via": rng.choice(["file", "stdin"] if "\x00" in document else ["file", "stdin", "query"]),
                  "cross_check": True}) for i, document in enumerate(chosen)]


# MARK: Variables

# Declares two required variables, $ep and $review, as 10-mutation.graphql does.
VARIABLES_DOCUMENT = ("mutation CreateReviewForEpisode($ep: Episode!, $review: ReviewInput!) {\n"
                      "  createReview(episode: $ep, review: $review) {\n    stars\n  }\n}\n")
DECLARED = {"ep", "review"}
VALID_VARIABLES = {"ep": "JEDI", "review": {"stars": 5, "commentary": "This is a great movie!"}}
VAR_NAMES = ["ep", "review", "Ep", "eep", "_", "ep2", "1ep", "$ep", "-ep", "ep-x", "é", "", " ep", "ep ", "e\u0301p"]
VAR_JSON = ['"JEDI"', "5", "null", "[1, 2]", '{"stars": 1}', "[", "{", '{"a":', '"x', "'x'", "NaN", "Infinity", "1e400",
            "-0", "01", "1.", "tru", "[1,]", '{"a":1,}', "[" * 5000, '{"a":' * 600 + "1" + "}" * 600, *BIG_NUMBERS,
            '"\\ud800"', '"\\u0000"', "", " ", "\t5", '"a" "b"', "// c\n1"]
VAR_TEXT = ["JEDI", "", "x" * 5000, "a\nb", "\u001b[2J", "\u009b31m", "é😀", "=", ":=", "\\", '"', "null", "5",
            "服" * 5000, "e\u0301" * 700, "\u202e"]


def variables_file_cases(rng: random.Random, count: int) -> list[Case]:
    """``--vars`` contents, in a file or (``extra['stdin']``) on standard input; ``expect`` where it is certain."""
    valid = json.dumps(VALID_VARIABLES).encode()

    def case(label, data, expect, stdin=False):
        return Case(label, data.encode() if isinstance(data, str) else data, expect, {"vars": [], "stdin": stdin})

    cases = [case("valid", valid, 0), case("empty", "", 2), case("array", "[]", 2), case("string", '"ep"', 2),
             case("number", "42", 2), case("null", "null", 2), case("deep-array", "[" * 100_000, 2),
             case("deep-object", '{"ep":' + "[" * 100_000 + "]" * 100_000 + "}", 2),
             case("deep-unclosed-object", '{"a":' * 100_000, 2), case("undeclared", '{"ep":"JEDI","review":{},"x":1}', 0),
             case("missing-required", '{"ep":"JEDI"}', 2), case("big-int", '{"ep":"JEDI","review":{"stars":'
                                                                 + BIG_NUMBERS[0] + "}}", 0),
             case("huge-float", '{"ep":"JEDI","review":{"stars":1e400}}', None),
             case("string-2mb", json.dumps({"ep": "x" * 2_000_000, "review": {}}), 0),
             case("invalid-utf8", b'{"ep":"\xff","review":{}}', 2), case("bom", BOM + valid, None),
             case("utf16", json.dumps(VALID_VARIABLES).encode("utf-16"), 2), case("nan", '{"ep":NaN,"review":{}}', 2),
             case("trailing-comma", '{"ep":"JEDI","review":{},}', 2), case("comment", '{"ep":"JEDI"} // x', 2),
             case("two-values", '{"ep":"JEDI","review":{}} {}', 2),
             case("duplicate-keys", '{"ep":"JEDI","ep":"EMPIRE","review":{}}', None),
             case("stdin-valid", valid, 0, stdin=True), case("stdin-array", "[]", 2, stdin=True),
             case("stdin-deep", "[" * 100_000, 2, stdin=True), case("stdin-empty", "", 2, stdin=True)]
    for i in range(count):
        how, data = mutated(rng, valid)
        stdin = rng.random() < 0.3
        cases.append(case(f"mutated:{how}{':stdin' if stdin else ''}#{i}", data, 2 if how == "truncate" else None, stdin))
    return cases


def var_argument_cases(rng: random.Random, count: int) -> list[Case]:
    """One to three ``--var`` arguments, sometimes after a valid ``--vars`` file (``data``)."""
    valid = json.dumps(VALID_VARIABLES).encode()
    cases = [Case("var:no-equals", None, 2, {"vars": ["ep"]}), Case("var:empty", None, 2, {"vars": [""]}),
             Case("var:only-equals", None, 2, {"vars": ["=JEDI"]}), Case("var:dollar", valid, 2, {"vars": ["$ep=JEDI"]}),
             Case("var:undeclared", valid, 0, {"vars": ["nope=1"]}), Case("var:bad-json", valid, 2, {"vars": ["ep:=["]}),
             Case("var:deep-json", valid, 2, {"vars": ["review:=" + "[" * 100_000]}),
             Case("var:override", valid, 0, {"vars": ["ep=EMPIRE", "review:={}"]}),
             Case("var:missing-required", None, 2, {"vars": ["ep=JEDI"]}),
             Case("var:invalid-utf8", valid, 0, {"vars": [b"ep=\xff\xfe"]})]
    for i in range(count):
        arguments: list[str | bytes] = []
        for _ in range(rng.randint(1, 3)):
            name = rng.choice(VAR_NAMES)
            if rng.random() < 0.5:
                text = f"{name}={rng.choice(VAR_TEXT)}"
            else:
                text = f"{name}:={rng.choice(VAR_JSON)}"
            if rng.random() < 0.2:
                _, raw = mutated(rng, text.encode(), rounds=1)
                arguments.append(raw.replace(b"\x00", b""))
            else:
                arguments.append(text)
        cases.append(Case(f"var#{i}", valid if rng.random() < 0.6 else None, None, {"vars": arguments}))
    return cases
