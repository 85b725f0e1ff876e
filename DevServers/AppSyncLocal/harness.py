"""Start appsync-local from tests and talk to it.

Usage::

    from harness import start_server

    with start_server("schema-examples/blog.json", seed="schema-examples/blog-seed.json") as server:
        status, body = server.post({"query": "{ listPosts { items { id } } }"})
        data = server.graphql("query($id: ID!) { getPost(id: $id) { title } }", {"id": "p2"})

``start_server`` runs the executable with ``--port 0``, reads the URL from its first stdout line,
and stops the process on exit. It removes proxy variables from the child environment;
``clean_env()`` gives the same environment for other child processes (e.g. the gqlc binary).
"""

from __future__ import annotations

import http.client
import json
import os
import select
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import urlsplit

import zygote

SERVER_DIR = Path(__file__).resolve().parent
SERVER_PATH = SERVER_DIR / "appsync-local"
REPO_ROOT = SERVER_DIR.parent.parent


def _find_shared_fixtures() -> Path:
    """``<repo root>/../shared/fixtures/amplify``; from a worktree one level further up; or ``$GQLC_SHARED_FIXTURES``."""
    if os.environ.get("GQLC_SHARED_FIXTURES"):
        return Path(os.environ["GQLC_SHARED_FIXTURES"])
    candidates = [base / "shared" / "fixtures" / "amplify" for base in (REPO_ROOT.parent, REPO_ROOT.parent.parent)]
    return next((path for path in candidates if path.is_dir()), candidates[0])


SHARED_FIXTURES = _find_shared_fixtures()
# The project's own model schemas (every association and key form the loader supports).
PROJECT_FIXTURES = REPO_ROOT / "Tests" / "Fixtures" / "schemas"
PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                   "NO_PROXY")


def clean_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The current environment without proxy variables (loopback traffic must not use a proxy)."""
    env = {name: value for name, value in os.environ.items() if name not in PROXY_VARIABLES}
    env.update(extra or {})
    return env


@dataclass
class ServerHandle:
    """A running appsync-local process."""

    url: str
    process: subprocess.Popen
    api_key: str | None = None
    stderr_path: str = ""
    requests_path: str = ""
    _connection: http.client.HTTPConnection | None = field(default=None, repr=False)

    @property
    def realtime_url(self) -> str:
        """The real-time WebSocket endpoint on the same port."""
        return f"ws://{self.host}:{self.port}/graphql/realtime"

    @property
    def host(self) -> str:
        """Host part of the URL."""
        return urlsplit(self.url).hostname or "127.0.0.1"

    @property
    def port(self) -> int:
        """Port the server listens on."""
        return urlsplit(self.url).port or 80

    def post(self, payload: Any, headers: dict[str, str] | None = None, raw: bytes | None = None,
             timeout: float = 30) -> tuple[int, Any]:
        """POST ``payload`` as JSON (or ``raw`` bytes); returns (status, decoded JSON body or None).

        Sends ``x-api-key`` when the server was started with one, unless ``headers`` sets it
        (use ``{"x-api-key": ""}`` to send none). Reuses one keep-alive connection; when the
        connection fails (e.g. ``--drop-every``) the error propagates and the next call reconnects.
        """
        body = raw if raw is not None else json.dumps(payload).encode()
        all_headers = {"Content-Type": "application/json"}
        if self.api_key is not None:
            all_headers["x-api-key"] = self.api_key
        all_headers.update(headers or {})
        all_headers = {name: value for name, value in all_headers.items() if value != ""}
        if self._connection is None:
            self._connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            self._connection.request("POST", urlsplit(self.url).path, body=body, headers=all_headers)
            response = self._connection.getresponse()
            data = response.read()
        except (http.client.HTTPException, OSError):
            self._connection.close()
            self._connection = None  # the next call reconnects
            raise
        return response.status, (json.loads(data) if data else None)

    def graphql(self, query: str, variables: dict | None = None, **post_options) -> dict:
        """Run an operation; asserts HTTP 200 and returns the whole response (``data`` and ``errors``)."""
        status, body = self.post({"query": query, "variables": variables}, **post_options)
        assert status == 200, f"HTTP {status}: {body}"
        return body

    def stderr_text(self) -> str:
        """What the server wrote to stderr so far (empty after ``stop``)."""
        return Path(self.stderr_path).read_text(encoding="utf-8", errors="replace") if self.stderr_path else ""

    def wait_for_log(self, fragment: str, count: int = 1, timeout: float = 60) -> None:
        """Waits until the server's log has ``count`` lines containing ``fragment`` (a server logs a connection's end,
        or a refused TLS handshake, after the client is gone)."""
        deadline = time.monotonic() + timeout
        while sum(fragment in line for line in self.stderr_text().splitlines()) < count:
            assert time.monotonic() < deadline, f"no {fragment!r} in the server log:\n{self.stderr_text()}"
            time.sleep(0.02)  # polling the log file for a line, not waiting for time to pass

    def requests(self) -> list[dict[str, Any]]:
        """The requests the server received, in order (needs ``record_requests=True``): each with ``number``,
        ``method``, ``path``, ``headers`` (a list of ``[name, value]``) and ``body`` (text)."""
        assert self.requests_path, "start the server with record_requests=True"
        text = Path(self.requests_path).read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines()]

    def headers(self, index: int = -1) -> dict[str, str]:
        """The headers of a received request, by lower-cased name."""
        return {name.lower(): value for name, value in self.requests()[index]["headers"]}

    def stop(self) -> None:
        """Terminate the process (SIGTERM, then SIGKILL after 5 s) and remove its stderr log."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        zygote.stop(self.process, grace=5)
        if self.process.stdout:
            self.process.stdout.close()
        if self.stderr_path:
            Path(self.stderr_path).unlink(missing_ok=True)
            self.stderr_path = ""
        if self.requests_path:
            Path(self.requests_path).unlink(missing_ok=True)
            self.requests_path = ""

    def __enter__(self) -> "ServerHandle":
        return self

    def __exit__(self, *_exc) -> None:
        self.stop()


