"""Generative tests of ``gqlc raw``: malformed GraphQL documents (by file, standard input and --query) and
malformed variables (--vars files, --var arguments), all with --dry-run against a closed endpoint, so no
server is needed.

The contract: no signal; exit 0 (the request body is printed, and it carries the document exactly as given)
or 2 (nothing on stdout). A rejected document's syntax or validation error is three lines
(``gqlc: NAME:LINE:COLUMN: message``, the source line, a caret under the column); any other rejection is one
line. No line is longer than 2000 characters or holds a raw control character.

Mutated documents and a sample of lexical corner cases are also parsed by graphql-core: where gqlc's answer
shows its verdict on the syntax (a validation error or a variable problem means it parsed), the two must
agree. Accepted variables must be sent as given. The iteration count and seed come from the same variables as
fuzz_support.py.
"""

from __future__ import annotations

import json
import random
import re
import subprocess

import pytest

import graphql
from graphql.language import ExecutableDefinitionNode

import raw_generators
from generators import Case
from fuzz_support import CONTROL_CHARACTERS, ITERATIONS, LONGEST_LINE, SEED, run_all, write

CLOSED_ENDPOINT = "http://127.0.0.1:9/graphql"
# The source line of a report shows at most 100 scalars, plus an ellipsis at either end.
LONGEST_SOURCE_LINE = 102
CROSS_CHECK_LENGTH = 100_000
JSON_DEPTH = 512  # JSONValue.maximumDepth

# Rejections that come after gqlc parsed the document, so its syntax was accepted.
VALIDATION_ERROR = re.compile(
    r"an anonymous operation must be the only|duplicate operation name|duplicate fragment name|unknown fragment '"
    r"|fragment cycle|is declared twice by|is not declared by|but never used|is never used; spread it"
    r"|has an empty selection set")
# Rejections that graphql-core makes in its parser but gqlc may make in its validator, and gqlc's depth limit.
EITHER_SYNTAX_OR_VALIDATION = re.compile(
    r"cannot be used in a default value|cannot be named 'on'|invalid (Int|Float) |cannot be an enum value"
    r"|nested more than \d+ levels deep")
# The spec lets a braced escape have any number of hex digits (gqlc follows it); graphql-js and graphql-core
# stop after eight: "\u{000000041}" is 'A' to gqlc and an error to them.
KNOWN_DIVERGENCE = re.compile(r"\\u\{[0-9A-Fa-f]{9,}\}")
AFTER_PARSING = re.compile(r"variable '|[^:]*: (the document has|unknown operation)")


def document_name(case: Case, path: str | None) -> str:
    return {"file": path, "stdin": "<stdin>", "query": "--query"}[case.extra["via"]]


def sent_text(case: Case) -> str | None:
    """The document as gqlc should send it: argv is decoded with replacement characters, a file's leading byte
    order mark is dropped; None for a file that is not UTF-8 (gqlc must reject it)."""
    if case.extra["via"] == "query":
        return case.data.decode("utf-8", "replace")
    try:
        return case.data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None


def output_violations(result: subprocess.CompletedProcess, document: str | None = None) -> list[str]:
    """The general contract of raw; ``document`` names the document, whose errors are three-line reports."""
    code, out, err = result.returncode, result.stdout, result.stderr.decode("utf-8", "replace")
    if code < 0:
        return [f"killed by signal {-code}"]
    if code not in (0, 2):
        return [f"exit code {code}, expected 0 or 2: {err[:300]!r}"]
    lines = err.removesuffix("\n").split("\n") if err else []
    if code == 0:
        return [f"stderr on success: {err[:200]!r}"] if err else []
    problems = []
    if out:
        problems.append(f"stdout for a rejected input: {out[:200]!r}")
    if not lines or not lines[0].startswith("gqlc: "):
        return problems + [f"stderr must start with 'gqlc: ': {err[:300]!r}"]
    if len(lines[0]) > LONGEST_LINE:
        problems.append(f"a first line of {len(lines[0])} characters")
    if any(ch in CONTROL_CHARACTERS for ch in err if ch != "\n"):
        problems.append(f"raw control characters on stderr: {err[:300]!r}")
    if document is not None and re.match(rf"gqlc: {re.escape(document)}:\d+:\d+: ", lines[0]):
        if len(lines) != 3:
            return problems + [f"{len(lines)} lines for a document error, expected 3: {err[:300]!r}"]
        source, caret = lines[1], lines[2]
        if len(source) > LONGEST_SOURCE_LINE:
            problems.append(f"a source line of {len(source)} characters")
        if not re.fullmatch(r"[ \t]*\^", caret) or len(caret) > len(source) + 1:
            problems.append(f"no caret under the source line: {source[:120]!r} / {caret[:120]!r}")
    elif len(lines) != 1:
        problems.append(f"{len(lines)} lines on stderr, expected 1: {err[:300]!r}")
    return problems


