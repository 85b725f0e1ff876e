"""`gqlc query`, `gqlc mutate` and `gqlc subscribe NAME`: the schema's custom operations end to end, against
appsync-local serving them (an echo of the arguments, or canned results from ``--custom-results``).

Expectations come from the fixture files and the wire, not from earlier gqlc output: an echoed argument must come
back as the value given, a canned result as the file holds it, and every generated document is validated by
graphql-core against the SDL the server generated from the same schema.
"""

from __future__ import annotations

import json

import pytest
from graphql import build_schema, parse, validate
from graphql.execution.values import get_variable_values

from gqlc_runner import run_gqlc, runner_for
from harness import PROJECT_FIXTURES, SERVER_PATH, SHARED_FIXTURES, clean_env
from subscribe_support import Background

SCHEMA = PROJECT_FIXTURES / "custom-operations.mis.json"
MIS = json.loads(SCHEMA.read_text())
MODELED = SHARED_FIXTURES / "gen2-amplify-data-modeled.mis.json"

POST = {"id": "p1", "title": "Hello", "status": "PUBLISHED", "likes": 3,
        "createdAt": "2025-01-01T00:00:00.000Z", "updatedAt": "2025-01-02T00:00:00.000Z"}
CANNED = {
    "featuredPost": {"result": POST},
    "postStats": {"result": {"total": 4, "byStatus": [{"status": "DRAFT", "count": 1}, {"status": "PUBLISHED", "count": 3}],
                             "top": {"title": "Hello", "score": 9.5, "range": {"low": 1, "high": None}}}},
    "archivePosts": {"error": {"errorType": "Unauthorized", "message": "Not Authorized to access archivePosts on type Mutation"}},
    "statuses": {"result": ["DRAFT", None]},
}
SEED = {"Post": [POST], "Comment": [{"id": "c1", "postId": "p1", "content": "First"},
                                    {"id": "c2", "postId": "p1", "content": "Second"}]}


@pytest.fixture
def server(start_appsync, tmp_path):
    canned = tmp_path / "canned.json"
    canned.write_text(json.dumps(CANNED))
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps(SEED))
    return start_appsync(SCHEMA, seed=seed, record_requests=True,
                         args=("--custom-results", canned, "--subscription-source", "onPostLiked=likePost"))


@pytest.fixture
def gqlc_custom(server):
    return runner_for(SCHEMA, server.url)


def ok(run):
    assert (run.code, run.stderr) == (0, ""), run
    return run.json()


def test_every_argument_type_round_trips_through_the_server(gqlc_custom):
    echoed = ok(gqlc_custom("query", "echoArgs", "text=007", "count=-3", "ratio=2.5e3", "flag=true", "status=ARCHIVED",
                            "tags:=[\"a\",\"b\"]", "when=2025-06-01T12:00:00Z", "meta:={\"k\": [1, null]}",
                            "range:={\"low\": 1}"))
    assert echoed == {"count": -3, "flag": True, "meta": "{\"k\":[1,null]}", "range": {"high": None, "low": 1, "__typename": "Range"},
                      "ratio": 2500.0, "status": "ARCHIVED", "tags": ["a", "b"], "text": "007",
                      "when": "2025-06-01T12:00:00Z", "__typename": "EchoArgs"}


def test_scalars_lists_and_a_single_value_for_a_list(gqlc_custom):
    assert ok(gqlc_custom("query", "shout", "text=hey there")) == "hey there"
    assert ok(gqlc_custom("query", "tagsOf", "tags=solo")) == ["solo"]
    run = gqlc_custom("--output", "ndjson", "query", "tagsOf", "tags:=[\"x\",\"y\"]")
    assert (run.code, run.ndjson()) == (0, ["x", "y"]), run


