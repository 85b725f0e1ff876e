"""Fixtures for end-to-end tests: the built gqlc binary against a real local server."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest


import harness  # noqa: E402
import zygote  # noqa: E402
from gqlc_runner import GQLC_BIN, Run, run_gqlc  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def gqlc_binary() -> Path:
    """The binary under test; build it first (``make test`` does)."""
    if not GQLC_BIN.exists():
        pytest.fail(f"gqlc binary not found at {GQLC_BIN}; run 'swift build' or 'make test'")
    return GQLC_BIN


@pytest.fixture
def gqlc():
    """``gqlc(*args, env=None, stdin=None)`` runs the binary and returns a ``Run``."""
    def run(*args, env=None, stdin=None, timeout=60, cwd=None) -> Run:
        return run_gqlc(args, env=env, stdin=stdin, timeout=timeout, cwd=cwd)
    return run


@pytest.fixture
def blog(gqlc, blog_server, schema_examples_dir):
    """``blog(*args)`` runs gqlc against a fresh seeded blog server (schema and endpoint by flag)."""
    schema = schema_examples_dir / "blog.json"

    def run(*args, env=None, stdin=None, timeout=60) -> Run:
        return gqlc("--schema", schema, "--endpoint", blog_server.url, *args, env=env, stdin=stdin, timeout=timeout)
    run.server = blog_server
    return run


@pytest.fixture
def faulty(start_appsync, schema_examples_dir):
    """``faulty(*flags)`` starts a seeded blog server with fault-injection flags and request logging."""
    def start(*flags):
        return start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                             args=("--verbose", *flags))
    return start


class StarWarsServer:
    """A running DevServers/StarWars/starwars-server: its ``url`` and the last body POSTed to it."""

    def __init__(self, process: subprocess.Popen, url: str):
        self.process = process
        self.url = url

    def last_request(self):
        """The last body POSTed to /graphql (None before the first), from ``GET /last-request``."""
        host, port = urlsplit(self.url).netloc.split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            connection.request("GET", "/last-request")
            return json.loads(connection.getresponse().read())["body"]
        finally:
            connection.close()


@pytest.fixture
def starwars(gqlc, repo_root):
    """``starwars(*args)`` runs gqlc with ``--endpoint`` set to a fresh Star Wars server (one per test);
    ``starwars.server.last_request()`` shows what was sent."""
    script = repo_root / "DevServers" / "StarWars" / "starwars-server"
    process = zygote.spawn([sys.executable, str(script), "--port", "0"], 2, harness.clean_env())
    try:
        url = process.stdout.readline().decode().strip()
        assert url.startswith("http://"), f"starwars-server did not start: {url!r}"
        server = StarWarsServer(process, url)

        def run(*args, env=None, stdin=None, timeout=60, cwd=None) -> Run:
            return gqlc("--endpoint", url, *args, env=env, stdin=stdin, timeout=timeout, cwd=cwd)
        run.server = server
        yield run
    finally:
        process.terminate()
        process.wait(timeout=10)
