"""gqlc's JSON parser and writer against Python's ``json`` (an independent implementation), through the real
binary: ``gqlc raw --vars FILE --dry-run`` parses the variables file and prints the body it would send, so a
generated document goes in as a file and comes out as gqlc's compact JSON.

- A document Python writes compactly (``ensure_ascii=False``) comes back byte for byte: same escapes, same
  numbers, same key order.
- The same value written in other ways (``\\uXXXX`` escapes, indentation, odd whitespace, numbers in
  exponent form) comes back as a document Python reads as the same value.
- Mutated documents: gqlc refuses (status 2, one located line) exactly those Python refuses, and what both
  accept is the same value. Known, pinned differences are left out: a lone surrogate escape (Python accepts,
  gqlc refuses: ``JSONTestSuiteTests``), ``NaN``/``Infinity`` (a Python extension), a leading byte order mark
  (gqlc skips it), nesting deeper than gqlc's 512.

``GQLC_FUZZ_ITERATIONS`` (default 40) sets the documents per test; ``GQLC_FUZZ_SEED`` replays another seed.
"""

from __future__ import annotations

import json
import os
import random
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gqlc_runner import Run, run_gqlc

ITERATIONS = int(os.environ.get("GQLC_FUZZ_ITERATIONS") or 40)
SEED = int(os.environ.get("GQLC_FUZZ_SEED") or 1)
QUERY = "query($v: JSON) { f(x: $v) }"
# Nothing listens there; --dry-run sends nothing.
ENDPOINT = "http://127.0.0.1:9/graphql"
LOCATED = re.compile(r"^gqlc: --vars: .*\.json: invalid JSON at \d+:\d+: ")

CHARACTERS = (
    [chr(c) for c in range(0x20)] + list("\"\\/ azAZ09'{}[]:,") + ["\x7f", "\u0080", "\u00e9", "\u2028", "\u2029",
    "\ufeff", "\uffff", "\ufffd", "e\u0301", "\u670d\u52a1", "\U0001f600", "\U0001f469\u200d\U0001f467",
    "\U0010ffff", "\u202e"])


def random_string(rng: random.Random) -> str:
    return "".join(rng.choice(CHARACTERS) for _ in range(rng.choice([0, 1, 3, 8, 30])))


def random_number(rng: random.Random) -> int | float:
    kind = rng.randrange(6)
    if kind == 0:
        return rng.randint(-1000, 1000)
    if kind == 1:
        return rng.choice([-1, 1]) * rng.randint(0, 10 ** rng.choice([18, 19, 20, 30, 60]))
    if kind == 2:
        return rng.uniform(-1e6, 1e6)
    if kind == 3:
        return rng.choice([0.0, -0.0, 5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, 0.1, 1e21, 1e-7])
    if kind == 4:
        return rng.random() * 10 ** rng.randint(-300, 300)
    return float(rng.randint(-10 ** 6, 10 ** 6))


def random_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(8 if depth < 6 else 5)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind in (1, 2):
        return random_number(rng)
    if kind in (3, 4):
        return random_string(rng)
    if kind == 5:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(6))]
    return {random_string(rng): random_value(rng, depth + 1) for _ in range(rng.randrange(6))}


def canonical(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def other_spelling(rng: random.Random, value) -> str:
    """The same value, written another way Python can read back."""
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 0, 2, "\t"]),
                      separators=rng.choice([(",", ":"), (", ", ": "), (" ,\r\n", " :\t")]))
    # Numbers in exponent form: 12 -> 12E0, 1.5 -> 15e-1 (outside strings only: split at string literals).
    parts = re.split(r'("(?:[^"\\]|\\.)*")', text)
    for index in range(0, len(parts), 2):
        parts[index] = re.sub(r"(?<![\w.+-])(-?\d+)(?![\w.])", lambda m: m.group(1) + rng.choice(["", "E0", "e+0", "e-0"]),
                              parts[index])
    return "".join(parts)


def run_vars(path: Path) -> Run:
    return run_gqlc(["raw", "--query", QUERY, "--vars", path, "--dry-run", "--endpoint", ENDPOINT])


def run_all(workdir: Path, documents: list[bytes]) -> list[Run]:
    paths = []
    for index, document in enumerate(documents):
        path = workdir / f"vars-{index}.json"
        path.write_bytes(document)
        paths.append(path)
    with ThreadPoolExecutor(3) as pool:
        return list(pool.map(run_vars, paths))


def variables_of(run: Run):
    """The ``v`` that gqlc printed, read by Python."""
    body = json.loads(run.stdout)
    assert body["query"] == QUERY, run
    return body["variables"]["v"]