def test_input_file_and_overrides(gqlc_custom, tmp_path):
    args = tmp_path / "args.json"
    args.write_text(json.dumps({"postId": "p9", "times": 1}))
    assert ok(gqlc_custom("mutate", "likePost", "--input", args, "times=4")) == {"postId": "p9", "times": 4, "__typename": "LikeResult"}
    assert ok(gqlc_custom("mutate", "likePost", "--input", "-", stdin='{"postId": "p2"}')) == \
        {"postId": "p2", "times": None, "__typename": "LikeResult"}


def test_a_model_result_prints_as_get_and_includes_follow(gqlc_custom):
    featured = ok(gqlc_custom("query", "featuredPost", "id=p1", "--include", "comments"))
    assert {k: featured[k] for k in POST} == POST
    assert [c["content"] for c in featured["comments"]["items"]] == ["First", "Second"]
    assert featured["comments"]["nextToken"] is None


def test_a_nested_embedded_result(gqlc_custom):
    stats = ok(gqlc_custom("query", "postStats", "filter:={\"status\": \"DRAFT\"}"))
    strip = lambda v: {k: strip(x) for k, x in v.items() if k != "__typename"} if isinstance(v, dict) else \
        [strip(x) for x in v] if isinstance(v, list) else v  # noqa: E731
    assert strip(stats) == CANNED["postStats"]["result"]


def test_errors_and_partial_results_exit_as_model_commands_do(gqlc_custom, start_appsync, tmp_path):
    failed = gqlc_custom("mutate", "archivePosts", "ids=p1")
    assert failed.code == 1 and failed.stdout == "", failed
    assert failed.stderr_lines == ["gqlc: Unauthorized: Not Authorized to access archivePosts on type Mutation (path: archivePosts)"]
    assert ok(gqlc_custom("query", "statuses")) == ["DRAFT", None]
    # A non-null field left null: the server nulls the nearest nullable parent and reports it (partial data).
    canned = tmp_path / "partial.json"
    canned.write_text(json.dumps({"postStats": {"result": {"total": 1, "byStatus": [], "top": {"range": {"low": None}}}}}))
    server = start_appsync(SCHEMA, args=("--custom-results", canned))
    partial = runner_for(SCHEMA, server.url)("query", "postStats")
    assert partial.code == 3, partial
    assert json.loads(partial.stdout)["top"] == {"range": None, "score": None, "title": None, "__typename": "Leader"}
    assert len(partial.stderr_lines) == 1 and "(path: postStats.top.range.low)" in partial.stderr, partial


def test_bad_arguments_are_refused_before_anything_is_sent(gqlc_custom, server):
    cases = [
        (["mutate", "likePost", "postid=p1"], "gqlc: 'postid=p1': unknown argument 'postid' of likePost; did you mean 'postId'?"),
        (["mutate", "likePost", "times=2"], "gqlc: likePost: missing required argument 'postId' (ID!)"),
        (["query", "echoArgs", "text=a", "count=x"], "gqlc: 'count=x': 'x' is not an Int"),
        (["query", "echoArgs", "text=a", "status=DRAF"], "gqlc: 'status=DRAF': 'DRAF' is not a PostStatus; did you mean 'DRAFT'?"),
        (["query", "postStats", "filter:={\"range\": {}}"],
         "gqlc: 'filter:={\"range\": {}}': filter.range: missing required field of BoundsInput: 'low' (Int!)"),
        (["query", "likePost", "postId=p1"], "gqlc: 'likePost' is a custom mutation, not a query; run it with: gqlc mutate likePost"),
        (["query", "shuot"], "gqlc: unknown custom query 'shuot'; did you mean 'shout'?"),
        (["query", "shout", "text=a", "--include", "x"],
         "gqlc: --include 'x': shout returns String, not a model, so it has no associations to include"),
        (["mutate", "likePost", "--input", "missing.json"], "gqlc: --input: missing.json: no such file"),
        (["subscribe", "onPostLiked", "--on", "create"],
         "gqlc: 'onPostLiked' is a custom subscription: give it without --on, with its arguments as ARG=VALUE"),
        (["subscribe", "onPostLikd"], "gqlc: unknown custom subscription 'onPostLikd'; did you mean 'onPostLiked'?"),
        (["subscribe", "likePost"], "gqlc: 'likePost' is a custom mutation, not a subscription; run it with: gqlc mutate likePost"),
    ]
    for args, message in cases:
        run = gqlc_custom(*args)
        assert (run.code, run.stdout, run.stderr_lines) == (2, "", [message]), run
    assert server.requests() == []


