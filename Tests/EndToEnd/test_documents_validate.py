"""Every document that gqlc builds for the schema examples validates against the local server's schema.

For each schema (the project's examples and the shared Amplify fixtures that appsync-local supports),
commands are generated from the model-introspection JSON: get (by id or composite key, with every
association and two-level include), list (plain, --where on each filterable field and each
belongs-to association, --include, --limit/--next-token), list --index for every secondary index with a
queryField (each key-condition operator on its sort key, composite sort keys, --sort, a filter beside the
key, --include, --next-token), create (every writable field), update (with --if), delete (with --if), and subscribe (each event, a --where
filter, an --include). Each runs with --dry-run; the printed body's query must parse and
validate against the SDL from `appsync-local --schema X --print-schema`, and its variables must
coerce to the operation's variable definitions.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from graphql import GraphQLSchema, OperationDefinitionNode, build_schema, parse, validate
from graphql.execution.values import get_variable_values

from gqlc_runner import run_gqlc
from harness import PROJECT_FIXTURES, REPO_ROOT, SERVER_PATH, SHARED_FIXTURES, clean_env

EXAMPLES = ["blog.json", "tags.json", "inventory.json", "shipments.json"]
PROJECT = ["gen1-conventions.mis.json", "gen2-conventions.mis.json", "amplify_outputs.json"]
SHARED = ["gen1-blog-hasmany-belongsto.mis.json", "gen1-cpk-hasone-hasmany-manytomany.mis.json",
          "gen2-amplify-data-modeled.mis.json", "gen2-amplify-data-modeled.amplifyconfiguration.json",
          "gen2-cart-customer.amplify_outputs.json", "gen2-references-cpk-hasmany.mis.json"]

SCALAR_VALUES = {
    "ID": "v-1", "String": "text", "Int": "3", "Float": "1.5", "Boolean": "true", "AWSDate": "2025-01-02",
    "AWSTime": "12:30:00.000", "AWSDateTime": "2025-01-02T03:04:05.000Z", "AWSTimestamp": "1700000000",
    "AWSEmail": "a@example.com", "AWSJSON": '{"a":1}', "AWSURL": "https://example.com", "AWSPhone": "+15555550100",
    "AWSIPAddress": "10.0.0.1",
}
WHERE_OPERATORS = {"Int": ">=", "Float": "<", "String": "^=", "AWSDateTime": ">", "AWSDate": "<="}
NUMERIC_SCALARS = {"Int", "Float", "AWSTimestamp"}


# MARK: - The schema as the server sees it

def print_schema(schema_path: Path) -> str:
    completed = subprocess.run([sys.executable, str(SERVER_PATH), "--schema", str(schema_path), "--print-schema"],
                               capture_output=True, text=True, env=clean_env(), timeout=60)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def check_body(schema: GraphQLSchema, body: dict) -> list[str]:
    """Problems with one POST body: its document against the schema, its variables against the operation."""
    document = parse(body["query"])
    problems = [error.message for error in validate(schema, document)]
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if len(operations) != 1:
        return problems + [f"expected one operation, found {len(operations)}"]
    if problems:
        return problems
    coerced = get_variable_values(schema, operations[0].variable_definitions or [], body.get("variables") or {})
    if isinstance(coerced, list):
        problems += [error.message for error in coerced]
    return problems


# MARK: - Generating commands from the model introspection

@dataclass
class Field:
    name: str
    spec: dict

    @property
    def type(self):
        return self.spec["type"]

    @property
    def scalar(self) -> str | None:
        return self.type if isinstance(self.type, str) else None

    @property
    def is_model(self) -> bool:
        return isinstance(self.type, dict) and "model" in self.type

    @property
    def read_only(self) -> bool:
        return bool(self.spec.get("isReadOnly"))


def introspection(path: Path) -> dict:
    data = json.loads(path.read_text())
    if "models" in data:
        return data
    if "data" in data:
        return data["data"]["model_introspection"]
    return data["modelIntrospection"]


class CommandMaker:
    """Builds gqlc argument lists for one schema."""

    def __init__(self, mis: dict, where_fields: int | None = None) -> None:
        self.mis = mis
        self.models = mis["models"]
        #: How many fields per model get their own --where commands (None: every field).
        self.where_fields = where_fields

    def fields(self, model: str) -> list[Field]:
        return [Field(name, spec) for name, spec in self.models[model]["fields"].items()]

    def key_fields(self, model: str) -> list[str]:
        info = self.models[model]["primaryKeyInfo"]
        return [info["primaryKeyFieldName"], *info["sortKeyFieldNames"]]

    def field(self, model: str, name: str) -> Field:
        return Field(name, self.models[model]["fields"][name])

    def text_value(self, field: Field) -> str | None:
        """FIELD=VALUE text for a scalar or enum field, or None."""
        if field.scalar:
            return SCALAR_VALUES.get(field.scalar)
        if "enum" in field.type:
            return self.mis["enums"][field.type["enum"]]["values"][0]
        return None

    def json_value(self, field: Field, depth: int = 0):
        """A JSON value for any non-model field (lists and embedded types included)."""
        if field.scalar or "enum" in field.type:
            text = self.text_value(field)
            element = json.loads(text) if field.scalar in ("Int", "Float", "Boolean", "AWSTimestamp") else text
        else:
            non_model = self.mis["nonModels"][field.type["nonModel"]]
            element = {}
            for name, spec in non_model["fields"].items():
                inner = Field(name, spec)
                if depth < 3 and (spec.get("isRequired") or depth == 0) and not inner.is_model:
                    element[name] = self.json_value(inner, depth + 1)
        return [element] if field.spec.get("isArray") else element

    def assignment(self, field: Field) -> str | None:
        if field.is_model or field.read_only:
            return None
        if field.spec.get("isArray") or "nonModel" in field.type:
            return f"{field.name}:={json.dumps(self.json_value(field))}"
        value = self.text_value(field)
        return None if value is None else f"{field.name}={value}"

    def key_args(self, model: str) -> list[str]:
        keys = self.key_fields(model)
        if len(keys) == 1:
            return ["--id", self.text_value(self.field(model, keys[0]))]
        return [arg for name in keys for arg in ("--key", f"{name}={self.text_value(self.field(model, name))}")]

    def associations(self, model: str) -> list[Field]:
        return [f for f in self.fields(model) if f.is_model and "association" in f.spec]

    def condition(self, model: str) -> list[str]:
        keys = set(self.key_fields(model))
        for field in self.fields(model):
            if field.name in keys or field.is_model or field.spec.get("isArray") or field.read_only:
                continue
            value = self.text_value(field)
            if value is not None:
                return ["--if", f"{field.name}={value}"]
        return []

    def queryable_indexes(self, model: str) -> list[dict]:
        """The `key` attributes with a name, a queryField and fields: the indexes `list --index` can query."""
        return [a["properties"] for a in self.models[model].get("attributes", [])
                if a["type"] == "key" and a["properties"].get("name") and a["properties"].get("queryField")
                and a["properties"].get("fields")]

    def key_operators(self, field: Field) -> list[str]:
        """The --where operators gqlc may turn into a key condition on this sort-key field."""
        if field.scalar in NUMERIC_SCALARS:
            return ["=", "<", "<=", ">", ">=", "between"]
        if field.scalar is None or field.scalar == "Boolean":
            return ["="]
        return ["=", "<", "<=", ">", ">=", "^=", "between"]

    def index_commands(self, model: str) -> list[list[str]]:
        """`list --index` for every queryable index: each key operator on a single sort key, composite sort keys
        with and without a leading equality, --sort, a filter beside the key, --include and --next-token."""
        commands = []
        others = [f for f in self.fields(model) if self.text_value(f) is not None and not f.spec.get("isArray")]
        associations = self.associations(model)
        for index in self.queryable_indexes(model):
            partition, *sort_keys = index["fields"]
            value = self.text_value(self.field(model, partition)) or "v-1"
            base = ["list", model, "--index", index["queryField"], "--where", f"{partition}={value}"]
            commands += [base, [*base, "--sort", "desc", "--limit", "5", "--next-token", "tok"]]
            commands.append(["list", model, "--index", index["name"], "--where", f"{partition}={value}"])
            filtered = [f for f in others if f.name not in index["fields"]][:1]
            if filtered:
                commands.append([*base, "--where", f"{filtered[0].name}={self.text_value(filtered[0])}"])
            if associations:
                commands.append([*base, "--include", associations[0].name])
            sort_fields = [self.field(model, name) for name in sort_keys]
            if len(sort_fields) == 1:
                field = sort_fields[0]
                text = self.text_value(field)
                for operator in self.key_operators(field):
                    clause = f"{field.name}={text}..{text}" if operator == "between" else f"{field.name}{operator}{text}"
                    commands.append([*base, "--where", clause, "--sort", "asc"])
            elif sort_fields:
                equal = [arg for f in sort_fields for arg in ("--where", f"{f.name}={self.text_value(f)}")]
                commands += [[*base, *equal], [*base, *equal[:2]], [*base, *equal[2:]]]
        return commands

    def commands(self, model: str) -> list[list[str]]:
        key = self.key_args(model)
        keys = set(self.key_fields(model))
        commands = [["get", model, *key], ["list", model], ["list", model, "--limit", "5", "--next-token", "tok"]]
        for association in self.associations(model):
            commands.append(["get", model, *key, "--include", association.name])
            commands.append(["list", model, "--include", association.name])
            related = association.type["model"]
            for nested in self.associations(related)[:3]:
                commands.append(["get", model, *key, "--include", f"{association.name}.{nested.name}"])
            if association.spec["association"]["connectionType"] == "BELONGS_TO":
                related_keys = self.key_fields(related)
                if len(related_keys) == 1:
                    commands.append(["list", model, "--where", f"{association.name}=v-2"])
        filterable = [f for f in self.fields(model) if self.text_value(f) is not None and not f.spec.get("isArray")]
        for field in filterable[:self.where_fields]:
            value = self.text_value(field)
            commands.append(["list", model, "--where", f"{field.name}={value}"])
            operator = WHERE_OPERATORS.get(field.scalar or "")
            if operator:
                commands.append(["list", model, "--where", f"{field.name}{operator}{value}", "--where", f"{field.name}?"])
        assignments = [a for f in self.fields(model) if (a := self.assignment(f))]
        commands.append(["create", model, *assignments])
        changes = [a for f in self.fields(model) if f.name not in keys and (a := self.assignment(f))]
        if changes:
            commands.append(["update", model, *key, *changes[:2], *self.condition(model)])
        commands.append(["delete", model, *key])
        if self.condition(model):
            commands.append(["delete", model, *key, *self.condition(model)])
        commands.append(["subscribe", model, "--on", "create"])
        if filterable:
            commands.append(["subscribe", model, "--on", "update", "--where",
                             f"{filterable[0].name}={self.text_value(filterable[0])}"])
        for association in self.associations(model)[:1]:
            commands.append(["subscribe", model, "--on", "delete", "--include", association.name])
        return commands


# MARK: - Tests

def schema_paths() -> list[pytest.param]:
    """(schema, --where fields per model, every how many commands to run): the examples and the project fixtures in
    full; the big shared
    fixtures with fewer --where fields; the legacy config, whose models repeat another fixture's, sampled."""
    params = [pytest.param(REPO_ROOT / "schema-examples" / name, None, 1, id=name) for name in EXAMPLES]
    params += [pytest.param(PROJECT_FIXTURES / name, None, 1, id=name) for name in PROJECT]
    samples = {"gen2-amplify-data-modeled.amplifyconfiguration.json": (3, 7),
               "gen2-amplify-data-modeled.mis.json": (4, 1), "gen1-cpk-hasone-hasmany-manytomany.mis.json": (4, 1)}
    params += [pytest.param(SHARED_FIXTURES / name, *samples.get(name, (None, 1)), id=name,
                            marks=pytest.mark.skipif(not SHARED_FIXTURES.is_dir(), reason="no shared fixtures"))
               for name in SHARED]
    return params