def expected_exit_code(case: Case, result: subprocess.CompletedProcess) -> list[str]:
    if case.expect is None or case.expect == result.returncode:
        return []
    return [f"exit code {result.returncode}, expected {case.expect}: {result.stderr[:300]!r}"]


# MARK: Documents

def gqlc_accepts_syntax(case: Case, result: subprocess.CompletedProcess, name: str) -> bool | None:
    """Whether gqlc's parser accepted the document, as far as its answer shows (None when it does not)."""
    if result.returncode == 0:
        return True
    first = result.stderr.decode("utf-8", "replace").split("\n", 1)[0]
    located = re.match(rf"gqlc: {re.escape(name)}:\d+:\d+: (.*)", first)
    if located:
        if VALIDATION_ERROR.search(located[1]):
            return True
        return None if EITHER_SYNTAX_OR_VALIDATION.search(located[1]) else False
    return True if AFTER_PARSING.match(first.removeprefix("gqlc: ")) else None


def graphql_core_accepts_syntax(text: str) -> bool | None:
    """graphql-core's verdict on an executable document (a type definition is not one); None if it gives up."""
    try:
        document = graphql.parse(text)
    except graphql.GraphQLSyntaxError:
        return False
    except (RecursionError, IndexError):  # 3.2.8 raises IndexError when the text ends on a backslash in a string
        return None
    return all(isinstance(definition, ExecutableDefinitionNode) for definition in document.definitions)


