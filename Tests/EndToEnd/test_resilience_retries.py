"""Queries are retried on 500, 429, dropped connections and timeouts, as the issue asks; each case runs the
built gqlc against appsync-local with its fault-injection flags.

Attempts are counted twice: from gqlc's ``--verbose`` trace (``> POST …`` per attempt, ``* retry n/N …`` per
retry) and, where the server answers, from the server's own request log (``--verbose``).

The server numbers every request (1, 2, 3, …) and injects the fault when the number is a multiple of N, so
``--fail-every 2`` fails the second request. ``burn(server)`` spends request 1 so that gqlc's first attempt is
request 2."""

from __future__ import annotations
import re
from types import SimpleNamespace
from gqlc_runner import closed_port_url
from retries_support import (  # noqa: F401 - fixtures among them
    GET_POST,
    RETRY_LINE,
    attempts,
    retries,
    served,
    burn,
    error_lines,
    gqlc_at,
    _seed_json,
)


def test_a_500_on_every_second_request_costs_one_retry(faulty, gqlc_at):
    server = faulty("--fail-every", "2")
    burn(server)
    run = gqlc_at(server, *GET_POST)
    assert run.code == 0, run
    assert run.json()["id"] == "p1"
    assert attempts(run) == 2
    assert [(n, m, reason) for n, m, reason, _ in retries(run)] == [(1, 3, "HTTP 500")]
    assert served(server, 500) == 1 and served(server, 200) == 2  # burn + the retried attempt
    assert error_lines(run) == []


def test_a_server_that_always_fails_is_tried_retries_plus_one_times(faulty, gqlc_at):
    server = faulty("--fail-every", "1")
    run = gqlc_at(server, "--retries", "2", *GET_POST)
    assert run.code == 5, run
    assert run.stdout == ""
    assert attempts(run) == 3 and served(server, 500) == 3
    assert [(n, m) for n, m, _, _ in retries(run)] == [(1, 2), (2, 2)]
    assert error_lines(run) == [
        "gqlc: HTTP 500 Internal Server Error: InternalFailure: An internal failure occurred (injected fault). "
        "(after 3 attempts)"]


def test_backoff_waits_grow_within_the_full_jitter_ceilings(faulty, gqlc_at):
    # Default policy: retry n waits uniformly in [0, 0.2 s * 2^(n-1)).
    server = faulty("--fail-every", "1")
    run = gqlc_at(server, *GET_POST)
    assert run.code == 5, run
    waits = [ms for _, _, _, ms in retries(run)]
    assert len(waits) == 3
    for n, ms in enumerate(waits, start=1):
        assert 0 <= ms <= 200 * 2 ** (n - 1), waits
    assert run.seconds >= sum(waits) / 1000 * 0.9


def test_no_retry_with_retries_zero(faulty, gqlc_at):
    server = faulty("--fail-every", "1")
    run = gqlc_at(server, "--retries", "0", *GET_POST)
    assert run.code == 5, run
    assert attempts(run) == 1 and retries(run) == [] and served(server) == 1
    assert error_lines(run) == [
        "gqlc: HTTP 500 Internal Server Error: InternalFailure: An internal failure occurred (injected fault)."]


def test_a_throttled_query_waits_for_retry_after(faulty, gqlc_at):
    server = faulty("--throttle-every", "2", "--retry-after", "1")
    burn(server)
    run = gqlc_at(server, *GET_POST)
    assert run.code == 0, run
    assert attempts(run) == 2 and served(server, 429) == 1
    assert retries(run) == [(1, 3, "HTTP 429 (throttled)", 1000)]
    assert "< Retry-After: 1" in run.stderr_lines
    assert run.seconds >= 0.9


def test_throttling_that_never_ends_exits_5_with_a_hint(faulty, gqlc_at):
    server = faulty("--throttle-every", "1")
    run = gqlc_at(server, "--retries", "1", *GET_POST)
    assert run.code == 5, run
    assert attempts(run) == 2 and served(server, 429) == 2
    [message] = error_lines(run)
    assert message.startswith("gqlc: HTTP 429 Too Many Requests: TooManyRequestsException: Rate exceeded (after 2 attempts)")
    assert "--retries" in message


def test_a_dropped_connection_is_retried(faulty, gqlc_at):
    server = faulty("--drop-every", "2")
    burn(server)
    run = gqlc_at(server, *GET_POST)
    assert run.code == 0, run
    assert run.json()["id"] == "p1"
    assert attempts(run) == 2
    [(number, _, reason, _)] = retries(run)
    assert number == 1 and reason.startswith("network error")
    assert served(server) == 2  # burn and the retry; the dropped request has no log line


