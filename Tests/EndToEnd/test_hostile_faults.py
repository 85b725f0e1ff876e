"""Issue 22: gqlc against hostile schemas and hostile servers (DevServers/HostileServers/hostile-server, loopback only,
bounded in time). Each test names the fault; docs/faults.md lists them with their outcome."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import harness
import pytest

SERVER = harness.REPO_ROOT / "DevServers" / "HostileServers" / "hostile-server"
INJECTION = 'title } evil: deletePost(input: {id: "p2"}) { id'


@pytest.fixture(scope="module")
def hostile():
    """The hostile server's base URL (``http://127.0.0.1:PORT``); it exits by itself after 10 minutes anyway."""
    process = subprocess.Popen([sys.executable, str(SERVER), "--port", "0", "--lifetime", "600"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        yield harness.read_url_line(process, 20)
    finally:
        process.terminate()
        process.wait(timeout=10)


def count(base: str, mode: str) -> int:
    with urllib.request.urlopen(f"{base}/count/{mode}", timeout=10) as response:
        return int(response.read())


@pytest.fixture
def blog_schema(schema_examples_dir) -> dict:
    return json.loads((schema_examples_dir / "blog.json").read_text())


def against(gqlc, schema_examples_dir, base: str, mode: str, *args, timeout=60):
    return gqlc("--schema", str(schema_examples_dir / "blog.json"), "--endpoint", f"{base}/{mode}", "--api-key", "k",
                *args, timeout=timeout)


# --- 1. Names from the schema ------------------------------------------------------------------------------


def test_injected_field_name_in_model_introspection_is_refused_with_its_json_path(gqlc, tmp_path, blog_schema):
    schema = copy.deepcopy(blog_schema)
    fields = schema["models"]["Post"]["fields"]
    fields["title"]["name"] = INJECTION
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(schema))
    run = gqlc("--schema", str(path), "--endpoint", "http://127.0.0.1:9/graphql", "--api-key", "k",
               "update", "Post", "--id", "p1", "views=1")
    assert run.code == 2 and run.stdout == "", run
    assert len(run.stderr_lines) == 1, run
    assert run.stderr.startswith(f"gqlc: {path}: models.Post.fields.title.name: ") and "is not a GraphQL name" in run.stderr, run


def test_control_characters_in_an_enum_value_never_reach_the_terminal(gqlc, tmp_path, blog_schema):
    schema = copy.deepcopy(blog_schema)
    schema["enums"]["PostStatus"]["values"].append("RED\u001b[31mALERT\u0007")
    path = tmp_path / "escape.json"
    path.write_text(json.dumps(schema))
    run = gqlc("--schema", str(path), "models")
    assert run.code == 2 and run.stdout == "", run
    assert "\u001b" not in run.stderr and "\u0007" not in run.stderr and len(run.stderr_lines) == 1, run
    assert "enums.PostStatus.values[" in run.stderr and "\\u001b" in run.stderr, run


def test_a_discovered_amplify_outputs_with_a_bad_model_name_is_refused(gqlc, tmp_path, blog_schema):
    schema = copy.deepcopy(blog_schema)
    schema["models"]["Post"]["name"] = "Post { evil }"
    (tmp_path / "amplify_outputs.json").write_text(json.dumps(
        {"version": "1.3", "data": {"url": "http://127.0.0.1:9/graphql", "aws_region": "us-east-1",
                                    "default_authorization_type": "API_KEY", "api_key": "k",
                                    "authorization_types": [], "model_introspection": schema}}))
    inner = tmp_path / "src" / "deep"
    inner.mkdir(parents=True)
    run = gqlc("models", cwd=str(inner))
    assert run.code == 2 and len(run.stderr_lines) == 1, run
    assert "data.model_introspection.models.Post.name: \"Post { evil }\" is not a GraphQL name" in run.stderr, run


def test_an_index_name_in_sdl_that_is_not_a_name_is_refused_at_its_line(gqlc, tmp_path):
    path = tmp_path / "schema.graphql"
    path.write_text('type Post @model {\n  id: ID!\n  title: String @index(name: "byTitle", queryField: "byTitle) { id } x: listPosts(")\n}\n')
    run = gqlc("--schema", str(path), "models")
    assert run.code == 2 and len(run.stderr_lines) == 1, run
    assert f"{path}: 3:17: @index(queryField:) " in run.stderr and "is not a GraphQL name" in run.stderr, run


def test_schema_pull_from_a_server_with_an_injected_field_name_is_refused(gqlc, hostile, tmp_path):
    out = tmp_path / "pulled.json"
    run = gqlc("--endpoint", f"{hostile}/bad-introspection", "--api-key", "k", "schema", "pull", "--out", str(out))
    assert run.code == 5 and not out.exists() and len(run.stderr_lines) == 1, run
    assert "__schema.types[0].fields[0].name" in run.stderr and "is not a GraphQL name" in run.stderr, run


# --- 3. Deadlines ----------------------------------------------------------------------------------------------


def test_a_huge_connection_timeout_in_connection_ack_does_not_crash_subscribe(gqlc, schema_examples_dir, hostile):
    port = hostile.rsplit(":", 1)[1]
    run = against(gqlc, schema_examples_dir, hostile, "ok", "subscribe", "Post", "--on", "create", "--count", "2",
                  "--realtime-endpoint", f"ws://127.0.0.1:{port}/realtime/huge-ack")
    assert run.code == 0 and run.ndjson() == [{"id": "e0"}, {"id": "e1"}], run


@pytest.mark.parametrize("value", ["9223372036", "9999999999", "99999999999999999999"])
def test_a_huge_timeout_is_a_usage_error_naming_the_bound(gqlc, schema_examples_dir, hostile, value):
    run = against(gqlc, schema_examples_dir, hostile, "ok", "subscribe", "Post", "--on", "create", "--timeout", value)
    assert run.code == 2 and len(run.stderr_lines) == 1, run
    assert "at most 31536000 seconds" in run.stderr, run


# --- 4. Response size ------------------------------------------------------------------------------------------


def test_a_gzip_bomb_is_cut_at_the_response_limit(gqlc, schema_examples_dir, hostile):
    run = against(gqlc, schema_examples_dir, hostile, "gzip-bomb?mib=64", "--max-response-mib", "4", "get", "Post", "--id", "x")
    assert run.code == 5 and run.stdout == "" and len(run.stderr_lines) == 1, run
    assert "the response is larger than 4 MiB" in run.stderr and "--max-response-mib" in run.stderr, run


def test_a_gzip_bomb_under_a_raised_limit_is_read(gqlc, schema_examples_dir, hostile):
    run = against(gqlc, schema_examples_dir, hostile, "gzip-bomb?mib=8", "--max-response-mib", "16", "get", "Post", "--id", "x")
    assert run.code == 4 and "no Post with key 'x'" in run.stderr, run


def test_an_endless_body_is_cut_at_the_limit_and_not_retried(gqlc, schema_examples_dir, hostile):
    run = against(gqlc, schema_examples_dir, hostile, "endless?delay=0", "--max-response-mib", "2", "get", "Post", "--id", "x")
    assert run.code == 5 and "the response is larger than 2 MiB" in run.stderr, run
    assert count(hostile, "endless") == 1


def test_an_endless_slow_body_ends_at_the_timeout(gqlc, schema_examples_dir, hostile):
    started = time.monotonic()
    run = against(gqlc, schema_examples_dir, hostile, "endless?delay=0.05", "--timeout", "2", "--retries", "0",
                  "get", "Post", "--id", "x")
    assert run.code == 6 and "no response within 2 s" in run.stderr, run
    assert time.monotonic() - started < 10


def test_the_limit_option_is_checked(gqlc, schema_examples_dir, hostile):
    run = against(gqlc, schema_examples_dir, hostile, "ok", "--max-response-mib", "0", "get", "Post", "--id", "x")
    assert run.code == 2 and run.stderr_lines == [
        "gqlc: invalid value '0' for '--max-response-mib': expected a whole number of at least 1"], run


def test_a_websocket_message_over_16_mib_is_refused(gqlc, schema_examples_dir, hostile):
    port = hostile.rsplit(":", 1)[1]
    run = against(gqlc, schema_examples_dir, hostile, "ok", "subscribe", "Post", "--on", "create", "--timeout", "60",
                  "--realtime-endpoint", f"ws://127.0.0.1:{port}/realtime/huge-message")
    assert run.code == 5, run
    assert "a message is longer than the limit of 16777216 bytes" in run.stderr_lines[-1], run


# --- 10. Retry waits ----------------------------------------------------------------------------------------------


def test_a_long_retry_after_wait_is_said_on_stderr_off_a_terminal(gqlc, schema_examples_dir, hostile):
    run = against(gqlc, schema_examples_dir, hostile, "retry-after?seconds=4", "get", "Post", "--id", "x")
    assert run.code == 4, run
    assert run.stderr_lines[0] == "gqlc: HTTP 503 on attempt 1 of 4; waiting 4 s before retrying", run


# --- 11. Subscriptions -------------------------------------------------------------------------------------------


def test_a_bad_frame_after_every_start_ack_ends_subscribe_after_three(gqlc, schema_examples_dir, hostile):
    port = hostile.rsplit(":", 1)[1]
    before = count(hostile, "realtime/bad-frame")
    run = against(gqlc, schema_examples_dir, hostile, "ok", "subscribe", "Post", "--on", "create", "--timeout", "60",
                  "--realtime-endpoint", f"ws://127.0.0.1:{port}/realtime/bad-frame")
    assert run.code == 5, run
    assert run.stderr_lines[-1].startswith("gqlc: gave up after 3 protocol errors from the real-time server: "), run
    assert count(hostile, "realtime/bad-frame") - before == 3


def test_a_server_complete_ends_subscribe_with_a_word(gqlc, schema_examples_dir, hostile):
    port = hostile.rsplit(":", 1)[1]
    run = against(gqlc, schema_examples_dir, hostile, "ok", "subscribe", "Post", "--on", "create", "--timeout", "60",
                  "--realtime-endpoint", f"ws://127.0.0.1:{port}/realtime/complete")
    assert run.code == 0, run
    assert run.stderr_lines[-1] == "gqlc: the server completed the subscription; no more events will come", run


# --- 13. Smaller ------------------------------------------------------------------------------------------------


def test_a_redirect_names_its_location(gqlc, schema_examples_dir, hostile):
    run = against(gqlc, schema_examples_dir, hostile, "redirect", "get", "Post", "--id", "x")
    assert run.code == 5 and len(run.stderr_lines) == 1, run
    assert "redirects to https://elsewhere.invalid/graphql" in run.stderr, run


@pytest.mark.parametrize("mode, words", [("bad-gzip", "unreadable response"), ("huge-headers?kib=300", "unreadable response")])
def test_non_transient_response_errors_are_not_retried(gqlc, schema_examples_dir, hostile, mode, words):
    name = mode.split("?")[0]
    before = count(hostile, name)
    run = against(gqlc, schema_examples_dir, hostile, mode, "get", "Post", "--id", "x")
    assert run.code == 5 and words in run.stderr and len(run.stderr_lines) == 1, run
    assert count(hostile, name) - before == 1


@pytest.mark.parametrize("mode, kind", [("get-array", "an array"), ("get-string", "a string")])
def test_a_get_whose_record_is_not_an_object_is_not_what_the_schema_promises(gqlc, schema_examples_dir, hostile, mode, kind):
    run = against(gqlc, schema_examples_dir, hostile, mode, "get", "Post", "--id", "x")
    assert run.code == 5 and run.stdout == "", run
    assert run.stderr_lines == [f"gqlc: the response is not what the schema promises: data.getPost is {kind}; expected an object or null"], run


def test_list_items_that_are_not_objects_are_reported_and_the_rest_printed(gqlc, schema_examples_dir, hostile):
    run = against(gqlc, schema_examples_dir, hostile, "list-not-objects", "list", "Post", "--output", "ndjson")
    assert run.code == 5 and run.ndjson() == [None, {"id": "p1"}], run
    assert "the response is not what the schema promises: data.listPosts.items[0] is a number" in run.stderr, run