@pytest.mark.slow
def test_raw_documents(workdir):
    rng = random.Random(SEED + 5)
    cases = raw_generators.document_cases(rng, ITERATIONS * 2) + raw_generators.lexical_cases(rng, ITERATIONS // 2)
    paths = {}

    def args(case: Case):
        options = ["--endpoint", CLOSED_ENDPOINT, "--dry-run", "raw"]
        base = case.extra.get("base")
        if base and base.variables:
            options += ["--vars", str(base.variables)]
        if base and base.operation:
            options += ["--operation-name", base.operation]
        if base:
            options += base.arguments
        via = case.extra["via"]
        if via == "query":
            return options + [b"--query=" + case.data]
        if via == "stdin":
            return options + ["-"], case.data
        paths[case.label] = write(workdir, case, "document.graphql")
        return options + [paths[case.label]]

    def check(case: Case, result) -> list[str]:
        name = document_name(case, paths.get(case.label))
        problems = output_violations(result, name)
        text = sent_text(case)
        if result.returncode == 0 and not problems:
            query = json.loads(result.stdout).get("query")
            if query != text:
                problems.append(f"sent a query of {len(query or '')} characters, not the {len(text or '')} given: "
                                f"{(query or '')[:80]!r}")
        # graphql-core's lexer is pure Python: huge documents (about size, not syntax) would take seconds.
        if case.extra.get("cross_check") and text is not None and len(text) <= CROSS_CHECK_LENGTH and not problems \
                and not KNOWN_DIVERGENCE.search(text):
            ours, theirs = gqlc_accepts_syntax(case, result, name), graphql_core_accepts_syntax(text)
            if ours is not None and theirs is not None and ours != theirs:
                first = result.stderr.decode("utf-8", "replace").split("\n", 1)[0]
                problems.append(f"gqlc {'accepts' if ours else 'rejects'} the syntax, graphql-core "
                                f"{'accepts' if theirs else 'rejects'} it: {first[:200]!r} {text[:200]!r}")
        return problems

    run_all(cases, args, check, contract=expected_exit_code)


# MARK: Variables

class Unsure(Exception):
    """Python's json module and gqlc may differ on this JSON (non-finite numbers, lone surrogates, depth)."""


def strict_json(text: str):
    """The value of JSON text as gqlc must read it; ValueError if it is not JSON."""
    def pairs(items):
        if len({key for key, _ in items}) != len(items):
            raise Unsure("duplicate keys")
        return dict(items)

    def constant(name):
        raise ValueError(f"{name} is not JSON")
    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except RecursionError as error:
        raise Unsure("deep") from error
    if re.search(r"[\ud800-\udfff]", json.dumps(value, ensure_ascii=False)) or "Infinity" in json.dumps(value):
        raise Unsure("lone surrogate or a number past a double")
    if depth(value) > JSON_DEPTH:
        raise ValueError("nested deeper than gqlc reads")
    return value


def depth(value) -> int:
    """How many arrays and objects deep ``value`` goes (without recursion: it may be deep)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def expected_variables(case: Case) -> dict | None | type[Unsure]:
    """The variables gqlc must send, None if it must reject the case, or ``Unsure``."""
    try:
        variables = {}
        if case.data is not None:
            if case.data.startswith(raw_generators.BOM):
                raise Unsure("byte order mark")
            variables = strict_json(case.data.decode("utf-8"))
            if not isinstance(variables, dict):
                return None
        for argument in case.extra["vars"]:
            text = argument.decode("utf-8", "replace") if isinstance(argument, bytes) else argument
            name = re.match(r"[_A-Za-z][_0-9A-Za-z]*", text)
            rest = text[name.end():] if name else ""
            if rest.startswith(":="):
                variables[name[0]] = strict_json(rest[2:])
            elif rest.startswith("="):
                variables[name[0]] = rest[1:]
            else:
                return None
    except (ValueError, UnicodeDecodeError):
        return None
    except Unsure:
        return Unsure
    # Both variables are declared non-null: a null is no value. Any other name is undeclared: sent with a warning,
    # since servers ignore it and one vars file may serve several operations.
    declared = {name: value for name, value in variables.items() if name in raw_generators.DECLARED}
    if declared.keys() != raw_generators.DECLARED or None in declared.values():
        return None
    return variables


def test_raw_variables(workdir):
    rng = random.Random(SEED + 6)
    cases = (raw_generators.variables_file_cases(rng, ITERATIONS) + raw_generators.var_argument_cases(rng, ITERATIONS))
    document = workdir / "variables-document.graphql"
    document.write_text(raw_generators.VARIABLES_DOCUMENT)

    def args(case: Case):
        options = ["--endpoint", CLOSED_ENDPOINT, "--dry-run", "raw", str(document)]
        variables = [b"--var=" + a if isinstance(a, bytes) else "--var=" + a for a in case.extra["vars"]]
        if case.extra.get("stdin"):
            return options + ["--vars", "-", *variables], case.data
        if case.data is not None:
            options += ["--vars", write(workdir, case, "variables.json")]
        return options + variables

    def check(case: Case, result) -> list[str]:
        if result.returncode == 0:
            # The one warning an undeclared variable gets is not a failure's line.
            kept = [line for line in result.stderr.decode("utf-8", "replace").splitlines(keepends=True)
                    if not re.match(r"gqlc: warning: variable .* is not declared by operation ", line)]
            result = subprocess.CompletedProcess(result.args, 0, result.stdout, "".join(kept).encode())
        problems = output_violations(result, str(document))
        if result.returncode == 2 and re.match(rf"gqlc: {re.escape(str(document))}:",
                                               result.stderr.decode("utf-8", "replace")):
            problems.append(f"the valid document was blamed: {result.stderr[:200]!r}")
        expected = expected_variables(case)
        if problems or expected is Unsure:
            return problems
        if expected is None:
            return [] if result.returncode == 2 else [f"accepted, but must be rejected: {result.stdout[:200]!r}"]
        if result.returncode != 0:
            return [f"rejected, but must send {str(expected)[:200]!r}: {result.stderr[:300]!r}"]
        sent = json.loads(result.stdout)
        if sent.get("variables") != expected or sent.get("query") != raw_generators.VARIABLES_DOCUMENT:
            return [f"sent {result.stdout[:200]!r}, expected variables {str(expected)[:200]!r}"]
        return []

    run_all(cases, args, check, contract=expected_exit_code)