def test_a_dropped_keep_alive_connection_fails_fast(faulty, gqlc_at):
    # Page 1 is request 1 on a fresh connection; page 2 (request 2) is dropped on the reused one.
    server = faulty("--drop-every", "2")
    run = gqlc_at(server, "--timeout", "20", "list", "Post", "--page-size", "3")
    assert run.code == 0, run
    assert len(run.json()) == 5
    # The dropped request is re-sent on a new connection at once, by the transport (two POSTs traced) or as a
    # retry after a network error. A re-send stalled on the dead connection would end in "no response within".
    assert all(reason.startswith("network error") for _, _, reason, _ in retries(run)), run.stderr
    assert not any(line.startswith("* no response within") for line in run.stderr_lines), run.stderr


def test_a_server_that_never_answers_exits_6(faulty, gqlc_at):
    server = faulty("--drop-every", "1")
    run = gqlc_at(server, "--retries", "2", *GET_POST)
    assert run.code == 6, run
    assert run.stdout == ""
    assert attempts(run) == 3 and len(retries(run)) == 2
    [message] = error_lines(run)
    assert message.startswith("gqlc: network error: ") and message.endswith("(after 3 attempts)")


def test_a_refused_connection_exits_6_after_retries(gqlc_at):
    # A port held without listening: a stopped server's port could be given to another server meanwhile.
    run = gqlc_at(SimpleNamespace(url=closed_port_url()), "--retries", "1", *GET_POST)
    assert run.code == 6, run
    assert attempts(run) == 2
    [message] = error_lines(run)
    assert message.startswith("gqlc: network error: ")


def test_latency_beyond_the_timeout_exits_6_after_retries(faulty, gqlc_at):
    server = faulty("--latency-ms", "1500")
    run = gqlc_at(server, "--timeout", "0.5", "--retries", "1", *GET_POST)
    assert run.code == 6, run
    assert run.stdout == ""
    assert attempts(run) == 2
    [(_, _, reason, _)] = retries(run)
    assert reason == "timeout"
    assert error_lines(run) == ["gqlc: no response within 0.5 s; raise it with --timeout SECONDS (after 2 attempts)"]
    # Each attempt waits the whole timeout, not less.
    assert run.seconds >= 2 * 0.5 * 0.9, run.seconds
    timeouts = [int(m[1]) for m in (re.match(r"^\* no response within .* after (\d+) ms$", line) for line in run.stderr_lines) if m]
    assert len(timeouts) == 2 and all(ms >= 450 for ms in timeouts), timeouts


def test_a_fractional_timeout_is_not_rounded_down(faulty, gqlc_at):
    # A 1.8 s timeout cut to whole seconds would give up after 1 s. Measured from below on a server that answers
    # far too late (a busy machine can only make the wait longer), not by an answer racing the timeout.
    server = faulty("--latency-ms", "20000")
    run = gqlc_at(server, "--timeout", "1.8", "--retries", "0", *GET_POST)
    assert run.code == 6, run
    assert attempts(run) == 1
    timeouts = [int(m[1]) for m in (re.match(r"^\* no response within .* after (\d+) ms$", line) for line in run.stderr_lines) if m]
    assert len(timeouts) == 1 and timeouts[0] >= 1750, timeouts


def test_latency_within_the_timeout_is_not_a_failure(faulty, gqlc_at):
    server = faulty("--latency-ms", "300")
    run = gqlc_at(server, "--timeout", "30", *GET_POST)  # far above the latency: a busy machine is slow, not late
    assert run.code == 0, run
    assert attempts(run) == 1 and retries(run) == []
    assert run.seconds >= 0.3


def test_list_pages_are_retried_one_by_one(start_appsync, schema_examples_dir, gqlc_at, tmp_path):
    seed = tmp_path / "seed.json"
    seed.write_text(_seed_json(250))
    server = start_appsync(schema_examples_dir / "blog.json", seed=seed, args=("--verbose", "--fail-every", "2"))
    run = gqlc_at(server, "list", "Post", "--page-size", "100")
    assert run.code == 0, run
    assert [item["id"] for item in run.json()] == [f"post-{i:05d}" for i in range(250)]
    # Page 1 is request 1; page 2 fails as request 2 and succeeds as 3; page 3 fails as 4 and succeeds as 5.
    assert attempts(run) == 5 and len(retries(run)) == 2
    assert served(server, 500) == 2