def start_server(schema_path: str | os.PathLike, seed: str | os.PathLike | None = None, args: Iterable[str] = (),
                 api_key: str | None = None, timeout: float = 60, record_requests: bool = False) -> ServerHandle:
    """Start appsync-local on a free port and wait for its URL line. With ``record_requests`` the server
    records what it receives, and ``requests()`` / ``headers()`` read it. ``timeout`` only guards against a hang:
    a busy 2-core machine may take seconds to start Python and build the schema."""
    command = [sys.executable, str(SERVER_PATH), "--schema", str(schema_path), "--port", "0"]
    requests_path = ""
    if record_requests:
        with tempfile.NamedTemporaryFile(prefix="appsync-local-requests-", suffix=".jsonl", delete=False) as file:
            requests_path = file.name
        command += ["--record-requests", requests_path]
    if seed is not None:
        command += ["--seed", str(seed)]
    if api_key is not None:
        command += ["--api-key", api_key]
    command += list(args)
    return launch(command, "appsync-local", timeout,
                  lambda process, stderr_path: ServerHandle("", process, api_key, stderr_path, requests_path),
                  forked=True)


def launch(command: list, name: str, timeout: float, handle_for, forked: bool = False):
    """Start a test server that prints its URL on its first stdout line once it listens, its stderr going to a
    log file; ``handle_for(process, stderr_path)`` makes its handle (``url``, ``stop()``, ``stderr_text()``).
    ``forked``: a Python server whose imports the zygote (zygote.py) has made is forked from it, not started afresh.
    Raises ``RuntimeError`` naming the server, why it did not start and what it printed on stderr."""
    stderr_file = tempfile.NamedTemporaryFile(prefix=f"{name}-", suffix=".log", delete=False)
    if forked:
        process = zygote.spawn(command, stderr_file.fileno(), clean_env())
    else:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr_file, env=clean_env())
    stderr_file.close()
    handle = handle_for(process, stderr_file.name)
    try:
        handle.url = read_url_line(process, timeout)
    except RuntimeError as problem:
        message = handle.stderr_text().strip()
        handle.stop()
        raise RuntimeError(f"{name} {problem}: {message}") from None
    return handle


def read_url_line(process: subprocess.Popen, timeout: float) -> str:
    """The first stdout line of a test server started with ``--port 0`` (its URL, printed once it listens).
    Raises ``RuntimeError`` saying why not (``did not start within …``, ``exited before printing its URL``)."""
    deadline = time.monotonic() + timeout
    line = b""
    while not line.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0 and not select.select([process.stdout], [], [], 0)[0]:
            raise RuntimeError(f"did not start within {timeout} s")
        if not select.select([process.stdout], [], [], max(remaining, 0))[0]:
            continue
        chunk = os.read(process.stdout.fileno(), 1)
        if not chunk:
            raise RuntimeError("exited before printing its URL")
        line += chunk
    return line.decode().strip()
