"""The schema from wherever the user has it: model introspection, the @model SDL, or the live API pulled by
introspection. For every fixture pair (Tests/Fixtures/schemas/X.graphql beside X.mis.json) the --dry-run bodies
of get, list --where, list --include, create, update --if and delete, and of every custom query, mutation and
subscription (gqlc query/mutate/subscribe, every argument given), are identical whichever source the schema came
from; the server is appsync-local started on the MIS, whose SDL follows the transformer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gqlc_runner import run_gqlc

PAIRS = ["gen1-conventions", "gen2-conventions", "directives", "custom-operations"]


def _operations(model: dict) -> list[list[str]]:
    """The command lines to compare for one model of a MIS, with values of the right type."""
    fields = model["fields"]
    key = [model["primaryKeyInfo"]["primaryKeyFieldName"], *model["primaryKeyInfo"]["sortKeyFieldNames"]]

    def sample(name: str) -> str:
        kind = fields[name]["type"]
        return "1" if kind in ("Int", "Float", "AWSTimestamp") else "x"

    key_args = ["--id", sample(key[0])] if len(key) == 1 else [a for k in key for a in ("--key", f"{k}={sample(k)}")]
    plain = [n for n, f in fields.items() if isinstance(f["type"], str) and not f.get("isArray")
             and not f.get("isReadOnly") and n not in key and f["type"] in ("String", "ID", "Int")]
    related = [n for n, f in fields.items() if isinstance(f["type"], dict) and "model" in f["type"]]
    name = model["name"]
    commands = [["get", name, *key_args], ["delete", name, *key_args]]
    if plain:
        field = plain[0]
        commands += [["list", name, "--where", f"{field}={sample(field)}"],
                     ["create", name, *[f"{k}={sample(k)}" for k in key], f"{field}={sample(field)}"],
                     ["update", name, *key_args, "--if", f"{field}={sample(field)}", f"{field}={sample(field)}"]]
    if related:
        commands.append(["list", name, "--include", related[0]])
    return commands


def _custom_commands(document: dict, models: list[dict]) -> list[tuple[list[str], int]]:
    """gqlc query/mutate/subscribe for each custom operation of a MIS, with a value for every argument (input
    types and lists given as JSON, so that their types are part of what is compared), and for each input-typed
    argument one with a misspelt field (so that the checks before sending are compared too). Operations returning a
    model other than ``models`` are left out, as their model is (see ``_models``)."""
    scalars = {"ID": "x1", "String": "s", "Int": 1, "Float": 1.5, "Boolean": True, "AWSDateTime": "2025-01-01T00:00:00Z",
               "AWSJSON": "{}"}

    def value(field: dict):
        kind = field["type"]
        if isinstance(kind, str):
            one = scalars.get(kind, "x")
        elif "enum" in kind:
            one = document["enums"][kind["enum"]]["values"][0]
        else:
            one = {f["name"]: value(f) for f in document["inputs"][kind["input"]]["attributes"].values()}
        return [one] if field["isArray"] else one

    commands = []
    for group, command in (("queries", "query"), ("mutations", "mutate"), ("subscriptions", "subscribe")):
        for operation in (document.get(group) or {}).values():
            result = operation["type"]
            if isinstance(result, dict) and "model" in result and result["model"] not in [m["name"] for m in models]:
                continue
            arguments = [f"{a['name']}:={json.dumps(value(a))}" for a in (operation.get("arguments") or {}).values()]
            commands.append(([command, operation["name"], *arguments], 0))
            # An input object with a misspelt field, which every source must refuse in the same words.
            for argument in (operation.get("arguments") or {}).values():
                if isinstance(argument["type"], dict) and "input" in argument["type"]:
                    fields = document["inputs"][argument["type"]["input"]]["attributes"]
                    misspelt = {next(iter(fields.values()))["name"] + "s": 1}
                    commands.append(([command, operation["name"], f"{argument['name']}:={json.dumps(misspelt)}"], 2))
    return commands


def _models(path: Path) -> list[dict]:
    """The models of a MIS or of an amplify_outputs.json, except those whose owner field the MIS leaves out
    (the server adds it, so documents from the live API rightly select it and those from the MIS cannot)."""
    document = json.loads(path.read_text())
    models = (document.get("data", {}).get("model_introspection") or document)["models"].values()

    def owner_fields_listed(model: dict) -> bool:
        rules = [rule for attribute in model.get("attributes", []) if attribute.get("type") == "auth"
                 for rule in attribute["properties"].get("rules", [])]
        return all(rule.get("ownerField", "owner") in model["fields"] for rule in rules if rule.get("allow") == "owner")
    return [model for model in models if owner_fields_listed(model)]


def _compare_sources(mis_path: Path, sdl_path: Path | None, start_appsync, tmp_path: Path) -> None:
    """Pulls the schema from a server started on ``mis_path``, then compares each command's --dry-run body built
    from the MIS with the one built from the SDL (when there is one) and from the pulled schema."""
    server = start_appsync(mis_path, api_key="k1")
    models = _models(mis_path)
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    empty = tmp_path / "empty"
    empty.mkdir()
    pulled = run_gqlc(["--endpoint", server.url, "--api-key", "k1", "schema", "pull"], env=env, cwd=empty)
    assert pulled.code == 0 and pulled.stdout == "", pulled
    assert pulled.stderr_lines[0].startswith(f"gqlc: pulled "), pulled
    assert f" models from {server.url} to {tmp_path / 'cache' / 'gqlc'}/schema-" in pulled.stderr_lines[0], pulled

    compared = 0
    document = json.loads(mis_path.read_text())
    custom = _custom_commands(document.get("data", {}).get("model_introspection") or document, models)
    for command, code in [(command, None) for model in models for command in _operations(model)] + custom:
        from_mis = run_gqlc(["--schema", mis_path, "--dry-run", *command], cwd=empty)
        if code is None and from_mis.code != 0:
            continue  # e.g. an update whose --if names a field the model's condition input lacks
        assert code is None or from_mis.code == code, (command, from_mis)
        expected = (from_mis.stdout, from_mis.stderr, from_mis.code)
        if sdl_path is not None:
            from_sdl = run_gqlc(["--schema", sdl_path, "--dry-run", *command], cwd=empty)
            assert (from_sdl.stdout, from_sdl.stderr, from_sdl.code) == expected, (command, from_sdl, from_mis)
        from_api = run_gqlc(["--endpoint", server.url, "--dry-run", *command], env=env, cwd=empty)
        assert (from_api.stdout, from_api.stderr, from_api.code) == expected, (command, from_api, from_mis)
        compared += 1
    assert compared >= 3 * len(models) + len(custom), compared


@pytest.mark.parametrize("pair", PAIRS)
def test_documents_are_identical_from_the_sdl_the_mis_and_a_pulled_schema(pair, project_fixtures_dir, start_appsync,
                                                                            tmp_path):
    _compare_sources(project_fixtures_dir / f"{pair}.mis.json", project_fixtures_dir / f"{pair}.graphql",
                     start_appsync, tmp_path)


@pytest.mark.shared_fixtures
@pytest.mark.parametrize("mis, sdl", [
    ("gen1-blog-hasmany-belongsto.mis.json", "gen1-blog.input-schema.graphql"),
    ("gen1-cpk-hasone-hasmany-manytomany.mis.json", None),
    ("gen2-references-cpk-hasmany.mis.json", None),
    ("gen2-amplify-data-modeled.mis.json", None),
    ("gen2-cart-customer.amplify_outputs.json", None),
])
def test_documents_are_identical_for_the_shared_amplify_fixtures(mis, sdl, shared_fixtures_dir, start_appsync, tmp_path):
    _compare_sources(shared_fixtures_dir / mis, sdl and shared_fixtures_dir / sdl, start_appsync, tmp_path)


def test_documents_from_the_pulled_schema_work_against_the_server(project_fixtures_dir, start_appsync, tmp_path):
    server = start_appsync(project_fixtures_dir / "gen1-conventions.mis.json", api_key="k1")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    common = ["--endpoint", server.url, "--api-key", "k1"]
    assert run_gqlc([*common, "schema", "pull"], env=env, cwd=tmp_path).code == 0
    created = run_gqlc([*common, "create", "Library", "id=l1", "name=Central"], env=env, cwd=tmp_path)
    assert created.code == 0 and created.json()["name"] == "Central", created
    shelf = run_gqlc([*common, "create", "Shelf", "id=s1", "label=A", "library=l1"], env=env, cwd=tmp_path)
    assert shelf.code == 0 and shelf.json()["libraryShelvesId"] == "l1", shelf
    got = run_gqlc([*common, "get", "Library", "--id", "l1", "--include", "shelves"], env=env, cwd=tmp_path)
    assert got.code == 0 and [s["id"] for s in got.json()["shelves"]["items"]] == ["s1"], got


# A key no path, port or message can contain by chance (a 2-letter key could be inside a temporary path).
PULL_KEY = "da2-pullKeyQzxWv"


def test_pull_reports_what_introspection_cannot_tell(project_fixtures_dir, start_appsync, tmp_path):
    server = start_appsync(project_fixtures_dir / "gen1-conventions.mis.json", api_key=PULL_KEY)
    out = tmp_path / "pulled.json"
    run = run_gqlc(["--endpoint", server.url, "--api-key", PULL_KEY, "schema", "pull", "--out", out], cwd=tmp_path)
    assert run.code == 0, run
    assert ("gqlc: assumed: Author.profile is taken as @hasOne and Profile.author as @belongsTo (each holds keys; "
            "the model the API lists first is taken as the parent)") in run.stderr_lines
    assert "gqlc: assumed: auth rules are not visible by introspection; models show none" in run.stderr_lines
    models = run_gqlc(["--schema", out, "models", "Author"], cwd=tmp_path)
    assert "    profile → Profile  (hasOne; key on Author: authorProfileProfileId, authorProfileHandle)" in models.stdout
    assert PULL_KEY not in run.stderr + run.stdout


def test_verbose_names_the_cached_schema(project_fixtures_dir, start_appsync, tmp_path):
    server = start_appsync(project_fixtures_dir / "gen1-conventions.mis.json", api_key="k1")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert run_gqlc(["--endpoint", server.url, "--api-key", "k1", "schema", "pull"], env=env, cwd=tmp_path).code == 0
    run = run_gqlc(["--verbose", "--endpoint", server.url, "--dry-run", "get", "Book", "--id", "b1"], env=env, cwd=tmp_path)
    assert run.code == 0, run
    assert run.stderr_lines[0].startswith(f"* schema: {tmp_path / 'cache' / 'gqlc'}/schema-127.0.0.1_"), run
    assert run.stderr_lines[0].endswith(f" (pulled from {server.url} by gqlc schema pull)"), run
    assert "* assumed: Author.profile is taken as @hasOne and Profile.author as @belongsTo (each holds keys; the model " \
           "the API lists first is taken as the parent)" in run.stderr_lines, run


@pytest.mark.shared_fixtures
def test_a_pulled_schema_is_valid_model_introspection(project_fixtures_dir, shared_fixtures_dir, start_appsync, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    official = json.loads((shared_fixtures_dir / "ModelIntrospectionSchema.v1.schema.json").read_text())
    for name in ("gen1-conventions.mis.json", "gen2-conventions.mis.json", "directives.mis.json", "custom-operations.mis.json"):
        server = start_appsync(project_fixtures_dir / name, api_key="k1")
        out = tmp_path / f"pulled-{name}"
        run = run_gqlc(["--endpoint", server.url, "--api-key", "k1", "schema", "pull", "--out", out], cwd=tmp_path)
        assert run.code == 0, run
        jsonschema.validate(json.loads(out.read_text()), official)


def test_schema_print_writes_the_servers_sdl(project_fixtures_dir, start_appsync, tmp_path, repo_root):
    schema = project_fixtures_dir / "gen2-conventions.mis.json"
    server = start_appsync(schema, api_key="k1")
    run = run_gqlc(["--endpoint", server.url, "--api-key", "k1", "schema", "print"], cwd=tmp_path)
    assert run.code == 0, run
    # The server's own SDL, less the declarations AppSync has built in (declared here to build it): the same schema.
    import subprocess
    import sys
    served = subprocess.run([sys.executable, str(repo_root / "Tests/AppSyncLocal/appsync-local"), "--schema", str(schema),
                             "--print-schema"], capture_output=True, text=True, check=True).stdout
    graphql = pytest.importorskip("graphql")
    printed = graphql.build_schema("scalar AWSDateTime scalar AWSEmail scalar AWSDate scalar AWSTime scalar AWSTimestamp "
                                   "scalar AWSJSON scalar AWSURL scalar AWSPhone scalar AWSIPAddress\n"
                                   "directive @aws_subscribe(mutations: [String]) on FIELD_DEFINITION\n" + run.stdout)
    canonical = lambda built: graphql.print_schema(graphql.lexicographic_sort_schema(built))  # noqa: E731
    assert canonical(printed) == canonical(graphql.build_schema(served))
    assert "scalar AWSDateTime" not in run.stdout and "__Schema" not in run.stdout


def test_a_gen1_project_is_found_from_a_subdirectory(tmp_path, project_fixtures_dir):
    api = tmp_path / "amplify" / "backend" / "api" / "library"
    api.mkdir(parents=True)
    (api / "schema.graphql").write_text((project_fixtures_dir / "gen1-conventions.graphql").read_text())
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "aws-exports.js").write_text(
        "/* eslint-disable */\nconst awsmobile = {\n    \"aws_project_region\": \"us-east-1\",\n"
        "    \"aws_appsync_graphqlEndpoint\": \"https://abc.appsync-api.us-east-1.amazonaws.com/graphql\",\n"
        "    \"aws_appsync_region\": \"us-east-1\",\n    \"aws_appsync_authenticationType\": \"API_KEY\",\n"
        "    \"aws_appsync_apiKey\": \"da2-notarealkey\"\n};\n\nexport default awsmobile;\n")
    (tmp_path / "src" / "components").mkdir()
    run = run_gqlc(["--verbose", "--dry-run", "get", "Shelf", "--id", "s1"], cwd=tmp_path / "src" / "components")
    assert run.code == 0, run
    assert run.stderr_lines[:2] == [
        f"* schema: {api / 'schema.graphql'} (the nearest Gen 1 @model schema from the working directory)",
        f"* config: {tmp_path / 'src' / 'aws-exports.js'} (the project's aws-exports.js)"], run
    mis = run_gqlc(["--schema", project_fixtures_dir / "gen1-conventions.mis.json", "--dry-run", "get", "Shelf", "--id", "s1"])
    assert run.stdout == mis.stdout


def test_aws_exports_gives_the_endpoint_and_key_and_the_project_sdl_the_models(tmp_path, project_fixtures_dir,
                                                                                start_appsync):
    server = start_appsync(project_fixtures_dir / "gen1-conventions.mis.json", api_key="da2-exportskey")
    api = tmp_path / "amplify" / "backend" / "api" / "library"
    api.mkdir(parents=True)
    (api / "schema.graphql").write_text((project_fixtures_dir / "gen1-conventions.graphql").read_text())
    (tmp_path / "src").mkdir()
    exports = tmp_path / "src" / "aws-exports.js"
    exports.write_text("const awsmobile = {\n  'aws_appsync_graphqlEndpoint': '%s',\n  aws_appsync_region: 'us-east-1',\n"
                       "  aws_appsync_authenticationType: 'API_KEY',\n  aws_appsync_apiKey: 'da2-exportskey', // key\n};\n"
                       "export default awsmobile;\n" % server.url)
    created = run_gqlc(["--schema", exports, "create", "Library", "id=l1", "name=Central"], cwd=tmp_path)
    assert created.code == 0 and created.json()["id"] == "l1", created


def test_several_gen1_apis_ask_which(tmp_path):
    for name in ("a", "b"):
        api = tmp_path / "amplify" / "backend" / "api" / name
        api.mkdir(parents=True)
        (api / "schema.graphql").write_text("type Post @model { id: ID! }\n")
    run = run_gqlc(["models"], cwd=tmp_path)
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == [f"gqlc: several Gen 1 APIs: {tmp_path}/amplify/backend/api/a/schema.graphql, "
                                f"{tmp_path}/amplify/backend/api/b/schema.graphql; pass --schema with the one to use"]


def test_sdl_errors_have_line_and_column(tmp_path):
    path = tmp_path / "schema.graphql"
    path.write_text("type Post @model {\n  id: ID!\n  comments: [Comment] @hasmany\n}\n\ntype Comment @model { id: ID! }\n")
    run = run_gqlc(["--schema", path, "models"])
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == [f"gqlc: {path}: 3:23: unknown directive '@hasmany'; did you mean '@hasMany'?"]


@pytest.mark.parametrize("args, message", [
    (["schema"], "gqlc: 'schema' needs an action: pull or print; usage: gqlc schema pull [--out FILE]"),
    (["schema", "pul"], "gqlc: unknown action 'pul'; did you mean 'pull'?"),
    (["schema", "print", "--out", "x.json"], "gqlc: '--out' is for 'schema pull'; 'schema print' writes to standard output"),
])
def test_schema_usage_errors(args, message, tmp_path):
    run = run_gqlc(args, cwd=tmp_path)
    assert (run.code, run.stdout, run.stderr_lines) == (2, "", [message]), run


def test_pull_dry_run_prints_the_introspection_request(tmp_path):
    run = run_gqlc(["--endpoint", "https://api.example.com/graphql", "--dry-run", "schema", "pull"], cwd=tmp_path)
    assert run.code == 0, run
    body = run.json()
    assert body["operationName"] == "IntrospectionQuery" and "__schema" in body["query"], run


def test_a_gen1_schema_split_into_a_folder_is_read_as_one(tmp_path, project_fixtures_dir):
    whole = (project_fixtures_dir / "custom-operations.graphql").read_text()
    cut = whole.index("type Range {")
    folder = tmp_path / "amplify" / "backend" / "api" / "blog" / "schema"
    (folder / "custom").mkdir(parents=True)
    (folder / "models.graphql").write_text(whole[:cut])
    (folder / "custom" / "operations.graphql").write_text(whole[cut:])
    (tmp_path / "src").mkdir()
    command = ["--dry-run", "query", "postStats", 'filter:={"range": {"low": 1}}']
    run = run_gqlc(["--verbose", *command], cwd=tmp_path / "src")
    assert run.code == 0, run
    assert run.stderr_lines[0] == f"* schema: {folder} (the nearest Gen 1 @model schema from the working directory)", run
    single = run_gqlc(["--schema", project_fixtures_dir / "custom-operations.mis.json", *command], cwd=tmp_path)
    assert run.stdout == single.stdout and single.code == 0
    (folder / "custom" / "operations.graphql").write_text(whole[cut:].replace("low: Int!", "low: Itn!", 1))
    broken = run_gqlc(["--schema", folder, "models"], cwd=tmp_path)
    assert (broken.code, broken.stdout) == (2, ""), broken
    assert broken.stderr_lines == [f"gqlc: {folder}/custom/operations.graphql: 2:3: unknown type 'Itn' for field 'low'; "
                                   "did you mean 'Int'?"], broken
