"""A long listing that stops early (a fault with no retries left, or Ctrl-C) prints what it has as valid JSON,
says ``next token: T`` on stderr, and a second run with ``--next-token T`` prints the rest: together, the
two outputs are the full list, with no item lost or repeated, in the same order.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess

import pytest

from gqlc_runner import GQLC_BIN, gqlc_env


def seed_posts(path, count: int) -> list[str]:
    """Writes a seed file with ``count`` posts and returns their ids in insertion (Scan) order."""
    ids = [f"post-{i:05d}" for i in range(count)]
    posts = [{"id": post_id, "blogId": "blog-bulk", "title": f"Bulk post {i}", "views": i} for i, post_id in enumerate(ids)]
    path.write_text(json.dumps({"Blog": [{"id": "blog-bulk", "name": "Bulk"}], "Post": posts}))
    return ids


def next_token(stderr: str) -> str:
    [token] = [line.removeprefix("next token: ") for line in stderr.splitlines() if line.startswith("next token: ")]
    return token


@pytest.fixture
def bulk(start_appsync, schema_examples_dir, tmp_path):
    """``bulk(count, *flags)``: a server holding ``count`` posts; returns (server, ids)."""
    def start(count, *flags):
        ids = seed_posts(tmp_path / "seed.json", count)
        return start_appsync(schema_examples_dir / "blog.json", seed=tmp_path / "seed.json", args=flags), ids
    return start


@pytest.fixture
def gqlc_at(gqlc, schema_examples_dir):
    def run(server, *args):
        return gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, *args)
    return run


@pytest.mark.parametrize("fault, message", [
    ("--fail-every", "HTTP 500 Internal Server Error: InternalFailure: An internal failure occurred (injected fault)."),
    ("--throttle-every", "HTTP 429 Too Many Requests: TooManyRequestsException: Rate exceeded; "
                         "the API is throttling requests; retry later or raise --retries"),
], ids=["500", "429"])
def test_a_listing_cut_by_a_fault_resumes_from_the_printed_token(bulk, gqlc_at, fault, message):
    server, ids = bulk(3000, fault, "7")
    first = gqlc_at(server, "--retries", "0", "list", "Post", "--page-size", "100")
    assert first.code == 5, first
    printed = [item["id"] for item in first.json()]  # valid JSON: the array was closed
    assert printed == ids[:600]  # pages 1-6 are requests 1-6; request 7 failed
    token = next_token(first.stderr)
    assert first.stderr_lines == [f"gqlc: {message}", f"next token: {token}"]

    # The same server (tokens are bound to it) keeps failing every 7th request: the default retries absorb it.
    rest = gqlc_at(server, "--output", "ndjson", "list", "Post", "--page-size", "100", "--next-token", token)
    assert rest.code == 0, rest
    assert rest.stderr == ""
    resumed = [item["id"] for item in rest.ndjson()]
    assert printed + resumed == ids


def read_stderr_until(process: subprocess.Popen, done) -> list[str]:
    """Reads ``--verbose`` trace lines from the running gqlc until ``done(lines)``: the event to act on."""
    lines: list[str] = []
    while not done(lines):
        line = process.stderr.readline()
        assert line, f"gqlc ended before the awaited event; stderr so far: {lines}"
        lines.append(line.decode().rstrip("\n"))
    return lines


def test_ctrl_c_closes_the_array_and_prints_where_to_resume(bulk, gqlc_at, schema_examples_dir):
    server, ids = bulk(300, "--latency-ms", "150")
    command = [str(GQLC_BIN), "--schema", str(schema_examples_dir / "blog.json"), "--endpoint", server.url,
               "--verbose", "list", "Post", "--page-size", "20"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=gqlc_env())
    # Two pages answered and the third one asked for: interrupt while it is in flight.
    traced = read_stderr_until(process, lambda lines: sum(line.startswith("> POST ") for line in lines) == 3)
    process.send_signal(signal.SIGINT)
    stdout, rest_of_stderr = process.communicate(timeout=60)
    assert process.returncode == 130, rest_of_stderr
    printed = [item["id"] for item in json.loads(stdout)]  # valid JSON: the array was closed
    assert 40 <= len(printed) < 300 and len(printed) % 20 == 0
    assert printed == ids[:len(printed)]
    stderr = traced + rest_of_stderr.decode().splitlines()
    messages = [line for line in stderr if line.startswith(("gqlc: ", "next token: "))]
    assert messages[0] == f"gqlc: interrupted after {len(printed)} items"
    token = next_token("\n".join(messages))

    rest = gqlc_at(server, "list", "Post", "--page-size", "100", "--next-token", token)
    assert rest.code == 0, rest
    assert printed + [item["id"] for item in rest.json()] == ids


def test_ctrl_c_during_a_retry_wait_stops_at_once(bulk, schema_examples_dir):
    # The longest Retry-After gqlc honours (60 s): the run ends only if Ctrl-C cuts the wait short.
    server, _ = bulk(10, "--throttle-every", "1", "--retry-after", "60")
    command = [str(GQLC_BIN), "--schema", str(schema_examples_dir / "blog.json"), "--endpoint", server.url,
               "--verbose", "list", "Post"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=gqlc_env())
    traced = read_stderr_until(process, lambda lines: any(line.startswith("* retry 1/") for line in lines))
    assert traced[-1].endswith("waiting 60000 ms"), traced[-1]
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=45)
    assert process.returncode == 130, stderr
    assert [line for line in stderr.decode().splitlines() if line.startswith("gqlc: ")] == \
        ["gqlc: interrupted after 0 items"]
    assert stdout == b""  # no page was received: nothing, not a valid "no records"
