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


@pytest.mark.slow
@pytest.mark.parametrize("pair", PAIRS)
def test_documents_are_identical_from_the_sdl_the_mis_and_a_pulled_schema(pair, project_fixtures_dir, start_appsync,
                                                                            tmp_path):
    _compare_sources(project_fixtures_dir / f"{pair}.mis.json", project_fixtures_dir / f"{pair}.graphql",
                     start_appsync, tmp_path)


@pytest.mark.slow
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


@pytest.mark.shared_fixtures
def test_every_shared_amplify_fixture_loads(shared_fixtures_dir):
    """Every schema or config file among the real Amplify fixtures is read with all its models; the transformed SDL
    AppSync serves is refused, naming what to read instead."""
    def model_names(document: dict) -> list[str]:
        inner = document.get("data", {}).get("model_introspection") or document.get("modelIntrospection") or document
        return sorted(inner["models"])

    checked = 0
    for path in sorted(shared_fixtures_dir.iterdir()):
        if path.name in ("README.md", "ModelIntrospectionSchema.v1.schema.json"):
            continue
        run = run_gqlc(["--schema", path, "models", "--output", "json"])
        if path.name.endswith(".appsync-sdl.graphql"):
            assert run.code == 2 and "this is the schema AppSync serves" in run.stderr, run
            continue
        assert run.code == 0, (path.name, run)
        if path.suffix == ".json":
            expected = model_names(json.loads(path.read_text()))
        else:
            expected = model_names(json.loads((shared_fixtures_dir / "gen1-blog-hasmany-belongsto.mis.json").read_text()))
        assert sorted(model["name"] for model in run.json()["models"]) == expected, path.name
        checked += 1
    assert checked >= 7, checked


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


def test_pull_out_dash_prints_the_schema(project_fixtures_dir, start_appsync, tmp_path):
    server = start_appsync(project_fixtures_dir / "gen1-conventions.mis.json", api_key="k1")
    out = tmp_path / "pulled.json"
    to_file = run_gqlc(["--endpoint", server.url, "--api-key", "k1", "schema", "pull", "--out", out], cwd=tmp_path)
    printed = run_gqlc(["--endpoint", server.url, "--api-key", "k1", "schema", "pull", "--out", "-"], cwd=tmp_path)
    assert printed.code == 0 and printed.stdout == out.read_text(), printed
    assert printed.stderr_lines[0].startswith(f"gqlc: pulled ") and " to standard output: " in printed.stderr_lines[0], printed
    assert printed.stderr_lines[1:] == to_file.stderr_lines[1:] and not (tmp_path / "-").exists()


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


def test_a_damaged_cached_schema_says_how_to_replace_it(project_fixtures_dir, start_appsync, tmp_path):
    server = start_appsync(project_fixtures_dir / "gen1-conventions.mis.json", api_key="k1")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert run_gqlc(["--endpoint", server.url, "--api-key", "k1", "schema", "pull"], env=env, cwd=tmp_path).code == 0
    [cached] = (tmp_path / "cache" / "gqlc").glob("schema-*.json")
    cached.write_text(cached.read_text()[:100])
    run = run_gqlc(["--endpoint", server.url, "--api-key", "k1", "get", "Book", "--id", "b1"], env=env, cwd=tmp_path)
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines[0].startswith(f"gqlc: {cached}: "), run
    assert run.stderr_lines[0].endswith("; run gqlc schema pull again to replace this cached schema"), run
    again = run_gqlc(["--endpoint", server.url, "--api-key", "k1", "schema", "pull"], env=env, cwd=tmp_path)
    assert again.code == 0, again
    assert run_gqlc(["--endpoint", server.url, "--api-key", "k1", "get", "Book", "--id", "b1"], env=env, cwd=tmp_path).code == 4


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


