"""Helpers, constants and fixtures of test_subscribe.py, shared with other test modules."""

from __future__ import annotations
import json
import queue
import subprocess
import threading
import time
from pathlib import Path
import pytest
from gqlc_runner import GQLC_BIN, gqlc_env, run_gqlc
from transport_support import PKI, pki  # noqa: F401 - the fixture is used by the wss test


HANG_LIMIT = 60  # seconds before a missing line fails the test instead of hanging it


API_KEY = "da2-subscribetestkey0123456789"


class Background:
    """A gqlc process running in the background, its stdout and stderr read line by line as they come."""

    def __init__(self, args, env=None):
        self.args = [str(arg) for arg in args]
        self.process = subprocess.Popen([str(GQLC_BIN), *self.args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=gqlc_env(env))
        self.stdout: queue.Queue[str | None] = queue.Queue()
        self.stderr: queue.Queue[str | None] = queue.Queue()
        self.stderr_seen: list[str] = []
        self.stdout_seen: list[str] = []
        for stream, lines in ((self.process.stdout, self.stdout), (self.process.stderr, self.stderr)):
            threading.Thread(target=self._pump, args=(stream, lines), daemon=True).start()

    @staticmethod
    def _pump(stream, lines):
        for raw in stream:
            lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        lines.put(None)

    def stderr_line(self, predicate) -> str:
        """The next stderr line for which ``predicate`` holds (earlier lines are kept in ``stderr_seen``)."""
        deadline = time.monotonic() + HANG_LIMIT
        while True:
            line = self.stderr.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, f"gqlc ended before the expected line; stderr: {self.stderr_seen}"
            self.stderr_seen.append(line)
            if predicate(line):
                return line

    def subscribed(self, *names: str) -> None:
        """Waits for `subscribed: NAME` for each name."""
        for name in names:
            self.stderr_line(lambda line, name=name: line == f"subscribed: {name}")

    def event(self):
        """The next event printed on stdout, decoded."""
        line = self.stdout.get(timeout=HANG_LIMIT)
        assert line is not None, f"gqlc ended before an event; stderr: {self.stderr_seen}"
        self.stdout_seen.append(line)
        return json.loads(line)

    def finish(self) -> tuple[int, str, str]:
        """Waits for the exit; the status, the rest of stdout and all of stderr."""
        code = self.process.wait(timeout=HANG_LIMIT)
        rest = []
        while (line := self.stdout.get(timeout=HANG_LIMIT)) is not None:
            rest.append(line)
        while (line := self.stderr.get(timeout=HANG_LIMIT)) is not None:
            self.stderr_seen.append(line)
        return code, "\n".join(rest), "\n".join(self.stderr_seen)

    def signal(self, number: int) -> None:
        self.process.send_signal(number)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def background():
    """``background(*args, env=None)`` starts gqlc; whatever is still running at the end is killed."""
    started: list[Background] = []

    def start(*args, env=None) -> Background:
        process = Background(args, env=env)
        started.append(process)
        return process
    yield start
    for process in started:
        process.kill()


def wait_for_log(server, fragment: str, count: int = 1) -> None:
    """Waits until the server's log has ``count`` lines containing ``fragment``."""
    server.wait_for_log(fragment, count, timeout=HANG_LIMIT)


@pytest.fixture
def blog_schema(schema_examples_dir) -> Path:
    return schema_examples_dir / "blog.json"


@pytest.fixture
def server(start_appsync, blog_schema, schema_examples_dir):
    return start_appsync(blog_schema, seed=schema_examples_dir / "blog-seed.json", api_key=API_KEY)


def mutate(server, schema, *args, extra=()):
    run = run_gqlc(["--schema", schema, "--endpoint", server.url, "--api-key", API_KEY, *extra, *args])
    assert run.code == 0, run
    return run.json()


def subscriber(background, server, schema, *args, env=None, auth=("--api-key", API_KEY)):
    return background("--schema", schema, "--endpoint", server.url, *auth, "subscribe", *args, env=env)
