"""Shared pytest fixtures for every Python test suite (under Tests/ and DevServers/).

- ``repo_root``: the repository root.
- ``shared_fixtures_dir``: ``<repo root>/../shared/fixtures/amplify`` (real Amplify MIS/config files;
  found one level higher from a worktree, or set ``GQLC_SHARED_FIXTURES``).
- ``schema_examples_dir``: ``<repo root>/schema-examples``.
- ``project_fixtures_dir``: ``Tests/Fixtures/schemas`` (the project's own fixtures).
- ``blog_server``: a fresh appsync-local on ``blog.json`` seeded from ``blog-seed.json`` (per test).
- ``start_appsync``: a factory ``start_appsync(schema, seed=None, args=(), api_key=None,
  record_requests=False)`` whose servers are stopped after the test.

The helper module ``harness`` (DevServers/AppSyncLocal/harness.py) is importable from any test (pytest.ini's
``pythonpath``).

Tests marked ``@pytest.mark.shared_fixtures`` read ``../shared/fixtures`` (the real Amplify files); they are
skipped when that folder is not there (a lone clone), and run in addition when it is.

Tests marked ``@pytest.mark.slow`` (ten seconds or more of a worker) are shared out at the head of each pytest-xdist
worker's first batch, so that they run at the start on every worker and no worker finishes long after the others.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent

import harness  # noqa: E402 - needs the path above


def pytest_configure(config):
    config.addinivalue_line("markers", "shared_fixtures: reads ../shared/fixtures; skipped when they are not there")
    config.addinivalue_line("markers", "slow: takes ten seconds or more; collected first, so that workers do not end on it")


def pytest_collection_modifyitems(config, items):
    hand_out_slow_tests_first(items, int(getattr(config, "workerinput", {}).get("workercount", 1)))
    if harness.SHARED_FIXTURES.is_dir():
        return
    skip = pytest.mark.skip(reason=f"shared fixtures not found at {harness.SHARED_FIXTURES}")
    for item in items:
        if "shared_fixtures" in item.keywords:
            item.add_marker(skip)


def hand_out_slow_tests_first(items: list, workers: int) -> None:
    """Puts an equal share of the slow tests at the head of each worker's first batch. pytest-xdist's load scheduling
    first sends each worker a batch of consecutive tests, a quarter of its share (xdist 3.8's LoadScheduling); the
    rest keep their order."""
    slow = [item for item in items if "slow" in item.keywords]
    rest = [item for item in items if "slow" not in item.keywords]
    batch = max(2, len(items) // workers // 4)
    ordered = []
    for worker in range(workers):
        share = slow[worker::workers]
        fill = max(0, batch - len(share))
        ordered += share + rest[:fill]
        rest = rest[fill:]
    items[:] = ordered + rest


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository root."""
    return harness.REPO_ROOT


@pytest.fixture(scope="session")
def shared_fixtures_dir() -> Path:
    """The shared Amplify fixtures (skips the test when they are not there)."""
    if not harness.SHARED_FIXTURES.is_dir():
        pytest.skip(f"shared fixtures not found at {harness.SHARED_FIXTURES}")
    return harness.SHARED_FIXTURES


@pytest.fixture(scope="session")
def project_fixtures_dir() -> Path:
    """``Tests/Fixtures/schemas``: the project's own model schemas (Gen 1 and Gen 2 conventions, config formats)."""
    return harness.PROJECT_FIXTURES


@pytest.fixture(scope="session")
def schema_examples_dir(repo_root: Path) -> Path:
    """``<repo root>/schema-examples``."""
    return repo_root / "schema-examples"


@pytest.fixture
def start_appsync():
    """Factory fixture: start servers that are stopped when the test ends."""
    servers = []

    def start(schema, seed=None, args=(), api_key=None, record_requests=False) -> harness.ServerHandle:
        server = harness.start_server(schema, seed=seed, args=args, api_key=api_key, record_requests=record_requests)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def blog_server(start_appsync, schema_examples_dir: Path) -> harness.ServerHandle:
    """A fresh server on blog.json seeded with blog-seed.json."""
    return start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json")


def pytest_sessionfinish(session, exitstatus):
    """A folder (or the whole run) without tests is not a failure."""
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.OK
