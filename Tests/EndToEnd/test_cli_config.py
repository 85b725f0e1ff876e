"""Where gqlc finds its schema, endpoint and credentials, and what it sends.

Precedence: flags > GQLC_* environment variables > the schema/config file (amplify_outputs.json's
data.url/api_key, or amplifyconfiguration.json's aws_appsync_* keys); the schema defaults to the nearest
amplify_outputs.json in the working directory or its parents. What is sent is checked in the requests the local server records.
"""

from __future__ import annotations

import json
import os

import pytest

from gqlc_runner import closed_port_url, run_gqlc
from harness import ServerHandle, start_server

KEY = "da2-config-test-key"


@pytest.fixture(scope="module")
def server(schema_examples_dir):
    with start_server(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json", api_key=KEY) as handle:
        yield handle


@pytest.fixture(scope="module")
def introspection(schema_examples_dir) -> dict:
    return json.loads((schema_examples_dir / "blog.json").read_text())


def outputs_file(path, introspection, url, api_key):
    """A Gen2 amplify_outputs.json."""
    path.write_text(json.dumps({
        "version": "1",
        "data": {"url": url, "aws_region": "us-east-1", "api_key": api_key, "default_authorization_type": "API_KEY",
                 "authorization_types": [], "model_introspection": introspection},
    }))
    return path


def legacy_file(path, introspection, url, api_key):
    """A legacy amplifyconfiguration.json."""
    path.write_text(json.dumps({
        "aws_project_region": "us-east-1", "aws_appsync_graphqlEndpoint": url, "aws_appsync_region": "us-east-1",
        "aws_appsync_authenticationType": "API_KEY", "aws_appsync_apiKey": api_key, "modelIntrospection": introspection,
    }))
    return path


def title(run) -> str:
    assert run.code == 0, run
    return run.json()["title"]


P1 = "A sourdough starter in seven days"


# MARK: - Config files

def test_amplify_outputs_gives_schema_endpoint_and_key(server, introspection, tmp_path):
    path = outputs_file(tmp_path / "amplify_outputs.json", introspection, server.url, KEY)
    assert title(run_gqlc(["--schema", path, "get", "Post", "--id", "p1"])) == P1


def test_legacy_amplifyconfiguration_gives_schema_endpoint_and_key(server, introspection, tmp_path):
    path = legacy_file(tmp_path / "amplifyconfiguration.json", introspection, server.url, KEY)
    assert title(run_gqlc(["--schema", path, "get", "Post", "--id", "p1"])) == P1


def test_default_schema_is_amplify_outputs_in_the_working_directory(server, introspection, tmp_path):
    outputs_file(tmp_path / "amplify_outputs.json", introspection, server.url, KEY)
    assert title(run_gqlc(["get", "Post", "--id", "p1"], cwd=tmp_path)) == P1
    models = run_gqlc(["models"], cwd=tmp_path)
    assert (models.code, models.stdout.split("\n\n")[0]) == (0, "Blog\nComment\nPost")


def test_gqlc_schema_from_the_environment(server, introspection, tmp_path):
    path = outputs_file(tmp_path / "outputs.json", introspection, server.url, KEY)
    assert title(run_gqlc(["get", "Post", "--id", "p1"], env={"GQLC_SCHEMA": str(path)}, cwd=tmp_path)) == P1


def test_schema_flag_beats_the_environment_and_the_working_directory(server, introspection, tmp_path):
    (tmp_path / "cwd").mkdir()
    outputs_file(tmp_path / "cwd" / "amplify_outputs.json", introspection, closed_port_url(), "da2-wrong")
    good = outputs_file(tmp_path / "good.json", introspection, server.url, KEY)
    env = {"GQLC_SCHEMA": str(tmp_path / "missing.json")}
    assert title(run_gqlc(["--schema", good, "get", "Post", "--id", "p1"], env=env, cwd=tmp_path / "cwd")) == P1


def test_environment_schema_beats_the_working_directory(server, introspection, tmp_path):
    (tmp_path / "cwd").mkdir()
    outputs_file(tmp_path / "cwd" / "amplify_outputs.json", introspection, closed_port_url(), "da2-wrong")
    good = outputs_file(tmp_path / "good.json", introspection, server.url, KEY)
    assert title(run_gqlc(["get", "Post", "--id", "p1"], env={"GQLC_SCHEMA": str(good)}, cwd=tmp_path / "cwd")) == P1


# MARK: - Endpoint and key precedence

def test_environment_endpoint_and_key_beat_the_file(server, introspection, tmp_path):
    path = outputs_file(tmp_path / "amplify_outputs.json", introspection, closed_port_url(), "da2-wrong")
    env = {"GQLC_ENDPOINT": server.url, "GQLC_API_KEY": KEY}
    assert title(run_gqlc(["--schema", path, "get", "Post", "--id", "p1"], env=env)) == P1


def test_flags_beat_the_environment(server, introspection, tmp_path):
    path = outputs_file(tmp_path / "amplify_outputs.json", introspection, closed_port_url(), "da2-wrong")
    env = {"GQLC_ENDPOINT": closed_port_url(), "GQLC_API_KEY": "da2-also-wrong"}
    run = run_gqlc(["--schema", path, "--endpoint", server.url, "--api-key", KEY, "get", "Post", "--id", "p1"], env=env)
    assert title(run) == P1


def test_the_files_key_is_used_with_an_endpoint_from_the_environment(server, introspection, tmp_path):
    path = outputs_file(tmp_path / "amplify_outputs.json", introspection, closed_port_url(), KEY)
    assert title(run_gqlc(["--schema", path, "get", "Post", "--id", "p1"], env={"GQLC_ENDPOINT": server.url})) == P1


def test_a_wrong_key_from_the_file_is_401(server, introspection, tmp_path):
    path = outputs_file(tmp_path / "amplify_outputs.json", introspection, server.url, "da2-wrong")
    run = run_gqlc(["--schema", path, "get", "Post", "--id", "p1"])
    assert (run.code, run.stdout) == (5, "") and "HTTP 401" in run.stderr and "da2-wrong" not in run.stderr, run


def test_empty_environment_variables_count_as_unset(server, introspection, tmp_path):
    path = outputs_file(tmp_path / "amplify_outputs.json", introspection, server.url, KEY)
    env = {"GQLC_ENDPOINT": "", "GQLC_API_KEY": "", "GQLC_SCHEMA": ""}
    assert title(run_gqlc(["get", "Post", "--id", "p1"], env=env, cwd=tmp_path)) == P1


def test_invalid_environment_endpoint_names_the_variable(schema_examples_dir):
    run = run_gqlc(["--schema", schema_examples_dir / "blog.json", "list", "Post"], env={"GQLC_ENDPOINT": "localhost:20002"})
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == ("gqlc: invalid endpoint 'localhost:20002' from $GQLC_ENDPOINT: "
                          "expected an http:// or https:// URL; did you mean 'http://localhost:20002'?\n")


# MARK: - Nothing configured

def test_no_endpoint_anywhere_says_where_gqlc_looked(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    run = run_gqlc(["--schema", schema, "get", "Post", "--id", "p1"])
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == (f"gqlc: no endpoint: looked in --endpoint, $GQLC_ENDPOINT and {schema} (it has no endpoint); "
                          "pass --endpoint URL or set GQLC_ENDPOINT\n")


def test_no_schema_anywhere_says_where_gqlc_looked(tmp_path):
    run = run_gqlc(["list", "Post"], cwd=tmp_path)
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == (f"gqlc: no model schema: no amplify_outputs.json or amplify/backend/api/<name>/schema.graphql (or schema/) "
                          f"in {os.path.realpath(tmp_path)} or its parents; pass --schema FILE or set GQLC_SCHEMA "
                          "(model-introspection JSON, amplify_outputs.json, amplifyconfiguration.json, schema.graphql, "
                          "a schema/ folder or aws-exports.js), or run gqlc schema pull --endpoint URL\n")


# MARK: - Finding the schema

def test_amplify_outputs_is_found_in_a_parent_directory_and_named_under_verbose(tmp_path, introspection, server):
    project = tmp_path / "app"
    deep = project / "src" / "components"
    deep.mkdir(parents=True)
    path = outputs_file(project / "amplify_outputs.json", introspection, server.url, KEY)
    run = run_gqlc(["--verbose", "get", "Post", "--id", "p1"], cwd=deep)
    assert title(run) == P1
    assert run.stderr_lines[0] == f"* schema: {os.path.realpath(path)} (the nearest amplify_outputs.json from the working directory)"
    # The nearest file wins, as git finds the nearest .git.
    outputs_file(project / "src" / "amplify_outputs.json", introspection, closed_port_url(), KEY)
    nearer = run_gqlc(["--verbose", "--dry-run", "get", "Post", "--id", "p1"], cwd=deep)
    assert nearer.code == 0, nearer
    assert nearer.stderr_lines[0].startswith(f"* schema: {os.path.realpath(project / 'src' / 'amplify_outputs.json')} ")


def test_verbose_names_a_schema_given_by_flag_or_environment(schema_examples_dir):
    schema = str(schema_examples_dir / "blog.json")
    flag = run_gqlc(["--verbose", "--schema", schema, "--dry-run", "get", "Post", "--id", "p1"])
    assert flag.code == 0 and flag.stderr_lines[0] == f"* schema: {schema} (--schema)", flag
    env = run_gqlc(["--verbose", "--dry-run", "get", "Post", "--id", "p1"], env={"GQLC_SCHEMA": schema})
    assert env.code == 0 and env.stderr_lines[0] == f"* schema: {schema} ($GQLC_SCHEMA)", env


READS = ("gqlc reads amplify_outputs.json (Gen 2: npx ampx generate outputs), a legacy amplifyconfiguration.json, model-introspection.json (Gen 2: "
         "npx ampx generate graphql-client-code --format introspection; Gen 1: amplify codegen model-introspection), "
         "the @model schema.graphql (or its schema/ folder), or aws-exports.js")


@pytest.mark.parametrize("name, text, kind", [
    ("amplifyconfiguration.dart", "const amplifyconfig = \'\'\'{\n  \"UserAgent\": \"aws-amplify-cli/2.0\"\n}\'\'\';\n",
     "a Dart file (such as amplifyconfiguration.dart), not JSON"),
    ("amplify_outputs.ts", "export default {};\n", "a TypeScript file (Gen 2's amplify/data/resource.ts is code gqlc does not run), not JSON"),
    ("config.json", "// generated\nexport const config = {};\n", "looks like source code (such as aws-exports.js), not JSON"),
], ids=["amplifyconfiguration.dart", "amplify_outputs.ts", "source-named-json"])
def test_files_gqlc_cannot_read_say_what_it_reads_instead(tmp_path, name, text, kind):
    path = tmp_path / name
    path.write_text(text)
    run = run_gqlc(["--schema", path, "models"])
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == [f"gqlc: {path}: {kind}; {READS}"]


def test_a_json_file_with_a_js_name_is_still_read(tmp_path, introspection):
    path = tmp_path / "schema.js"
    path.write_text(json.dumps(introspection))
    run = run_gqlc(["--schema", path, "models"])
    assert run.code == 0 and "Post" in run.stdout, run


def test_dry_run_needs_no_endpoint(schema_examples_dir):
    run = run_gqlc(["--schema", schema_examples_dir / "blog.json", "--dry-run", "get", "Post", "--id", "p1"])
    assert run.code == 0 and run.json()["variables"] == {"id": "p1"}, run


# MARK: - What is sent

@pytest.fixture
def recording(start_appsync, schema_examples_dir) -> ServerHandle:
    """A seeded blog server (no auth) that records the requests it receives."""
    return start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                         record_requests=True)


def sent_headers(server: ServerHandle, schema, *args, env=None) -> dict[str, str]:
    run = run_gqlc(["--schema", schema, "--endpoint", server.url, *args, "get", "Post", "--id", "p1"], env=env)
    assert run.code == 0, run
    assert run.json()["id"] == "p1"
    return server.headers()


def test_headers_given_with_h_are_sent(schema_examples_dir, recording):
    headers = sent_headers(recording, schema_examples_dir / "blog.json", "-H", "X-Trace-Id: abc-123",
                           "--header", "X-Tenant:  acme ", "--api-key", KEY)
    assert headers["x-trace-id"] == "abc-123"
    assert headers["x-tenant"] == "acme"
    assert headers["x-api-key"] == KEY
    assert headers["content-type"] == "application/json"
    [request] = recording.requests()
    assert request["method"] == "POST" and request["path"] == "/graphql"
    assert json.loads(request["body"])["variables"] == {"id": "p1"}


def test_auth_token_is_sent_as_given_without_bearer(schema_examples_dir, recording):
    headers = sent_headers(recording, schema_examples_dir / "blog.json", "--auth-token", "eyJraWQiOiJ0ZXN0In0.payload.sig")
    assert headers["authorization"] == "eyJraWQiOiJ0ZXN0In0.payload.sig"
    assert "x-api-key" not in headers


def test_auth_token_from_the_environment_replaces_the_files_api_key(introspection, tmp_path, recording):
    path = outputs_file(tmp_path / "amplify_outputs.json", introspection, recording.url, KEY)
    run = run_gqlc(["--schema", path, "get", "Post", "--id", "p1"], env={"GQLC_AUTH_TOKEN": "token-from-env"})
    assert run.code == 0, run
    headers = recording.headers()
    assert headers["authorization"] == "token-from-env"
    assert "x-api-key" not in headers


def test_auth_token_flag_beats_the_environment(schema_examples_dir, recording):
    headers = sent_headers(recording, schema_examples_dir / "blog.json", "--auth-token", "from-flag",
                           env={"GQLC_AUTH_TOKEN": "from-env"})
    assert headers["authorization"] == "from-flag"


def test_api_key_from_the_environment_is_sent(schema_examples_dir, recording):
    headers = sent_headers(recording, schema_examples_dir / "blog.json", env={"GQLC_API_KEY": "da2-from-env"})
    assert headers["x-api-key"] == "da2-from-env" and "authorization" not in headers


@pytest.mark.parametrize("header", ["no colon here", ": empty name", "Bad Name: x"])
def test_malformed_header_is_a_usage_error(schema_examples_dir, header):
    run = run_gqlc(["--schema", schema_examples_dir / "blog.json", "--endpoint", closed_port_url(), "-H", header,
                    "get", "Post", "--id", "p1"])
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr.startswith("gqlc: ") and len(run.stderr_lines) == 1