def test_python_compact_documents_come_back_byte_for_byte(tmp_path):
    rng = random.Random(SEED)
    values = [random_value(rng) for _ in range(ITERATIONS)]
    runs = run_all(tmp_path, [canonical({"v": value}).encode() for value in values])
    failures = []
    for value, run in zip(values, runs):
        expected = canonical({"query": QUERY, "variables": {"v": value}}) + "\n"
        if run.code != 0 or run.stdout != expected:
            failures.append(f"{canonical(value)[:300]}\n  gqlc -> {run.code}: {run.stdout[:300]!r} {run.stderr[:300]!r}")
    assert not failures, f"{len(failures)} of {len(values)} documents differ (seed {SEED}):\n" + "\n".join(failures[:10])


def test_other_spellings_of_a_document_give_the_same_value(tmp_path):
    rng = random.Random(SEED + 1)
    values = [random_value(rng) for _ in range(ITERATIONS)]
    texts = [other_spelling(rng, {"v": value}) for value in values]
    runs = run_all(tmp_path, [text.encode() for text in texts])
    failures = []
    for text, run in zip(texts, runs):
        expected = json.loads(text)["v"]  # an exponent makes a float of an int: compare with what Python reads
        if run.code != 0 or variables_of(run) != expected:
            failures.append(f"{text[:300]!r}\n  gqlc -> {run.code}: {run.stdout[:300]!r} {run.stderr[:300]!r}")
    assert not failures, f"{len(failures)} of {len(values)} documents differ (seed {SEED}):\n" + "\n".join(failures[:10])


MUTATION_TOKENS = [b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"\\u", b"\\u00", b"\\x", b"-", b"+", b"0", b"01",
                   b".", b"e", b"E+", b"1.", b".5", b"tru", b"nul", b"True", b" ", b"\t", b"\r", b"\x0b", b"\x0c",
                   b"\x00", b"\x1f", b"\xc3\xa9", b"\xff", b"\xc0\xaf", b"\xe2\x82", b"\xed\xa0\x80", b"\xf0\x9f\x98",
                   b"/*", b"//", b"'", b"\xe2\x80\xa8", b"\xc2\xa0"]


def mutate(rng: random.Random, data: bytes) -> bytes:
    for _ in range(rng.choice([1, 1, 2, 3])):
        at = rng.randrange(len(data) + 1)
        kind = rng.randrange(8)
        if kind < 4:
            data = data[:at] + rng.choice(MUTATION_TOKENS) + data[at:]
        elif kind < 6:
            data = data[:at] + data[at + rng.randint(1, 4):]
        elif kind == 6 and data:
            index = rng.randrange(len(data))
            data = data[:index] + bytes([data[index] ^ (1 << rng.randrange(8))]) + data[index + 1:]
        else:
            data = data[:at]
    return data


def python_reading(data: bytes):
    """("value", v), ("refused", None), or ("skip", reason) for the known, pinned differences."""
    def no_constants(name):
        raise ValueError(f"{name} is not JSON")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "refused", None
    if text.startswith("\ufeff"):
        return "skip", "leading byte order mark"
    try:
        value = json.loads(text, parse_constant=no_constants)
    except RecursionError:
        return "skip", "deep"
    except ValueError:
        return "refused", None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return "skip", "lone surrogate escape"
    if not isinstance(value, dict) or set(value) != {"v"}:
        return "skip", "the mutation changed the variables object, not the value"
    return "value", value["v"]


def test_mutated_documents_are_refused_exactly_when_python_refuses_them(tmp_path):
    rng = random.Random(SEED + 2)
    documents = [mutate(rng, canonical({"v": random_value(rng)}).encode()) for _ in range(ITERATIONS * 3)]
    readings = [python_reading(document) for document in documents]
    kept = [(document, reading) for document, reading in zip(documents, readings) if reading[0] != "skip"]
    runs = run_all(tmp_path, [document for document, _ in kept])
    failures = []
    for (document, (verdict, value)), run in zip(kept, runs):
        if verdict == "refused":
            if run.code != 2 or run.stdout or len(run.stderr_lines) != 1 or not LOCATED.match(run.stderr):
                failures.append(f"{document[:200]!r}: Python refuses; gqlc -> {run.code} {run.stderr[:300]!r}")
        elif run.code != 0 or variables_of(run) != value:
            failures.append(f"{document[:200]!r}: Python reads {value!r:.100}; gqlc -> {run.code} "
                            f"{run.stdout[:200]!r} {run.stderr[:200]!r}")
    refused = sum(1 for _, (verdict, _) in kept if verdict == "refused")
    assert refused and refused < len(kept), f"the mutations should give both outcomes: {refused} of {len(kept)} refused"
    assert not failures, f"{len(failures)} of {len(kept)} documents differ (seed {SEED}):\n" + "\n".join(failures[:10])