def test_dry_run_prints_the_body_with_variables_only(gqlc_custom, server):
    body = ok(gqlc_custom("--dry-run", "mutate", "likePost", "postId=p1\" } evil", "times=2"))
    assert body["variables"] == {"postId": "p1\" } evil", "times": 2}
    assert "evil" not in body["query"]
    assert body["query"].startswith("mutation LikePost($postId: ID!, $times: Int) {")
    assert server.requests() == []


def test_a_custom_subscription_hears_its_mutation(gqlc_custom, server):
    watcher = Background(["--schema", SCHEMA, "--endpoint", server.url, "subscribe", "onPostLiked", "postId=p1",
                          "--count", "1"])
    watcher.subscribed("onPostLiked")
    ok(gqlc_custom("mutate", "likePost", "postId=p2"))  # another post: filtered out by the argument
    ok(gqlc_custom("mutate", "likePost", "postId=p1", "times=5"))
    assert watcher.event() == {"postId": "p1", "times": 5, "__typename": "LikeResult"}
    code, rest, _ = watcher.finish()
    assert (code, rest) == (0, "")


def test_models_lists_signatures_and_input_types():
    run = run_gqlc(["--schema", SCHEMA, "models"])
    assert run.code == 0, run
    lines = run.stdout.splitlines()
    for name, operation in MIS["queries"].items():
        assert any(line.startswith(f"  {operation['name']}") for line in lines), name
    assert "  likePost(postId: ID!, times: Int): LikeResult" in lines
    assert "  tagsOf(tags: [String!]!): [String!]!" in lines
    assert "input types:" in lines
    assert any(line.startswith("  BoundsInput") and line.endswith("low: Int!, high: Int") for line in lines)
    described = run_gqlc(["--schema", SCHEMA, "models", "--output", "json"]).json()
    assert [i["name"] for i in described["inputs"]] == sorted(MIS["inputs"])


def test_models_describes_one_custom_operation():
    run = run_gqlc(["--schema", SCHEMA, "models", "likePost"])
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout.splitlines() == [
        "likePost (custom mutation)", "  arguments:", "    postId  ID!  (required)", "    times   Int",
        "  returns: LikeResult", "  run: gqlc mutate likePost postId=VALUE"]
    described = run_gqlc(["--schema", SCHEMA, "models", "archivePosts", "--output", "json"]).json()
    source = MIS["mutations"]["archivePosts"]
    assert (described["name"], described["graphQLType"]) == (source["name"], "[Post]")
    assert [(a["name"], a["graphQLType"]) for a in described["arguments"]] == [("ids", "[ID!]!"), ("reason", "String")]
    unknown = run_gqlc(["--schema", SCHEMA, "models", "likePots"])
    assert (unknown.code, unknown.stderr) == (2, "gqlc: unknown model or custom operation 'likePots'; did you mean 'likePost'?\n")


def _minimal_arguments(operation: dict) -> list[str]:
    """One value for each required argument, by its type (the schema's own declarations)."""
    values = {"ID": "x1", "String": "s", "Int": "1", "Float": "1.5", "Boolean": "true", "AWSDateTime": "2025-01-01T00:00:00Z"}
    result = []
    for argument in (operation.get("arguments") or {}).values():
        mandatory = not argument.get("isArrayNullable", True) if argument["isArray"] else argument["isRequired"]
        if mandatory:
            assert isinstance(argument["type"], str), argument
            result.append(f"{argument['name']}={values[argument['type']]}")
    return result