@pytest.mark.slow
@pytest.mark.parametrize("schema_path, where_fields, every", schema_paths())
def test_every_generated_document_validates(schema_path: Path, where_fields: int | None, every: int):
    schema = build_schema(print_schema(schema_path))
    maker = CommandMaker(introspection(schema_path), where_fields=where_fields)
    commands = [command for model in maker.models for command in maker.commands(model)][::every]
    # Index queries are not sampled: every queryable index of every schema is checked.
    commands += [command for model in maker.models for command in maker.index_commands(model)]
    assert len(commands) >= 30

    def dry_run(command: list[str]):
        return command, run_gqlc(["--schema", schema_path, "--dry-run", *command])

    failures = []
    with ThreadPoolExecutor(max_workers=4) as pool:
        for command, run in pool.map(dry_run, commands):
            if run.code != 0:
                failures.append(f"gqlc {' '.join(command)} -> {run.code}: {run.stderr.strip()}")
                continue
            problems = check_body(schema, run.json())
            if problems:
                failures.append(f"gqlc {' '.join(command)}: " + "; ".join(problems))
    assert not failures, f"{len(failures)} of {len(commands)} commands:\n" + "\n".join(failures)


def test_every_document_kind_is_covered():
    """The generator reaches every command and the features the task names, on the blog schema."""
    maker = CommandMaker(introspection(REPO_ROOT / "schema-examples" / "blog.json"))
    commands = [" ".join(command) for model in maker.models for command in maker.commands(model)]
    for expected in ["get Post --id v-1 --include comments", "get Post --id v-1 --include comments.post",
                     "list Comment --where post=v-2", "list Post --where rating>=3 --where rating?",
                     "update Post --id v-1", "delete Post --id v-1 --if", "create Post", "--next-token tok",
                     "subscribe Post --on create", "subscribe Post --on update --where id=v-1",
                     "subscribe Post --on delete --include"]:
        assert any(expected in command for command in commands), expected
    index_commands = [" ".join(command) for model in maker.models for command in maker.index_commands(model)]
    for expected in ["list Comment --index commentsByPostId --where postId=v-1",
                     "list Post --index postsByBlogId --where blogId=v-1 --where title^=text --sort asc",
                     "list Post --index postsByBlogId --where blogId=v-1 --where title=text..text --sort asc",
                     "--sort desc --limit 5 --next-token tok", "list Comment --index byPost"]:
        assert any(expected in command for command in index_commands), expected
    shipments = CommandMaker(introspection(REPO_ROOT / "schema-examples" / "shipments.json"))
    assert ["list", "Shipment", "--index", "shipmentsByCarrier", "--where", "carrier=text", "--where", "region=text",
            "--where", "day=2025-01-02"] in shipments.index_commands("Shipment")
    inventory = CommandMaker(introspection(REPO_ROOT / "schema-examples" / "inventory.json"))
    assert ["get", "InventoryItem", "--key", "sku=text", "--key", "warehouseId=v-1", "--key", "bin=3"] in \
        inventory.commands("InventoryItem")