def test_a_pulled_schema_leaves_out_what_model_introspection_cannot_describe(starwars, tmp_path):
    """A GraphQL API that is not Amplify's: fields and operations of interface or union types are left out, and
    said so, rather than sent without a selection set for the server to refuse."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    pulled = starwars("schema", "pull", env=env, cwd=tmp_path)
    assert pulled.code == 0, pulled
    assert ("gqlc: assumed: Human.friends is left out: its type Character is an interface, which model introspection "
            "cannot describe (gqlc raw can select it)") in pulled.stderr_lines, pulled
    assert ("gqlc: assumed: the custom operation search is left out: its type SearchResult is a union, which model "
            "introspection cannot describe (gqlc raw can select it)") in pulled.stderr_lines, pulled
    human = starwars("query", "human", "id=1000", env=env, cwd=tmp_path)
    assert human.code == 0 and human.json()["name"] == "Luke Skywalker" and "friends" not in human.json(), human
    hero = starwars("query", "hero", env=env, cwd=tmp_path)
    assert (hero.code, hero.stdout, hero.stderr_lines) == (2, "", [
        "gqlc: the custom operation 'hero' was left out when the schema was pulled: its type Character is an "
        "interface, which model introspection cannot describe; send it with gqlc raw (gqlc schema print shows its SDL)"
    ]), hero
    # A name the API does not have is still unknown, with the queries it has.
    nothing = starwars("query", "villain", env=env, cwd=tmp_path)
    assert (nothing.code, nothing.stdout) == (2, "") and "unknown custom query 'villain'" in nothing.stderr, nothing


def test_schema_print_writes_the_servers_sdl(project_fixtures_dir, start_appsync, tmp_path, repo_root):
    schema = project_fixtures_dir / "gen2-conventions.mis.json"
    server = start_appsync(schema, api_key="k1")
    run = run_gqlc(["--endpoint", server.url, "--api-key", "k1", "schema", "print"], cwd=tmp_path)
    assert run.code == 0, run
    # The server's own SDL, less the declarations AppSync has built in (declared here to build it): the same schema.
    import subprocess
    import sys
    served = subprocess.run([sys.executable, str(repo_root / "DevServers/AppSyncLocal/appsync-local"), "--schema", str(schema),
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


def test_a_gen1_schema_without_aws_exports_says_where_the_endpoint_was_looked_for(tmp_path, project_fixtures_dir):
    api = tmp_path / "amplify" / "backend" / "api" / "library"
    api.mkdir(parents=True)
    (api / "schema.graphql").write_text((project_fixtures_dir / "gen1-conventions.graphql").read_text())
    run = run_gqlc(["get", "Shelf", "--id", "s1"], cwd=tmp_path, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == [f"gqlc: no endpoint: looked in --endpoint, $GQLC_ENDPOINT and {api / 'schema.graphql'} "
                                "(it has no endpoint, and no src/aws-exports.js was found beside its project); pass "
                                "--endpoint URL or set GQLC_ENDPOINT"], run


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


def test_aws_exports_without_a_project_sdl_takes_the_models_pulled_for_its_endpoint(tmp_path, project_fixtures_dir,
                                                                                      start_appsync):
    server = start_appsync(project_fixtures_dir / "gen1-conventions.mis.json", api_key="da2-exportskey")
    (tmp_path / "web" / "src").mkdir(parents=True)
    exports = tmp_path / "web" / "src" / "aws-exports.js"
    exports.write_text("const awsmobile = {\n  aws_appsync_graphqlEndpoint: \"%s\",\n  aws_appsync_region: 'us-east-1',\n"
                       "  aws_appsync_authenticationType: 'API_KEY',\n  aws_appsync_apiKey: 'da2-exportskey',\n};\n"
                       "export default awsmobile;\n" % server.url)
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    before = run_gqlc(["--schema", exports, "get", "Library", "--id", "l1"], env=env, cwd=tmp_path)
    assert (before.code, before.stdout) == (2, ""), before
    assert "schema pull" in before.stderr and "da2-exportskey" not in before.stderr, before
    pulled = run_gqlc(["--schema", exports, "schema", "pull"], env=env, cwd=tmp_path)
    assert pulled.code == 0 and pulled.stderr_lines[0].startswith(f"gqlc: pulled "), pulled
    created = run_gqlc(["--verbose", "--schema", exports, "create", "Library", "id=l1", "name=Central"], env=env, cwd=tmp_path)
    assert created.code == 0 and created.json()["name"] == "Central", created
    assert any(line.startswith(f"* schema: {tmp_path / 'cache' / 'gqlc'}/schema-") for line in created.stderr_lines), created


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


# The mistakes people make in a @model schema, each refused with its place and what to do.
SDL_MISTAKES = {
    "typo-in-a-field-directive": ("type Post @model {\n  id: ID!\n  title: String! @defualt(value: \"x\")\n}\n",
                                  "3:18: unknown directive '@defualt'; did you mean '@default'?"),
    "typo-in-model": ("type Post @modle {\n  id: ID!\n}\n", "1:11: unknown directive '@modle'; did you mean '@model'?"),
    "transformer-v1-connection": (
        "type Post @model {\n  id: ID!\n  comments: [Comment] @connection(keyName: \"byPost\", fields: [\"id\"])\n}\n"
        "type Comment @model { id: ID! }\n",
        "3:23: '@connection' is a transformer v1 directive, which gqlc does not read; the v2 schema uses @hasMany, "
        "@hasOne, @belongsTo or @manyToMany"),
    "transformer-v1-key": (
        "type Comment @model @key(name: \"byPost\", fields: [\"postID\"]) {\n  id: ID!\n  postID: ID!\n}\n",
        "1:21: '@key' is a transformer v1 directive, which gqlc does not read; the v2 schema uses @primaryKey on the "
        "key field, or @index(name:, sortKeyFields:, queryField:) for a secondary index"),
    "nullable-primary-key": ("type Post @model {\n  slug: String @primaryKey\n  title: String\n}\n",
                             "2:16: the primary key of Post must be non-null, but 'slug' may be null; write 'slug: String!'"),
    "nullable-sort-key": ("type Post @model {\n  id: ID! @primaryKey(sortKeyFields: [\"title\"])\n  title: String\n}\n",
                          "2:11: the primary key of Post must be non-null, but 'title' may be null; write 'title: String!'"),
    "relation-to-a-missing-model": ("type Post @model {\n  id: ID!\n  comments: [Coment] @hasMany\n}\n"
                                    "type Comment @model { id: ID! }\n",
                                    "3:3: unknown model 'Coment' for the @hasMany field 'comments'; no type Coment @model "
                                    "is declared; did you mean 'Comment'?"),
    "relation-to-a-type-without-model": ("type Post @model {\n  id: ID!\n  comments: [Comment] @hasMany\n}\n"
                                         "type Comment { id: ID! }\n",
                                         "3:23: @hasMany needs a field whose type is a model, but 'comments' is Comment, "
                                         "which has no @model"),
    "relation-naming-a-missing-field": (
        "type Post @model {\n  id: ID!\n  author: Author @belongsTo(fields: [\"authorId\"])\n  authorID: ID\n}\n"
        "type Author @model {\n  id: ID!\n  posts: [Post] @hasMany(indexName: \"byAuthor\", fields: [\"id\"])\n}\n",
        "3:18: 'authorId' is not a field of Post; did you mean 'authorID'?"),
    "undeclared-timestamp-as-sort-key": (
        "type Post @model {\n  id: ID!\n  status: String! @index(name: \"byStatus\", sortKeyFields: [\"createdAt\"])\n}\n",
        "3:19: 'createdAt' is not a field of Post; to use the timestamp in a key, declare it: createdAt: AWSDateTime!"),
    "relation-naming-a-missing-index": (
        "type Post @model {\n  id: ID!\n  comments: [Comment] @hasMany(indexName: \"byPst\", fields: [\"id\"])\n}\n"
        "type Comment @model {\n  id: ID!\n  postID: ID! @index(name: \"byPost\")\n}\n",
        "3:23: @hasMany(indexName: \"byPst\"): Comment has no index named 'byPst'; did you mean 'byPost'?"),
    "many-to-many-relation-names-differ": (
        "type Post @model {\n  id: ID!\n  tags: [Tag] @manyToMany(relationName: \"PostTags\")\n}\n"
        "type Tag @model {\n  id: ID!\n  posts: [Post] @manyToMany(relationName: \"PostTag\")\n}\n",
        "3:15: @manyToMany(relationName: \"PostTags\") is on 1 field(s); a relation needs one on each of its two "
        "models; did you mean 'PostTag'?"),
    "unclosed-brace-before-the-next-type": ("type Post @model {\n  id: ID!\n  title: String!\n\ntype Comment @model {\n  id: ID!\n}\n",
                                            "5:1: 'type Comment' starts inside the braces opened at 1:18; a '}' is missing "
                                            "before it"),
    "unclosed-enum-before-the-next-type": ("enum Status { DRAFT PUBLISHED\ntype Post @model {\n  id: ID!\n}\n",
                                           "2:1: 'type Post' starts inside the braces opened at 1:13; a '}' is missing "
                                           "before it"),
    "unclosed-brace-at-the-end": ("type Post @model {\n  id: ID!\n", "3:1: unexpected end of file; expected '}' to match "
                                                                       "the '{' at 1:18"),
    "field-declared-twice": ("type Post @model {\n  id: ID!\n  title: String\n  title: String!\n}\n",
                             "4:3: field 'title' of Post is declared twice (first at 3:3)"),
    "type-declared-twice": ("type Post @model { id: ID! }\ntype Post @model { id: ID! }\n",
                            "2:6: Post is defined twice (first at 1:6); use 'extend type Post' to add to it"),
    "default-value-on-a-model-field": ("type Post @model {\n  id: ID!\n  rating: Int = 5\n}\n",
                                       "3:15: unexpected '='; a default value belongs to an input field or argument; on a "
                                       "model field, write @default(value: \"…\")"),
    "auth-operation-typo": ("type Post @model @auth(rules: [{allow: owner, operations: [create, reed]}]) {\n  id: ID!\n}\n",
                            "1:18: unknown @auth operation 'reed'; did you mean 'read'?"),
    "auth-provider-typo": ("type Post @model @auth(rules: [{allow: private, provider: userPool}]) {\n  id: ID!\n}\n",
                           "1:18: unknown @auth provider 'userPool'; did you mean 'userPools'?"),
    "auth-key-typo": ("type Post @model @auth(rules: [{alow: owner}]) {\n  id: ID!\n}\n",
                      "1:18: unknown @auth rule key 'alow'; did you mean 'allow'?"),
    "gen2-typescript-named-graphql": (
        "import { a } from \"@aws-amplify/backend\";\nconst schema = a.schema({});\n",
        "1:1: unexpected name 'import'; expected a type definition (type, enum, input, interface, union, scalar, schema, "
        "directive or extend); this looks like TypeScript or JavaScript (a Gen 2 amplify/data/resource.ts?), not GraphQL: "
        "use the amplify_outputs.json or model-introspection.json generated from it"),
}


@pytest.mark.parametrize("mistake", SDL_MISTAKES)
def test_sdl_mistakes_are_refused_with_their_place_and_a_way_out(mistake, tmp_path):
    text, message = SDL_MISTAKES[mistake]
    path = tmp_path / "schema.graphql"
    path.write_text(text)
    run = run_gqlc(["--schema", path, "models"])
    assert (run.code, run.stdout, run.stderr_lines) == (2, "", [f"gqlc: {path}: {message}"]), run


def test_a_gen2_typescript_schema_is_refused_with_what_to_pass_instead(tmp_path):
    data = tmp_path / "amplify" / "data"
    data.mkdir(parents=True)
    (data / "resource.ts").write_text("import { a, defineData } from '@aws-amplify/backend';\n"
                                      "const schema = a.schema({ Post: a.model({ title: a.string() }) });\n")
    run = run_gqlc(["--schema", "amplify/data/resource.ts", "models"], cwd=tmp_path)
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == [
        "gqlc: amplify/data/resource.ts: a TypeScript file (Gen 2's amplify/data/resource.ts is code gqlc does not run), "
        "not JSON; gqlc reads amplify_outputs.json (Gen 2: npx ampx generate outputs), a legacy amplifyconfiguration.json, "
        "model-introspection.json (Gen 2: npx ampx generate graphql-client-code --format introspection; Gen 1: amplify "
        "codegen model-introspection), the @model schema.graphql (or its schema/ folder), or aws-exports.js"], run


def test_the_global_auth_rule_header_amplify_add_api_writes_is_read(tmp_path, project_fixtures_dir):
    """`amplify add api` starts every Gen 1 schema with `input AMPLIFY { globalAuthRule: … }`: settings for the
    transformer, not a type of the API."""
    header = ("# This \"input\" configures a global authorization rule to enable public access to\n"
              "# all models in this schema. Learn more about authorization rules here: "
              "https://docs.amplify.aws/cli/graphql/authorization-rules\n"
              "input AMPLIFY { globalAuthRule: AuthRule = { allow: public } } # FOR TESTING ONLY!\n\n")
    plain = project_fixtures_dir / "gen1-conventions.graphql"
    path = tmp_path / "schema.graphql"
    path.write_text(header + plain.read_text())
    for command in (["models", "--output", "json"], ["--dry-run", "get", "Shelf", "--id", "s1"]):
        with_header = run_gqlc(["--schema", path, "--endpoint", "http://127.0.0.1:9/graphql", *command])
        without = run_gqlc(["--schema", plain, "--endpoint", "http://127.0.0.1:9/graphql", *command])
        assert with_header.code == 0 and (with_header.stdout, with_header.stderr) == (without.stdout, without.stderr), \
            with_header


def test_an_id_written_without_bang_is_the_required_key_as_codegen_makes_it(tmp_path, project_fixtures_dir):
    path = tmp_path / "schema.graphql"
    path.write_text("type Post @model {\n  id: ID\n  title: String!\n}\n")
    bang = tmp_path / "bang.graphql"
    bang.write_text("type Post @model {\n  id: ID!\n  title: String!\n}\n")
    for command in (["create", "Post", "id=x1", "title=t"], ["get", "Post", "--id", "p1"], ["update", "Post", "--id", "p1", "title=u"]):
        without = run_gqlc(["--schema", path, "--endpoint", "http://127.0.0.1:9/graphql", "--dry-run", *command])
        with_bang = run_gqlc(["--schema", bang, "--endpoint", "http://127.0.0.1:9/graphql", "--dry-run", *command])
        assert without.code == 0 and (without.stdout, without.stderr) == (with_bang.stdout, with_bang.stderr), command
    models = run_gqlc(["--schema", path, "models", "Post"])
    assert "    id         ID!  (key)" in models.stdout.splitlines(), models


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
