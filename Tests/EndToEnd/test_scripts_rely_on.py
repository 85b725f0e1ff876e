"""Exit codes and messages that scripts rely on (issue 9, point 4), each against appsync-local:

- only transient statuses are retried (429, 500, 502, 503, 504), not 501 or another 4xx;
- a malformed `-H` names its header and masks only the value;
- a `--next-token` the server refuses is not printed back as a resume point;
- an interrupted `--output json` listing leaves valid JSON on stdout; one that received no page prints nothing (not
  `[]`, which a script would take for "no records": issue 21, point 8);
- `update`/`delete` of a record that does not exist exits 4; with `--if`, a false condition exits 1;
- a create whose answer was lost may have been applied: gqlc says so, with its id and how to check.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess

import pytest

from gqlc_runner import GQLC_BIN, gqlc_env
from retries_support import attempts, error_lines, served

GET_POST = ("get", "Post", "--id", "p1")


@pytest.fixture
def gqlc_at(gqlc, schema_examples_dir):
    """``gqlc_at(server, *args)`` runs gqlc with ``--verbose`` against ``server``."""
    def run(server, *args, **options):
        return gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, *args, **options)
    return run


# Retries


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504])
def test_a_transient_status_is_retried(faulty, gqlc_at, status):
    server = faulty("--fail-every", "1", "--fail-status", str(status))
    run = gqlc_at(server, "--verbose", "--retries", "2", *GET_POST)
    assert run.code == 5, run
    assert attempts(run) == 3 and served(server, status) == 3, run


@pytest.mark.parametrize("status", [400, 403, 404, 413, 501, 505])
def test_a_final_status_is_not_retried(faulty, gqlc_at, status):
    server = faulty("--fail-every", "1", "--fail-status", str(status))
    run = gqlc_at(server, "--verbose", "--retries", "2", *GET_POST)
    assert run.code == 5, run
    assert attempts(run) == 1 and served(server, status) == 1, run
    assert len(error_lines(run)) == 1 and f"HTTP {status}" in error_lines(run)[0], run


# -H


@pytest.mark.parametrize("line, shown", [
    ("Bad Name: hunter2-value", "'Bad Name: ████'"),
    ("X-Trace-Id hunter2-value", "'X-Trace-Id ████'"),
    ("X-Trace-Id : hunter2-value", "'X-Trace-Id : ████'"),
    ("X/Id: hunter2-value", "'X/Id: ████'"),
])
def test_a_malformed_header_names_the_header_and_masks_its_value(blog, line, shown):
    run = blog("-H", line, *GET_POST)
    assert run.code == 2 and run.stdout == "", run
    assert len(run.stderr_lines) == 1 and run.stderr_lines[0].startswith(f"gqlc: malformed header {shown}: "), run
    assert "hunter2" not in run.stderr and "hunt" not in run.stderr, run


# --next-token


def test_a_refused_next_token_is_not_printed_back(blog):
    run = blog("list", "Post", "--next-token", "not-a-token-of-this-server")
    assert run.code == 1, run
    assert "not-a-token-of-this-server" not in run.stderr, run
    assert not any(line.startswith("next token:") for line in run.stderr_lines), run
    assert any("InvalidPaginationTokenException" in line for line in run.stderr_lines), run
    assert run.stderr_lines[-1] == "gqlc: hint: the server refused the first page at --next-token; check that the " \
                                   "token comes from a listing of the same model, filter and index, or start without it", run


def test_a_good_next_token_still_resumes(blog):
    first = blog("list", "Post", "--limit", "2", "--page-size", "2")
    token = first.stderr_lines[-1].removeprefix("next token: ")
    rest = blog("list", "Post", "--next-token", token)
    assert rest.code == 0, rest
    assert [p["id"] for p in first.json() + rest.json()] == [p["id"] for p in blog("list", "Post").json()]


# Valid JSON when a listing is interrupted


def test_an_error_on_the_first_page_prints_nothing(faulty, gqlc_at):
    server = faulty("--fail-every", "1")
    run = gqlc_at(server, "--retries", "0", "list", "Post")
    assert run.code == 5, run
    assert run.stdout == "", run


def test_graphql_errors_on_the_first_page_print_nothing(blog):
    run = blog("list", "Post", "--next-token", "not-a-token-of-this-server")
    assert run.code == 1, run
    assert run.stdout == "", run


def test_ndjson_prints_nothing_for_no_records(faulty, gqlc_at):
    server = faulty("--fail-every", "1")
    run = gqlc_at(server, "--retries", "0", "--output", "ndjson", "list", "Post")
    assert run.code == 5 and run.stdout == "", run


def test_ctrl_c_before_the_first_page_prints_nothing(faulty, schema_examples_dir):
    """SIGINT once gqlc has sent its first request (its --verbose trace says so) and before any answer."""
    server = faulty("--latency-ms", "60000")
    process = subprocess.Popen(
        [str(GQLC_BIN), "--schema", str(schema_examples_dir / "blog.json"), "--endpoint", server.url, "--verbose",
         "list", "Post"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=gqlc_env())
    try:
        for raw in process.stderr:
            if raw.startswith(b"> POST "):
                break
        process.send_signal(signal.SIGINT)
        stdout, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130
    assert stdout == b""


# update and delete of what is not there


@pytest.mark.parametrize("command", [("update", "Post", "--id", "nope", "title=x"), ("delete", "Post", "--id", "nope")],
                         ids=["update", "delete"])
def test_changing_a_missing_record_is_not_found(blog, command):
    run = blog(*command)
    assert run.code == 4 and run.stdout == "", run
    assert run.stderr == "gqlc: no Post with key 'nope'\n", run


@pytest.mark.parametrize("command", [("update", "Post", "--id", "nope", "title=x"), ("delete", "Post", "--id", "nope")],
                         ids=["update", "delete"])
def test_changing_a_missing_record_with_a_condition_is_not_found(blog, command):
    run = blog(*command, "--if", "status=DRAFT")
    assert run.code == 4 and run.stdout == "", run
    assert run.stderr == "gqlc: no Post with key 'nope'\n", run


@pytest.mark.parametrize("command", [("update", "Post", "--id", "p1", "title=x"), ("delete", "Post", "--id", "p1")],
                         ids=["update", "delete"])
def test_a_false_condition_exits_1_and_changes_nothing(blog, command):
    before = blog(*GET_POST).json()
    run = blog(*command, "--if", "status=DRAFT")
    assert run.code == 1 and run.stdout == "", run
    assert "ConditionalCheckFailedException" in run.stderr_lines[0], run
    assert run.stderr_lines[1:] == ["gqlc: the --if condition is false for Post with key 'p1'"], run
    assert blog(*GET_POST).json() == before


def test_a_composite_key_record_that_is_missing_is_not_found(gqlc, start_appsync, schema_examples_dir):
    schema = schema_examples_dir / "inventory.json"
    server = start_appsync(schema, seed=schema_examples_dir / "inventory-seed.json")
    run = gqlc("--schema", schema, "--endpoint", server.url, "delete", "InventoryItem", "--key", "sku=none",
               "--key", "warehouseId=w0", "--key", "bin=0", "--if", "quantity>1")
    assert run.code == 4, run
    assert run.stderr == "gqlc: no InventoryItem with key sku=none, warehouseId=w0, bin=0\n", run


# A create whose answer was lost


def _created_id(run) -> str:
    sent = [line for line in run.stderr_lines if line.startswith("gqlc: the create may have been applied")]
    assert len(sent) == 1, run
    return sent[0].split("'")[1]


def test_a_create_that_lost_its_connection_says_it_may_have_been_applied(faulty, gqlc_at):
    server = faulty("--drop-every", "1")
    run = gqlc_at(server, "create", "Post", "title=Maybe", "blogId=b1")
    assert run.code == 6 and run.stdout == "", run
    key = _created_id(run)
    assert run.stderr_lines[1:] == [
        f"gqlc: the create may have been applied before the connection failed: it was sent with id '{key}'",
        f"gqlc: check with: gqlc get Post --id {key}",
        "gqlc: hint: --retry-mutations retries a create safely: the id it was sent with cannot be created twice",
    ], run


def test_a_create_that_timed_out_says_it_may_have_been_applied(faulty, gqlc_at):
    server = faulty("--latency-ms", "3000")
    run = gqlc_at(server, "--timeout", "0.5", "create", "Post", "title=Slow", "blogId=b1")
    assert run.code == 6, run
    key = _created_id(run)
    assert f"gqlc: check with: gqlc get Post --id {key}" in run.stderr_lines, run