def test_the_done_when_command_prints_a_valid_document():
    """`gqlc --schema schema-examples/blog.json get Post --id p1 --include comments --dry-run`, from the repository."""
    run = run_gqlc(["--schema", "schema-examples/blog.json", "get", "Post", "--id", "p1", "--include", "comments",
                    "--dry-run"], cwd=REPO_ROOT)
    assert (run.code, run.stderr) == (0, ""), run
    body = run.json()
    schema = build_schema(print_schema(REPO_ROOT / "schema-examples" / "blog.json"))
    assert check_body(schema, body) == []
    assert body["variables"] == {"id": "p1"}
    assert "comments {" in body["query"] and "nextToken" in body["query"]


def test_the_checker_rejects_bad_documents():
    """The validation above can fail: a wrong field, a wrong variable type and a bad enum value are caught."""
    schema = build_schema(print_schema(REPO_ROOT / "schema-examples" / "blog.json"))
    assert check_body(schema, {"query": "query Q($id: ID!) { getPost(id: $id) { titel } }", "variables": {"id": "p1"}})
    assert check_body(schema, {"query": "query Q($id: ID!) { getPost(id: $id) { title } }", "variables": {}})
    assert check_body(schema, {"query": "query Q($f: ModelPostFilterInput) { listPosts(filter: $f) { items { id } } }",
                               "variables": {"f": {"status": {"eq": "DRAFTY"}}}})
    assert check_body(schema, {"query": "query Q($id: ID!) { getPost(id: $id) { title } }", "variables": {"id": "p1"}}) == []
