"""Helpers, constants and fixtures of test_resilience_retries.py, shared with other test modules."""

from __future__ import annotations
import re
import time
import pytest


GET_POST = ("get", "Post", "--id", "p1")


RETRY_LINE = re.compile(r"^\* retry (\d+)/(\d+) after (.+), waiting (\d+) ms$")


def attempts(run) -> int:
    """How many times gqlc POSTed, from its trace."""
    return sum(1 for line in run.stderr_lines if line.startswith("> POST "))


def retries(run) -> list[tuple[int, int, str, int]]:
    """The ``* retry n/N after REASON, waiting MS ms`` lines, parsed."""
    found = []
    for line in run.stderr_lines:
        match = RETRY_LINE.match(line)
        if match:
            found.append((int(match[1]), int(match[2]), match[3], int(match[4])))
    return found


def served(server, status: int | None = None) -> int:
    """Requests the server logged (it logs every answered request with ``--verbose``)."""
    lines = [line for line in server.stderr_text().splitlines() if '"POST /graphql' in line]
    if status is not None:
        lines = [line for line in lines if f'" {status} ' in line]
    return len(lines)


def burn(server) -> None:
    """Spends one request number (whatever the server does with it)."""
    try:
        server.post({"query": "{ __typename }"})
    except OSError:  # a dropped connection (http.client's errors are OSErrors)
        pass


def error_lines(run) -> list[str]:
    return [line for line in run.stderr_lines if line.startswith("gqlc: ")]


@pytest.fixture
def gqlc_at(gqlc, schema_examples_dir):
    """``gqlc_at(server, *args)`` runs gqlc with ``--verbose`` against ``server``."""
    def run(server, *args, timeout=60):
        started = time.monotonic()
        result = gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, "--verbose", *args,
                      timeout=timeout)
        result.seconds = time.monotonic() - started
        return result
    return run


def _seed_json(count: int) -> str:
    import json
    posts = [{"id": f"post-{i:05d}", "blogId": "blog-bulk", "title": f"Bulk post {i}"} for i in range(count)]
    return json.dumps({"Blog": [{"id": "blog-bulk", "name": "Bulk"}], "Post": posts})
