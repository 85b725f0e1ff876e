"""Bulk jobs under steady throttling (issue 21, point 10): appsync-local answers every 5th request with HTTP 429
whatever the rate. The job keeps its pace instead of slowing to a crawl, fails no record for throttling alone, says
on stderr (not a terminal here) that it is pacing itself and why, and honours Retry-After."""

from __future__ import annotations
import pytest

from gqlc_runner import runner_for
from harness import start_server
from bulk_support import summary, ndjson, listed

STARTED = "gqlc: the server is throttling requests; pacing them at "
INDEPENDENT = "% of requests are throttled whatever the pace, so slowing down does not help; pacing them at "


def records(count: int, prefix: str) -> list[dict]:
    return [{"id": f"{prefix}{i:04d}", "author": "pace", "content": f"{prefix} {i}", "likes": i, "postId": "p1"}
            for i in range(count)]


def notices(run) -> list[str]:
    """stderr's lines before the summary line."""
    return run.stderr_lines[:-1]


@pytest.mark.slow
def test_steady_throttling_of_every_fifth_request_fails_nothing_and_says_why_it_paces(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, args=("--throttle-every", "5")) as server:
        run_gqlc = runner_for(schema, server.url)
        sent = records(300, "t")
        # The timeout only stops a crawl (the old pacing took about 190 s for these 300 and failed one).
        run = run_gqlc("create", "Comment", "--input", "-", "--concurrency", "8", stdin=ndjson(sent), timeout=150)
        assert run.code == 0 and summary(run) == (300, "created", 0), run
        assert [r["id"] for r in run.ndjson()] == [r["id"] for r in sent]
        lines = notices(run)
        # One line when pacing starts, one when the throttles turn out not to depend on the rate, and few in all.
        assert lines[0].startswith(STARTED) and lines[0].endswith(" requests/s"), run.stderr
        assert any(line.startswith("gqlc: about 2") and INDEPENDENT in line for line in lines), run.stderr
        assert 2 <= len(lines) <= 6 and all("pacing" in line for line in lines), run.stderr
        stored = listed(runner_for(schema, server.url, "--retries", "8"), "Comment")
        assert {s["id"] for s in stored} >= {r["id"] for r in sent}


@pytest.mark.slow
def test_throttles_do_not_use_up_the_retries_of_a_record(schema_examples_dir):
    """Every 4th request is throttled: with --retries 1 a record whose two attempts are both throttled (about one in
    16) used to fail. A throttled request was not carried out, so it is retried beyond --retries."""
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, args=("--throttle-every", "4")) as server:
        run_gqlc = runner_for(schema, server.url)
        sent = records(80, "r")
        run = run_gqlc("--retries", "1", "create", "Comment", "--input", "-", "--concurrency", "4", stdin=ndjson(sent),
                       timeout=150)
        assert run.code == 0 and summary(run) == (80, "created", 0), run
        assert [r["id"] for r in run.ndjson()] == [r["id"] for r in sent]


@pytest.mark.slow
def test_retry_after_on_throttled_answers_is_said_once_and_every_record_is_done(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, args=("--throttle-every", "5", "--retry-after", "1")) as server:
        run_gqlc = runner_for(schema, server.url)
        sent = records(40, "a")
        run = run_gqlc("create", "Comment", "--input", "-", "--concurrency", "4", stdin=ndjson(sent), timeout=150)
        assert run.code == 0 and summary(run) == (40, "created", 0), run
        waits = [line for line in run.stderr_lines if "Retry-After" in line]
        assert waits[:1] == ["gqlc: the server asked to wait 1 s (Retry-After); every request waits"], run.stderr
        assert len(waits) <= 2, run.stderr  # at most one per 30 s, not one per throttle
