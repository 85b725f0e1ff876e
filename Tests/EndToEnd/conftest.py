"""Fixtures for end-to-end tests: the built gqlc binary against a real local server."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

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
