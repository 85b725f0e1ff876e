"""Checks the request builder's golden documents with graphql-core, independently of the Swift code.

Every golden document must parse as GraphQL. The `gen1-blog-*` goldens are also validated against the
transformed AppSync SDL of that fixture (when the shared fixtures are there), and the `fixture-gen1-*` /
`fixture-gen2-*` goldens against appsync-local's SDL of the project's own fixtures; their variables are coerced
against its input types, so a wrong argument, field, input type or filter key fails here.
"""

import json
import os
import pathlib
import sys

import pytest
from graphql import build_schema, parse, validate
from graphql.execution.values import get_variable_values

GOLDEN = pathlib.Path(__file__).resolve().parent
REPO = GOLDEN.parents[2]
sys.path.insert(0, str(REPO / "Tests" / "AppSyncLocal"))
from appsync_local.mis import load_schema_file  # noqa: E402 - needs the path above
from appsync_local.sdl import generate_sdl  # noqa: E402
# Beside the checkout, or one level higher from a worktree (as harness.py and TestPaths.swift look).
_CANDIDATES = [base / "shared" / "fixtures" / "amplify" for base in (REPO.parent, REPO.parent.parent)]
FIXTURES = pathlib.Path(os.environ.get("GQLC_SHARED_FIXTURES")
                        or next((path for path in _CANDIDATES if path.is_dir()), _CANDIDATES[0]))

# AppSync declares these itself; the SDL file leaves them out.
APPSYNC_PRELUDE = """
scalar AWSDate
scalar AWSTime
scalar AWSDateTime
scalar AWSTimestamp
scalar AWSEmail
scalar AWSJSON
scalar AWSURL
scalar AWSPhone
scalar AWSIPAddress
directive @aws_subscribe(mutations: [String]) on FIELD_DEFINITION
"""

DOCUMENTS = sorted(GOLDEN.glob("*.graphql"))


def test_there_are_goldens():
    assert len(DOCUMENTS) >= 20


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.stem)
def test_golden_parses(path):
    text = path.read_text()
    assert not text.endswith("\n")
    document = parse(text)
    assert len(document.definitions) == 1


@pytest.fixture(scope="module")
def gen1_blog_schema():
    sdl = FIXTURES / "gen1-blog.appsync-sdl.graphql"
    if not sdl.exists():
        pytest.skip(f"shared fixtures not found at {FIXTURES}")
    return build_schema(APPSYNC_PRELUDE + sdl.read_text())


GEN1 = [p for p in DOCUMENTS if p.stem.startswith("gen1-blog-")]


def test_gen1_goldens_exist():
    assert len(GEN1) >= 5


@pytest.mark.parametrize("path", GEN1, ids=lambda p: p.stem)
def test_gen1_golden_is_valid_against_appsync_sdl(path, gen1_blog_schema):
    document = parse(path.read_text())
    errors = validate(gen1_blog_schema, document)
    assert errors == [], [e.message for e in errors]
    variables = json.loads(path.with_suffix(".json").read_text())
    operation = document.definitions[0]
    coerced = get_variable_values(gen1_blog_schema, operation.variable_definitions, variables)
    assert isinstance(coerced, dict), [e.message for e in coerced]


PROJECT = {"fixture-gen1-": "gen1-conventions.mis.json", "fixture-gen2-": "gen2-conventions.mis.json"}
OWN = [(p, name) for p in DOCUMENTS for prefix, name in PROJECT.items() if p.stem.startswith(prefix)]


def test_project_fixture_goldens_exist():
    assert len(OWN) >= 8


@pytest.mark.parametrize(("path", "fixture"), OWN, ids=lambda value: getattr(value, "stem", value))
def test_project_fixture_golden_is_valid_against_appsync_local_sdl(path, fixture):
    schema = build_schema(generate_sdl(load_schema_file(str(REPO / "Tests" / "Fixtures" / "schemas" / fixture))))
    document = parse(path.read_text())
    errors = validate(schema, document)
    assert errors == [], [e.message for e in errors]
    coerced = get_variable_values(schema, document.definitions[0].variable_definitions,
                                  json.loads(path.with_suffix(".json").read_text()))
    assert isinstance(coerced, dict), [e.message for e in coerced]
