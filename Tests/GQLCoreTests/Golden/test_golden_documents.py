"""Checks the request builder's golden documents with graphql-core, independently of the Swift code.

The goldens are written by the code under test; these checks are not. Every golden document must parse as
GraphQL, and every one is validated against the SDL of the schema it was built from (named by its file
name's prefix, ``SCHEMAS``), as ``appsync-local --print-schema`` generates it: its variables are coerced
against the operation's variable types, so a wrong argument, field, input type or filter key fails here.
The `fixture-*` goldens come from the project's own schemas (Tests/Fixtures/schemas), so they are
checked from a lone clone too; the others need the shared fixtures. The `gen1-blog-*` goldens are also validated against the SDL that AppSync itself deployed for that fixture.
"""

import json
import os
import pathlib
import subprocess
import sys

import pytest
from graphql import build_schema, parse, validate
from graphql.execution.values import get_variable_values

GOLDEN = pathlib.Path(__file__).resolve().parent
REPO = GOLDEN.parents[2]
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
EXAMPLES = REPO / "schema-examples"
SERVER = REPO / "DevServers" / "AppSyncLocal" / "appsync-local"
# The schema each golden was built from, by the prefix of its name (TestSchemas in GoldenDocumentTests.swift).
SCHEMAS = {
    "blog-": EXAMPLES / "blog.json",
    "tags-": EXAMPLES / "tags.json",
    "inventory-": EXAMPLES / "inventory.json",
    "shipments-": EXAMPLES / "shipments.json",
    "gen1-blog-": FIXTURES / "gen1-blog-hasmany-belongsto.mis.json",
    "gen1-cpk-": FIXTURES / "gen1-cpk-hasone-hasmany-manytomany.mis.json",
    "gen2-cart-": FIXTURES / "gen2-cart-customer.amplify_outputs.json",
    "gen2-modeled-": FIXTURES / "gen2-amplify-data-modeled.mis.json",
    "fixture-gen1-": REPO / "Tests" / "Fixtures" / "schemas" / "gen1-conventions.mis.json",
    "fixture-gen2-": REPO / "Tests" / "Fixtures" / "schemas" / "gen2-conventions.mis.json",
    "fixture-custom-": REPO / "Tests" / "Fixtures" / "schemas" / "custom-operations.mis.json",
}


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


def schema_of(path: pathlib.Path) -> pathlib.Path:
    return next(schema for prefix, schema in SCHEMAS.items() if path.stem.startswith(prefix))


def test_every_golden_names_its_schema():
    unknown = [path.name for path in DOCUMENTS if not any(path.stem.startswith(prefix) for prefix in SCHEMAS)]
    assert not unknown, f"add the schema these goldens were built from to SCHEMAS: {unknown}"


_SDL_SCHEMAS: dict[pathlib.Path, object] = {}


def generated_schema(schema_path: pathlib.Path):
    """The SDL appsync-local generates for a schema file, built with graphql-core (once per file)."""
    if not schema_path.exists():
        pytest.skip(f"shared fixtures not found at {FIXTURES}")
    if schema_path not in _SDL_SCHEMAS:
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        completed = subprocess.run([sys.executable, str(SERVER), "--schema", str(schema_path), "--print-schema"],
                                   capture_output=True, text=True, env=env, timeout=120)
        assert completed.returncode == 0, completed.stderr
        _SDL_SCHEMAS[schema_path] = build_schema(completed.stdout)
    return _SDL_SCHEMAS[schema_path]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.stem)
def test_golden_is_valid_against_its_schema(path):
    schema = generated_schema(schema_of(path))
    document = parse(path.read_text())
    errors = validate(schema, document)
    assert errors == [], [e.message for e in errors]
    variables = json.loads(path.with_suffix(".json").read_text())
    coerced = get_variable_values(schema, document.definitions[0].variable_definitions, variables)
    assert isinstance(coerced, dict), [e.message for e in coerced]


def test_project_fixture_goldens_exist():
    assert len([p for p in DOCUMENTS if p.stem.startswith("fixture-")]) >= 8
