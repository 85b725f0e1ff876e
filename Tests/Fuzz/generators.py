"""Seeded generators of malformed input for gqlc's parsers: schema files, --where expressions, field values,
--input/--filter JSON, and server responses. The same seed gives the same cases, so a failure can be replayed
with ``GQLC_FUZZ_SEED``.

Each generator returns a list of ``Case``. ``expect`` is either an exact exit code that the input must
produce, or ``None`` when the input may happen to stay valid (a mutation can leave a file well-formed); the
suite then checks only the general contract (no signal, a documented exit code, one line on stderr and nothing
on stdout for a rejected input, but the `[]` of a listing that stopped before its first record).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hostile_server import HTML_200, HTML_502, Reply

REPO_ROOT = Path(__file__).resolve().parents[2]
SCHEMA_EXAMPLES = REPO_ROOT / "schema-examples"

# Tokens that JSON and the CLI grammars give meaning to, plus troublemakers.
# (No NUL here: argv cannot hold it. Files get NUL bytes from INVALID_UTF8; argv cases drop them.)
TOKENS = ["{", "}", "[", "]", ",", ":", '"', "\\", "\\u", "\\ud800", "null", "true", "false", "-", "0", "1e999",
          "-0", "NaN", "Infinity", "=", "!=", "..", "?", "!?", "^=", "*=", "!*=", ":=", "<=", ">=", "<", ">",
          "\u0001", "\t", "\n", "\r\n", " ", "\u2028", "é", "😀", "\ufeff", "$", "@", "#", "%s", "%n", "'",
          "服务器错误", "e\u0301", "👩‍👩‍👧", "\u202e", "Ω≈ç", "\U0010ffff"]
# Server messages in several scripts: a diagnostic is cut by characters, whatever their UTF-8 length.
MESSAGE_UNITS = ["m", "é", "服", "😀"]
BIG_NUMBERS = ["123456789012345678901234567890", "-9223372036854775809", "9223372036854775808",
               "18446744073709551616", "1e400", "-1e400", "1.7976931348623157e309", "0.0000000000000000000000001",
               "1" * 400, "4.9e-325"]
INVALID_UTF8 = [b"\x00", b"\xff", b"\xfe\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\xe2\x82", b"\x80"]


@dataclass
class Case:
    """One generated input and what gqlc must do with it."""

    label: str
    data: Any
    expect: int | None = None
    extra: dict = field(default_factory=dict)


# MARK: Byte-level mutations

def mutate_bytes(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    """One random mutation of ``data``; returns its name and the result."""
    kind = rng.choice(["flip", "truncate", "insert-token", "delete", "duplicate", "invalid-utf8", "big-number",
                       "swap-type", "nest"])
    n = len(data)
    at = rng.randrange(n + 1) if n else 0
    if kind == "flip" and n:
        index = rng.randrange(n)
        return kind, data[:index] + bytes([data[index] ^ (1 << rng.randrange(8))]) + data[index + 1:]
    if kind == "truncate" and n:
        return kind, data[:rng.randrange(n)]
    if kind == "insert-token":
        return kind, data[:at] + rng.choice(TOKENS).encode() + data[at:]
    if kind == "delete" and n:
        end = min(n, at + rng.randint(1, 16))
        return kind, data[:at] + data[end:]
    if kind == "duplicate" and n:
        end = min(n, at + rng.randint(1, 64))
        return kind, data[:end] + data[at:end] + data[end:]
    if kind == "invalid-utf8":
        return kind, data[:at] + rng.choice(INVALID_UTF8) + data[at:]
    if kind == "big-number":
        return kind, replace_number(rng, data, rng.choice(BIG_NUMBERS).encode())
    if kind == "swap-type":
        return kind, swap_literal(rng, data)
    if kind == "nest":
        depth = rng.choice([2, 50, 600, 5000])
        return kind, data[:at] + b"[" * depth + data[at:]
    return "noop", data


def replace_number(rng: random.Random, data: bytes, number: bytes) -> bytes:
    """Replaces one run of digits with ``number``."""
    digits = [i for i, b in enumerate(data) if 48 <= b <= 57 and (i == 0 or not 48 <= data[i - 1] <= 57)]
    if not digits:
        return data + number
    start = rng.choice(digits)
    end = start
    while end < len(data) and 48 <= data[end] <= 57:
        end += 1
    return data[:start] + number + data[end:]


def swap_literal(rng: random.Random, data: bytes) -> bytes:
    """Replaces one JSON literal or string with a value of another type."""
    replacements = [b"null", b"true", b"42", b'"text"', b"[]", b"{}", b'[{"a":1}]', b'{"nested":{"x":[null]}}']
    starts = [i for i, b in enumerate(data) if b in b'"tfn[{0123456789']
    if not starts:
        return data
    start = rng.choice(starts)
    end = start + 1
    if data[start:start + 1] == b'"':
        while end < len(data) and data[end:end + 1] != b'"':
            end += 2 if data[end:end + 1] == b"\\" else 1
        end += 1
    else:
        while end < len(data) and data[end:end + 1] not in b",}] \n":
            end += 1
    return data[:start] + rng.choice(replacements) + data[end:]


def mutated(rng: random.Random, data: bytes, rounds: int | None = None) -> tuple[str, bytes]:
    names = []
    for _ in range(rounds or rng.choice([1, 1, 2, 3])):
        name, data = mutate_bytes(rng, data)
        names.append(name)
    return "+".join(names), data


# MARK: Schema files

def schema_bases() -> list[tuple[str, bytes]]:
    """The valid schema files that mutations start from."""
    bases = [(path.name, path.read_bytes()) for path in sorted(SCHEMA_EXAMPLES.glob("*.json")) if "seed" not in path.name]
    blog = json.loads((SCHEMA_EXAMPLES / "blog.json").read_text())
    outputs = {"version": "1.3", "data": {"url": "http://127.0.0.1:9/graphql", "aws_region": "eu-west-1",
                                          "api_key": "da2-fuzz", "model_introspection": blog}}
    legacy = {"aws_appsync_graphqlEndpoint": "http://127.0.0.1:9/graphql", "modelIntrospection": blog}
    bases.append(("amplify_outputs.json", json.dumps(outputs, indent=1).encode()))
    bases.append(("amplifyconfiguration.json", json.dumps(legacy).encode()))
    return bases


def structural_schema_cases() -> list[Case]:
    """Hand-made broken schemas: wrong types where the decoder looks, cycles, huge and deep files."""
    blog = json.loads((SCHEMA_EXAMPLES / "blog.json").read_text())
    cases: list[Case] = []

    def variant(label, change, expect=2):
        copy = json.loads(json.dumps(blog))
        change(copy)
        cases.append(Case(label, json.dumps(copy).encode(), expect))

    variant("models-is-a-list", lambda d: d.__setitem__("models", []))
    variant("model-is-a-string", lambda d: d["models"].__setitem__("Post", "Post"))
    variant("fields-is-a-list", lambda d: d["models"]["Post"].__setitem__("fields", [1, 2]))
    variant("field-type-number", lambda d: d["models"]["Post"]["fields"]["title"].__setitem__("type", 7))
    variant("field-type-unknown-model", lambda d: d["models"]["Post"]["fields"]["blog"].__setitem__("type", {"model": "Nope"}))
    variant("field-type-empty-object", lambda d: d["models"]["Post"]["fields"]["title"].__setitem__("type", {}))
    variant("isArray-string", lambda d: d["models"]["Post"]["fields"]["tags"].__setitem__("isArray", "yes"))
    variant("attributes-object", lambda d: d["models"]["Post"].__setitem__("attributes", {"type": "model"}))
    variant("key-fields-missing", lambda d: d["models"]["Post"]["attributes"].append(
        {"type": "key", "properties": {"fields": ["nope"]}}), None)
    variant("enum-values-number", lambda d: d["enums"]["PostStatus"].__setitem__("values", 3))
    variant("nonmodel-cycle", lambda d: d["nonModels"]["Source"]["fields"].__setitem__(
        "back", {"name": "back", "isArray": False, "type": {"nonModel": "PostMetadata"}, "isRequired": False,
                 "attributes": []}))
    variant("nonmodel-self-cycle", lambda d: d["nonModels"]["Source"]["fields"].__setitem__(
        "self", {"name": "self", "isArray": False, "type": {"nonModel": "Source"}, "isRequired": False,
                 "attributes": []}))
    cases.append(Case("deep-100000", b'{"models":' + b"[" * 100_000 + b"]" * 100_000 + b"}", 2))
    cases.append(Case("deep-object-100000", b'{"a":' * 100_000 + b"1" + b"}" * 100_000, 2))
    cases.append(Case("empty-file", b"", 2))
    cases.append(Case("bom-only", b"\xef\xbb\xbf", 2))
    cases.append(Case("utf16", json.dumps(blog).encode("utf-16"), 2))
    cases.append(Case("top-level-array", b"[]", 2))
    cases.append(Case("top-level-string", b'"models"', 2))
    huge = json.loads(json.dumps(blog))
    huge["models"]["Post"]["fields"]["title"]["description"] = "x" * 10_000_000
    cases.append(Case("10mb-description", json.dumps(huge).encode(), 0))
    many = {"version": 1, "enums": {}, "nonModels": {}, "models": {}}
    for i in range(3000):
        many["models"][f"M{i}"] = {"name": f"M{i}", "pluralName": f"M{i}s", "syncable": True,
                                   "attributes": [{"type": "model", "properties": {}}], "primaryKeyInfo": {
                                       "isCustomPrimaryKey": False, "primaryKeyFieldName": "id", "sortKeyFieldNames": []},
                                   "fields": {"id": {"name": "id", "isArray": False, "type": "ID", "isRequired": True,
                                                     "attributes": []}}}
    cases.append(Case("3000-models", json.dumps(many).encode(), None, {"model": "M2999"}))
    return cases


def schema_cases(rng: random.Random, count: int) -> list[Case]:
    """Structural cases, then ``count`` random mutations of the valid files."""
    cases = structural_schema_cases()
    bases = schema_bases()
    for i in range(count):
        name, base = rng.choice(bases)
        how, data = mutated(rng, base)
        expect = 2 if how.startswith("truncate") and how.count("+") == 0 else None
        cases.append(Case(f"{name}:{how}#{i}", data, expect))
    return cases


# MARK: Command-line grammars

FIELDS = ["title", "rating", "score", "views", "featured", "status", "publishedOn", "tags", "metadata", "blogId",
          "createdAt", "id", "blog", "comments", "nope", "Title", "", "1x", "title.x", "metadata.source",
          "__typename", "é", "a" * 300]
OPERATORS = ["=", "!=", "<", "<=", ">", ">=", "^=", "*=", "!*=", "?", "!?", "==", "=!", "<>", "=<", "~=", ":="]
VALUES = ["x", "", "5", "-5", "5.5", "true", "maybe", "DRAFT", "draft", "2025-01-01", "2025-13-45", "1..5", "..",
          "5..", "..5", "a..b..c", "null", "[1,2]", "{}", "\"quoted\"", "'single'", " spaced ", "x" * 5000,
          *BIG_NUMBERS, "NaN", "inf", "0x10", "1_000", "١٢٣", "😀", "\u202e", "\t"]


def random_value(rng: random.Random) -> str:
    value = rng.choice(VALUES)
    if rng.random() < 0.3:
        value += rng.choice(TOKENS) + rng.choice(VALUES)
    return value


def where_cases(rng: random.Random, count: int) -> list[Case]:
    """``--where`` expressions: grammar pieces put together right and wrong, and raw noise."""
    cases = [Case("empty", ""), Case("only-operator", "="), Case("no-field", "=5"), Case("unterminated-range", "rating=1.."),
             Case("invalid-utf8", b"title=\xff\xfe"), Case("huge", "title=" + "x" * 100_000),
             Case("big-int", "rating=" + BIG_NUMBERS[0], 2), Case("big-float", "score=1e400", 2),
             Case("bad-enum", "status=LOST", 2), Case("unknown-field", "nope=1", 2),
             Case("dash-with-line-break", "-x\r\n\u001b[2J", 2), Case("line-break", "title=a\nb")]
    for i in range(count):
        shape = rng.random()
        if shape < 0.6:
            text = rng.choice(FIELDS) + rng.choice(OPERATORS) + ("" if rng.random() < 0.2 else random_value(rng))
        elif shape < 0.8:
            text = "".join(rng.choice(TOKENS + FIELDS + OPERATORS) for _ in range(rng.randint(1, 8)))
        else:
            text = rng.choice(FIELDS) + rng.choice(OPERATORS) + random_value(rng)
            how, data = mutated(rng, text.encode())
            cases.append(Case(f"mutated:{how}#{i}", data.replace(b"\x00", b"")))
            continue
        cases.append(Case(f"#{i}", text))
    return cases


def assignment_cases(rng: random.Random, count: int) -> list[Case]:
    """``FIELD=VALUE`` and ``FIELD:=JSON`` arguments of create."""
    json_values = ['{"wordCount": 1}', '{"wordCount": "x"}', '["a"]', '[1, 2]', "[", '{"source": {"url": 5}}',
                   "[" * 5000, '"x"', "1e400", '{"a":' * 600 + "1" + "}" * 600, BIG_NUMBERS[0], "null", "{"]
    cases = [Case("no-equals", "title", 2), Case("empty-name", "=x", 2), Case("big-int", "rating=" + BIG_NUMBERS[0], 2),
             Case("big-json-int", "rating:=" + BIG_NUMBERS[0], 2), Case("deep-json", "metadata:=" + "[" * 100_000, 2),
             Case("bad-enum", "status=LOST", 2), Case("bad-date", "publishedOn=2025-02-30"),
             Case("invalid-utf8", b"title=\xff"), Case("read-only", "createdAt=2025-01-01T00:00:00Z", 2),
             Case("relation", "blog=x"), Case("unknown", "nope=1", 2)]
    for i in range(count):
        name = rng.choice(FIELDS)
        if rng.random() < 0.5:
            text = f"{name}={random_value(rng)}"
        else:
            text = f"{name}:={rng.choice(json_values)}"
        if rng.random() < 0.3:
            how, data = mutated(rng, text.encode())
            cases.append(Case(f"mutated:{how}#{i}", data.replace(b"\x00", b"")))
        else:
            cases.append(Case(f"#{i}", text))
    return cases


def json_argument_cases(rng: random.Random, count: int) -> list[Case]:
    """Bodies for ``--input FILE`` (create) and ``--filter JSON`` (list); ``extra['option']`` says which."""
    valid_input = json.dumps({"title": "Fuzzed", "blogId": "b", "rating": 3, "tags": ["a"], "status": "DRAFT",
                              "metadata": {"wordCount": 2, "source": {"url": "https://x", "label": "l"}}}).encode()
    valid_filter = json.dumps({"and": [{"title": {"beginsWith": "A"}}, {"rating": {"between": [1, 5]}}],
                               "not": {"status": {"eq": "DRAFT"}}}).encode()
    cases = [
        Case("input-number", b"5", 2, {"option": "--input"}),
        Case("input-deep", b"[" * 100_000, 2, {"option": "--input"}),
        Case("input-deep-closed", b'{"metadata":' + b"[" * 100_000 + b"]" * 100_000 + b"}", 2, {"option": "--input"}),
        Case("input-10mb", json.dumps({"title": "x" * 10_000_000, "blogId": "b"}).encode(), 0, {"option": "--input"}),
        Case("input-big-int", b'{"title":"t","rating":' + BIG_NUMBERS[0].encode() + b"}", 2, {"option": "--input"}),
        Case("input-invalid-utf8", b'{"title":"\xff"}', 2, {"option": "--input"}),
        Case("filter-string", b'"x"', 2, {"option": "--filter"}),
        Case("filter-deep", b'{"and":' * 100_000, 2, {"option": "--filter"}),
        Case("filter-unknown-field", b'{"nope":{"eq":1}}', None, {"option": "--filter"}),  # passed through as given
    ]
    for i in range(count):
        option = rng.choice(["--input", "--filter"])
        how, data = mutated(rng, valid_input if option == "--input" else valid_filter)
        expect = 2 if how == "truncate" else None
        cases.append(Case(f"{option}:{how}#{i}", data, expect, {"option": option}))
    return cases


# MARK: Server responses

VALID_POST = {"id": "p1", "blogId": "b1", "title": "T", "content": None, "status": "DRAFT", "rating": 3,
              "views": 10, "score": 1.5, "featured": True, "publishedOn": "2025-01-02", "tags": ["a", "b"],
              "metadata": {"wordCount": 2, "readingTime": 0.5, "source": None, "__typename": "PostMetadata"},
              "createdAt": "2025-01-02T00:00:00.000Z", "updatedAt": "2025-01-02T00:00:00.000Z",
              "blog": {"id": "b1", "__typename": "Blog"}, "__typename": "Post"}


def fixed_response_cases() -> list[Case]:
    """Named hostile answers with the exact result they must give. ``extra['command']`` is get or list."""
    get_body = json.dumps({"data": {"getPost": VALID_POST}}).encode()
    cases = [
        Case("empty-200", Reply.json(b""), 5),
        Case("truncated-json", Reply.json(get_body[:len(get_body) // 2]), 5),
        Case("html-200", Reply.html(HTML_200, 200), 5, {"stderr": "Sign in - Corporate Portal"}),
        Case("html-502", Reply.html(HTML_502, 502), 5, {"stderr": "HTTP 502 Bad Gateway"}),
        Case("html-500-no-title", Reply.html("<html><body><h1>Oops</h1>\n<p>trace\nline</p></body></html>", 500), 5),
        Case("plain-503", Reply(503, b"upstream connect error or disconnect/reset before headers",
                                (("Content-Type", "text/plain"),)), 5, {"stderr": "upstream connect error"}),
        Case("json-array", Reply.json(b"[1,2,3]"), 5),
        Case("json-number", Reply.json(b"42"), 5),
        Case("json-not-graphql", Reply.json(b'{"status":"ok","items":[]}'), 5, {"stderr": "neither 'data' nor 'errors'"}),
        Case("data-list", Reply.json(b'{"data":[{"getPost":null}]}'), 5),
        Case("data-string", Reply.json(b'{"data":"yes"}'), 5),
        Case("errors-string", Reply.json(b'{"errors":"everything failed"}'), 5),
        Case("errors-of-numbers", Reply.json(b'{"errors":[1,2]}'), 5),
        Case("data-null-no-errors", Reply.json(b'{"data":null}'), 5),
        Case("no-result-field", Reply.json(b'{"data":{"other":1}}'), 5),
        Case("not-found", Reply.json(b'{"data":{"getPost":null}}'), 4),
        Case("deep-100000", Reply.json(b'{"data":{"getPost":' + b"[" * 100_000 + b"]" * 100_000 + b"}}"), 5),
        Case("deep-unclosed", Reply.json(b"{" + b'"a":{' * 100_000), 5),
        Case("bom", Reply.json(b"\xef\xbb\xbf" + get_body), None),
        Case("invalid-utf8-string", Reply.json(b'{"data":{"getPost":{"id":"p1","title":"\xff\xfe"}}}'), 5),
        Case("lone-surrogate-escape", Reply.json(b'{"data":{"getPost":{"id":"p1","title":"\\ud800"}}}'), None),
        Case("nul-escape", Reply.json(b'{"data":{"getPost":{"id":"p1","title":"a\\u0000b"}}}'), 0),
        Case("multiline-error", Reply.json(b'{"errors":[{"message":"line one\\nline two\\r\\nline three"}]}'), 1,
             {"stderr": "gqlc: line one line two line three"}),
        Case("terminal-escapes", Reply.json(b'{"errors":[{"message":"\\u001b[2J\\u001b]0;owned\\u0007gone\\u009b31m"}]}'), 1),
        Case("terminal-escapes-html", Reply.html("<title>\x1b[31mred\x1b[0m</title>", 502), 5),
        Case("error-without-message", Reply.json(b'{"errors":[{"path":[1,{"x":2}],"locations":"nowhere"}]}'), 1),
        Case("huge-error-message", Reply.json(json.dumps({"errors": [{"message": "m" * 10_000_000}]}).encode()), 1),
        *(Case(f"error-message-400-{unit}", Reply.json(json.dumps({"errors": [{"message": unit * 400}]}).encode()), 1,
               {"stderr": f"gqlc: {unit * 400}\n"}) for unit in MESSAGE_UNITS),
        *(Case(f"error-message-5000-{unit}", Reply.json(json.dumps({"errors": [{"message": unit * 5000}]}).encode()), 1,
               {"stderr": f"gqlc: {unit * 600}… (4100 characters omitted) …{unit * 300}\n"}) for unit in MESSAGE_UNITS),
        Case("huge-string-10mb", Reply.json(json.dumps({"data": {"getPost": {"id": "p1", "title": "x" * 10_000_000}}}).encode()), 0,
             {"stdout-length": 10_000_000}),
        Case("huge-500-body", Reply.json(json.dumps({"errors": [{"errorType": "E", "message": "m" * 10_000_000}]}).encode(), 500), 5),
        Case("numbers-past-int64", Reply.json(
            b'{"data":{"getPost":{"id":"p1","views":123456789012345678901234567890,"rating":-9223372036854775809,'
            b'"score":1e400,"tiny":4.9e-325,"long":' + b"9" * 400 + b"}}}"), 0,
            {"stdout": ["123456789012345678901234567890", "-9223372036854775809", "1e400", "4.9e-325", "9" * 400]}),
        Case("duplicate-keys", Reply.json(b'{"data":{"getPost":{"id":"p1","id":"p2"}},"data":null}'), None),
        Case("list-items-not-a-list", Reply.json(b'{"data":{"listPosts":{"items":{"id":1},"nextToken":null}}}'), 5,
             {"command": "list"}),
        Case("list-token-number", Reply.json(b'{"data":{"listPosts":{"items":[],"nextToken":7}}}'), 5, {"command": "list"}),
        Case("list-not-object", Reply.json(b'{"data":{"listPosts":[1,2]}}'), 5, {"command": "list"}),
        Case("list-no-items", Reply.json(b'{"data":{"listPosts":{"nextToken":null}}}'), 5, {"command": "list"}),
        Case("list-truncated", Reply.json(b'{"data":{"listPosts":{"items":[{"id":"p1"},'), 5, {"command": "list"}),
        Case("list-html", Reply.html(HTML_502, 502), 5, {"command": "list"}),
        Case("list-deep", Reply.json(b'{"data":{"listPosts":{"items":' + b"[" * 100_000 + b"}}}"), 5, {"command": "list"}),
    ]
    return cases


def response_cases(rng: random.Random, count: int) -> list[Case]:
    """Fixed cases, then ``count`` mutations of valid get and list answers."""
    cases = fixed_response_cases()
    get_body = json.dumps({"data": {"getPost": VALID_POST}}).encode()
    list_body = json.dumps({"data": {"listPosts": {"items": [VALID_POST, VALID_POST], "nextToken": None}}}).encode()
    for i in range(count):
        message = rng.choice(MESSAGE_UNITS) * rng.choice([1, 400, 999, 1000, 1001, 5000])
        error_body = json.dumps({"data": {"getPost": None}, "errors": [
            {"message": message, "errorType": "T", "path": ["getPost"], "locations": [{"line": 1, "column": 2}]}]},
            ensure_ascii=rng.random() < 0.5).encode()
        command = rng.choice(["get", "get", "list"])
        base = list_body if command == "list" else rng.choice([get_body, error_body])
        how, body = mutated(rng, base)
        status = rng.choice([200] * 8 + [400, 401, 403, 404, 500, 502, 503, 429])
        cases.append(Case(f"{command}:{status}:{how}#{i}", Reply.json(body, status), 5 if how == "truncate" else None,
                          {"command": command}))
    return cases