def _server_schema(path):
    import subprocess
    import sys
    completed = subprocess.run([sys.executable, str(SERVER_PATH), "--schema", str(path), "--print-schema"],
                               capture_output=True, text=True, env=clean_env(), timeout=120)
    assert completed.returncode == 0, completed.stderr
    return build_schema(completed.stdout)


@pytest.mark.parametrize("schema_path", [
    SCHEMA, pytest.param(MODELED, marks=pytest.mark.shared_fixtures)], ids=["project", "gen2-modeled"])
def test_every_custom_operation_document_is_valid_against_the_servers_sdl(schema_path):
    sdl = _server_schema(schema_path)
    mis = json.loads(schema_path.read_text())
    commands = {"queries": ["query"], "mutations": ["mutate"], "subscriptions": ["subscribe"]}
    checked = 0
    for group, command in commands.items():
        for operation in (mis.get(group) or {}).values():
            run = run_gqlc(["--schema", schema_path, "--dry-run", *command, operation["name"], *_minimal_arguments(operation)])
            assert run.code == 0, run
            body = run.json()
            document = parse(body["query"])
            assert validate(sdl, document) == [], body["query"]
            coerced = get_variable_values(sdl, document.definitions[0].variable_definitions, body["variables"])
            assert isinstance(coerced, dict), [e.message for e in coerced]
            checked += 1
    assert checked == sum(len(mis.get(group) or {}) for group in commands)


@pytest.mark.shared_fixtures
def test_amplify_data_fixture_operations_over_the_wire(start_appsync, tmp_path):
    canned = tmp_path / "canned.json"
    canned.write_text(json.dumps({"echo": {"result": {"resultContent": "echo: hello"}},
                                  "likePost": {"result": {"likes": 7}}}))
    server = start_appsync(MODELED, args=("--custom-results", canned))
    run = runner_for(MODELED, server.url)
    assert ok(run("query", "echo", "argumentContent=hello")) == {"resultContent": "echo: hello", "__typename": "EchoResult"}
    assert ok(run("query", "echoString", "inputString=hi")) == "hi"
    assert ok(run("mutate", "likePost", "postId=p1")) == {"likes": 7, "__typename": "PostLikeResult"}
    # The map key of this argument is 'argumentContent', its name 'input': the name is what the server takes.
    nested = ok(run("query", "echoNestedCustomTypes", "input=hi"))
    assert nested == {"note": None, "productMeta": None, "__typename": "ProductTrackingMeta"}


def test_a_custom_query_is_retried_and_a_custom_mutation_is_sent_once(start_appsync):
    """A custom query is retried like any query; a custom mutation is sent once even with --retry-mutations, as
    gqlc cannot know whether repeating it is safe. The server fails every request (500) and logs each one."""
    server = start_appsync(SCHEMA, args=("--verbose", "--fail-every", "1"))

    def posts_logged() -> int:
        return sum(1 for line in server.stderr_text().splitlines() if '"POST /graphql' in line)

    query = run_gqlc(["--schema", SCHEMA, "--endpoint", server.url, "--verbose", "--retries", "2",
                      "query", "shout", "text=hi"])
    assert (query.code, query.stdout) == (5, ""), query
    assert sum(1 for line in query.stderr_lines if line.startswith("> POST ")) == 3 == posts_logged(), query
    mutation = run_gqlc(["--schema", SCHEMA, "--endpoint", server.url, "--verbose", "--retries", "2",
                         "--retry-mutations", "mutate", "likePost", "postId=p1"])
    assert (mutation.code, mutation.stdout) == (5, ""), mutation
    assert sum(1 for line in mutation.stderr_lines if line.startswith("> POST ")) == 1, mutation
    assert posts_logged() == 4, server.stderr_text()
