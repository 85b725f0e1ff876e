"""Every exit status of gqlc, provoked for real: the local server (with canned replies where an endpoint or a
proxy misbehaves), a static file server, closed ports, slow servers.

0 success · 1 GraphQL errors and no data · 2 usage or input error · 3 partial data · 4 not found ·
5 HTTP error status or a non-GraphQL response · 6 network failure or timeout. 7 (output could not be written) and
141 (SIGPIPE: stdout's reader went away) are provoked in test_output_faults.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from gqlc_runner import closed_port_url, runner_for
from harness import clean_env, start_server

API_KEY = "da2-local-key"


@pytest.fixture
def replying(start_appsync, schema_examples_dir, tmp_path, blog_schema):
    """``replying(status, content_type, body)``: gqlc on the blog schema against a server that answers every
    request with that reply (and records the requests: ``.server``)."""
    def start(status: int, content_type: str, body: str):
        (tmp_path / "reply").write_text(body)
        server = start_appsync(schema_examples_dir / "blog.json", record_requests=True, args=(
            "--reply-status", str(status), "--reply-content-type", content_type, "--reply-body", str(tmp_path / "reply")))
        run = runner_for(blog_schema, server.url)
        run.server = server
        return run
    return start


@pytest.fixture(scope="module")
def keyed(schema_examples_dir):
    """A seeded blog server that wants an API key; gqlc gets the right key unless a test overrides it."""
    with start_server(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                      api_key=API_KEY) as server:
        run = runner_for(schema_examples_dir / "blog.json", server.url)

        def with_key(*args, **options):
            return run("--api-key", API_KEY, *args, **options)
        with_key.without_key = run
        with_key.url = server.url
        with_key.schema = schema_examples_dir / "blog.json"
        yield with_key


@pytest.fixture(scope="module")
def broken(schema_examples_dir, tmp_path_factory):
    """Stored records that break the schema (seeds are not type-checked): a post without its required title,
    a comment without its required content. Reading them gives AppSync-style partial data."""
    seed = {
        "Post": [{"id": "good", "title": "Fine"}, {"id": "untitled"}],
        "Comment": [{"id": "ok", "postId": "good", "content": "fine"}, {"id": "empty", "postId": "good"},
                    {"id": "ok2", "postId": "good", "content": "also fine"}],
    }
    path = tmp_path_factory.mktemp("broken") / "seed.json"
    path.write_text(json.dumps(seed))
    with start_server(schema_examples_dir / "blog.json", seed=path) as server:
        yield runner_for(schema_examples_dir / "blog.json", server.url)


@pytest.fixture
def blog_schema(schema_examples_dir):
    return schema_examples_dir / "blog.json"


# MARK: - 0

def test_0_success(keyed):
    run = keyed("get", "Post", "--id", "p1")
    assert (run.code, run.stderr) == (0, "") and run.json()["id"] == "p1"


# MARK: - 1: GraphQL errors and no data

def test_1_failed_condition(keyed):
    run = keyed("update", "Post", "--id", "p1", "title=x", "--if", "status=DRAFT")
    assert (run.code, run.stdout) == (1, "")
    assert run.stderr.startswith("gqlc: DynamoDB:ConditionalCheckFailedException: ")


def test_1_invalid_pagination_token(keyed):
    run = keyed("list", "Post", "--next-token", "forged")
    assert run.code == 1 and "Invalid pagination token" in run.stderr, run


def test_1_variables_the_server_rejects(keyed):
    # gqlc refuses a create without its required fields itself (status 2); a hand-written document is the
    # server's to refuse.
    run = keyed("raw", "-", "--var", 'i:={"author": "nobody"}',
                stdin="mutation M($i: CreateCommentInput!) { createComment(input: $i) { id } }")
    assert (run.code, run.stdout) == (1, ""), run
    assert "content" in run.stderr and "String!" in run.stderr


def test_1_with_raw_response_still_prints_the_envelope(keyed):
    run = keyed("--raw-response", "update", "Post", "--id", "p1", "title=x", "--if", "status=DRAFT")
    assert run.code == 1, run
    envelope = run.json()
    assert envelope["data"] == {"updatePost": None}
    assert envelope["errors"][0]["errorType"] == "DynamoDB:ConditionalCheckFailedException"


# MARK: - 2: usage or input errors

@pytest.mark.parametrize("args, message", [
    (["get", "Post", "--id", "p1", "--bogus"], "gqlc: unknown option '--bogus'"),
    (["lsit", "Post"], "gqlc: unknown command 'lsit'; did you mean 'list'?"),
    (["get", "Psot", "--id", "p1"], "gqlc: unknown model 'Psot'; did you mean 'Post'?"),
    (["list", "Post", "--where", "titel=x"], "gqlc: --where 'titel=x': unknown field 'titel' on Post; did you mean 'title'?"),
    (["list", "Post", "--where", "rating>>4"], "gqlc: --where 'rating>>4': '>4' is not an Int"),
    (["--timeout", "0", "get", "Post", "--id", "p1"], "gqlc: "),
    (["--retries", "-1", "get", "Post", "--id", "p1"], "gqlc: "),
])
def test_2_usage_errors(keyed, args, message):
    run = keyed(*args)
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr.startswith(message) and len(run.stderr_lines) == 1, run


def test_2_endpoint_that_is_not_http(keyed):
    run = runner_for(keyed.schema, "ftp://example.com/graphql")("get", "Post", "--id", "p1")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == ("gqlc: invalid endpoint 'ftp://example.com/graphql' from '--endpoint': "
                          "expected an http:// or https:// URL\n")


def test_2_malformed_schema_file_names_the_file_and_position(keyed, tmp_path):
    schema = tmp_path / "broken.json"
    schema.write_text('{"models": {\n  "Post": }\n')
    run = runner_for(schema, keyed.url, "--api-key", API_KEY)("get", "Post", "--id", "p1")
    assert (run.code, run.stdout) == (2, ""), run
    assert str(schema) in run.stderr and "2:" in run.stderr and len(run.stderr_lines) == 1


def test_2_schema_file_that_is_not_a_schema(keyed, tmp_path):
    schema = tmp_path / "other.json"
    schema.write_text('{"hello": "world"}')
    run = runner_for(schema, keyed.url, "--api-key", API_KEY)("list", "Post")
    assert (run.code, run.stdout) == (2, ""), run
    assert str(schema) in run.stderr


def test_2_missing_schema_file(keyed, tmp_path):
    run = runner_for(tmp_path / "nope.json", keyed.url, "--api-key", API_KEY)("list", "Post")
    assert (run.code, run.stdout) == (2, "") and "nope.json" in run.stderr, run


def test_2_bad_input_file(keyed, tmp_path):
    path = tmp_path / "input.json"
    path.write_text('{"title": ')
    run = keyed("create", "Post", "--input", path)
    assert (run.code, run.stdout) == (2, "") and str(path) in run.stderr and "invalid JSON" in run.stderr, run


def test_2_is_reported_before_anything_is_sent(blog_schema):
    # Nothing listens at the endpoint: the usage error must be found without contacting it (else it would be 6).
    run = runner_for(blog_schema, closed_port_url())("list", "Post", "--where", "nope=1")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == "gqlc: --where 'nope=1': unknown field 'nope' on Post\n"


# MARK: - 3: partial data

def test_3_list_with_a_broken_item_prints_the_data_and_the_errors(broken):
    run = broken("list", "Post")
    assert run.code == 3, run
    items = run.json()
    assert items[0]["id"] == "good" and items[1] is None
    assert run.stderr == "gqlc: Cannot return null for non-nullable field Post.title. (path: listPosts.items[1].title)\n"


def test_3_get_with_an_included_list_that_has_a_broken_child(broken):
    run = broken("get", "Post", "--id", "good", "--include", "comments")
    assert run.code == 3, run
    items = run.json()["comments"]["items"]
    assert [item and item["id"] for item in items] == ["ok", None, "ok2"]
    assert run.stderr_lines == [
        "gqlc: Cannot return null for non-nullable field Comment.content. (path: getPost.comments.items[1].content)"]


def test_3_partial_page_stops_the_listing_after_printing_it(broken):
    run = broken("list", "Comment", "--page-size", "2", "--output", "ndjson")
    assert run.code == 3, run
    assert run.stdout.splitlines() == ['{"id":"ok","author":null,"content":"fine","createdAt":'
                                       + json.dumps(json.loads(run.stdout.splitlines()[0])["createdAt"])
                                       + ',"likes":null,"postId":"good","updatedAt":'
                                       + json.dumps(json.loads(run.stdout.splitlines()[0])["updatedAt"])
                                       + ',"post":{"id":"good","__typename":"Post"},"__typename":"Comment"}', "null"]
    # It says where to resume: the rest of the list is one token away.
    assert run.stderr_lines[0].startswith("gqlc: Cannot return null for non-nullable field Comment.content.")
    assert run.stderr_lines[-1].startswith("next token: ")


def test_1_when_the_only_record_is_broken(broken):
    run = broken("get", "Post", "--id", "untitled")
    assert (run.code, run.stdout) == (1, ""), run
    assert run.stderr == "gqlc: Cannot return null for non-nullable field Post.title. (path: getPost.title)\n"


# MARK: - 4: not found

def test_4_not_found(keyed):
    run = keyed("get", "Post", "--id", "missing")
    assert (run.code, run.stdout, run.stderr) == (4, "", "gqlc: no Post with key 'missing'\n")


@pytest.mark.parametrize("args, root", [
    (["update", "Post", "--id", "p1", "title=x"], "updatePost"),
    (["delete", "Post", "--id", "p1"], "deletePost"),
])
def test_4_update_or_delete_that_returns_null_without_errors(replying, args, root):
    """AppSync itself answers a missing record with a failed condition (1); a resolver that returns null is 4."""
    run = replying(200, "application/json", json.dumps({"data": {root: None}}))(*args)
    assert (run.code, run.stdout, run.stderr) == (4, "", "gqlc: no Post with key 'p1'\n")


# MARK: - 5: HTTP errors and responses that are not GraphQL

def test_5_wrong_api_key(keyed):
    run = keyed.without_key("--api-key", "da2-wrong", "get", "Post", "--id", "p1")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr == ("gqlc: HTTP 401 Unauthorized: UnauthorizedException: You are not authorized to make this call.;"
                          " check the API key or token (--api-key, --auth-token) and the API's auth mode\n")
    assert "da2-wrong" not in run.stderr


def test_5_no_api_key(keyed):
    run = keyed.without_key("list", "Post")
    # A listing opens its JSON array at once and closes it whatever happens, so stdout stays valid JSON.
    assert (run.code, run.stdout) == (5, ""), run  # no page: nothing, not a valid "no records"
    assert run.stderr.startswith("gqlc: HTTP 401 Unauthorized: UnauthorizedException: Valid authorization header not provided.")


def test_5_wrong_path_is_404(keyed):
    run = runner_for(keyed.schema, keyed.url.replace("/graphql", "/graphq"), "--api-key", API_KEY)("get", "Post", "--id", "p1")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr.startswith("gqlc: HTTP 404 Not Found: ") and run.stderr.endswith("; check the endpoint URL\n")


def test_5_bad_request_with_an_appsync_error_body(replying):
    body = json.dumps({"errors": [{"errorType": "MalformedHttpRequestException", "message": "Unable to parse GraphQL query."}]})
    gqlc = replying(400, "application/json", body)
    run = gqlc("get", "Post", "--id", "p1")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr == "gqlc: HTTP 400 Bad Request: MalformedHttpRequestException: Unable to parse GraphQL query.\n"
    assert len(gqlc.server.requests()) == 1, "a 400 is not retried"


def test_5_static_file_server_that_refuses_post(blog_schema, tmp_path):
    (tmp_path / "index.html").write_text("<html><head><title>Docs</title></head><body>hello</body></html>")
    process = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory",
                                str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=clean_env())
    try:
        line = process.stdout.readline().decode()
        port = int(line.split(" port ")[1].split()[0])
        run = runner_for(blog_schema, f"http://127.0.0.1:{port}/index.html")("--retries", "0", "get", "Post", "--id", "p1")
    finally:
        process.terminate()
        process.wait(timeout=5)
        process.stdout.close()
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr == "gqlc: HTTP 501: Error response\n"


def test_5_html_page_with_status_200(replying):
    page = "<!DOCTYPE html><html><head><title>Sign in - Corporate Proxy</title></head><body>Please sign in</body></html>"
    run = replying(200, "text/html", page)("get", "Post", "--id", "p1")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr.startswith("gqlc: the server answered HTTP 200 with a body that is not JSON (at 1:1")
    assert run.stderr.endswith(": Sign in - Corporate Proxy\n")


def test_5_json_that_is_not_a_graphql_response(replying):
    run = replying(200, "application/json", '{"status": "ok"}')("list", "Post")
    assert run.code == 5, run
    assert run.stderr.startswith("gqlc: the response is not a GraphQL response: "), run


def test_5_server_error_is_retried_then_reported(replying):
    gqlc = replying(503, "text/plain", "Service Unavailable")
    run = gqlc("--retries", "1", "get", "Post", "--id", "p1")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr == "gqlc: HTTP 503 Service Unavailable (after 2 attempts)\n"
    assert len(gqlc.server.requests()) == 2


# MARK: - 6: network failures and timeouts

def test_6_connection_refused(blog_schema):
    run = runner_for(blog_schema, closed_port_url())("--retries", "0", "get", "Post", "--id", "p1")
    assert (run.code, run.stdout) == (6, ""), run
    assert run.stderr.startswith("gqlc: network error: ") and len(run.stderr_lines) == 1


def test_6_connection_refused_after_retries(blog_schema):
    run = runner_for(blog_schema, closed_port_url())("--retries", "2", "list", "Post")
    assert (run.code, run.stdout) == (6, ""), run  # no page: nothing, not a valid "no records"
    assert run.stderr.startswith("gqlc: network error: ") and run.stderr.endswith("(after 3 attempts)\n")


@pytest.fixture(scope="module")
def slow(schema_examples_dir):
    """Answers every request after 20 s, later than any timeout here: each run ends by its own timeout, and how
    long it waited is checked from below (a busy machine can only make it longer), never raced by an answer."""
    with start_server(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                      args=("--latency-ms", "20000")) as server:
        yield runner_for(schema_examples_dir / "blog.json", server.url)


@pytest.mark.parametrize("timeout", ["0.5", "0.8", "1.9"])
def test_6_timeout(slow, timeout):
    """0.8 is a regression: Foundation on Linux truncated timeouts to whole seconds, so --timeout 0.8 gave up at
    once; 1.9 cut to whole seconds would give up after 1 s."""
    started = time.monotonic()
    run = slow("--timeout", timeout, "--retries", "0", "get", "Post", "--id", "p1")
    elapsed = time.monotonic() - started
    assert (run.code, run.stdout) == (6, ""), run
    assert run.stderr == f"gqlc: no response within {timeout} s; raise it with --timeout SECONDS\n"
    assert elapsed >= float(timeout) - 0.05, f"gave up after {elapsed:.2f} s, before the timeout"
