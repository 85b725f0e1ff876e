"""Generative tests of the built gqlc: thousands of malformed inputs (schema files, --where expressions, field
values, --input/--filter JSON, server responses) must each end with a documented exit code, never a signal;
a rejected input prints exactly one line on stderr and nothing on stdout.

``gqlc raw`` gets its own contract (test_fuzz_raw.py): GraphQL documents and variables.

``GQLC_FUZZ_ITERATIONS`` sets the number of random cases per parser (default 40, which keeps this suite to a
few seconds); ``make fuzz`` raises it. ``GQLC_FUZZ_SEED`` picks the seed (default 1), so runs repeat exactly."""

from __future__ import annotations
import random

import pytest
import generators
from generators import Case
from hostile_server import HostileServer
from fuzz_support import (  # noqa: F401 - fixtures among them
    ITERATIONS,
    SEED,
    WORKERS,
    BLOG,
    DOCUMENTED_CODES,
    LONGEST_LINE,
    CONTROL_CHARACTERS,
    run,
    contract_violations,
    run_all,
    write,
)


def test_malformed_schema_files(workdir):
    cases = generators.schema_cases(random.Random(SEED), ITERATIONS)

    def args(case: Case):
        path = write(workdir, case, "schema.json")
        model = case.extra.get("model", "Post")
        if hash(case.label) % 3 == 0:
            return ["--schema", path, "models"]
        return ["--schema", path, "--dry-run", "list", model, "--limit", "5"]
    run_all(cases, args)


def test_malformed_where_expressions():
    cases = generators.where_cases(random.Random(SEED + 1), ITERATIONS)
    run_all(cases, lambda case: ["--schema", BLOG, "--dry-run", "list", "Post", "--where", case.data])


def test_malformed_field_values():
    cases = generators.assignment_cases(random.Random(SEED + 2), ITERATIONS)
    run_all(cases, lambda case: ["--schema", BLOG, "--dry-run", "create", "Post", "title=t", "blogId=b", case.data])


def test_malformed_input_and_filter_json(workdir):
    cases = generators.json_argument_cases(random.Random(SEED + 3), ITERATIONS)

    def args(case: Case):
        path = write(workdir, case, "argument.json")
        if case.extra["option"] == "--input":
            return ["--schema", BLOG, "--dry-run", "create", "Post", "--input", path]
        return ["--schema", BLOG, "--dry-run", "list", "Post", "--filter", "@" + path]
    run_all(cases, args)


@pytest.mark.slow
def test_hostile_server_responses():
    cases = generators.response_cases(random.Random(SEED + 4), ITERATIONS)
    with HostileServer() as server:
        urls = {case.label: server.script(case.data) for case in cases}

        def args(case: Case):
            command = ["list", "Post", "--page-size", "10"] if case.extra.get("command") == "list" else ["get", "Post", "--id", "p1"]
            return ["--schema", BLOG, "--endpoint", urls[case.label], "--retries", "0", "--timeout", "20", *command]

        def check(case: Case, result) -> list[str]:
            problems = []
            for literal in case.extra.get("stdout", []):
                if literal.encode() not in result.stdout:
                    problems.append(f"{literal[:40]} not printed verbatim")
            if "stdout-length" in case.extra and len(result.stdout) < case.extra["stdout-length"]:
                problems.append(f"stdout has {len(result.stdout)} bytes")
            if "stderr" in case.extra and case.extra["stderr"] not in result.stderr.decode("utf-8", "replace"):
                problems.append(f"stderr lacks {case.extra['stderr']!r}: {result.stderr[:300]!r}")
            return problems
        run_all(cases, args, check)
