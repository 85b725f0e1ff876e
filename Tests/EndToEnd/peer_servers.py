"""Tiny real HTTP servers for end-to-end tests: what appsync-local cannot do.

- ``EchoServer``: answers every POST with a GraphQL-shaped response whose root field (taken from the
  query) holds the request's headers, method, path and body, so a test can see what gqlc sent.
- ``FixedServer``: answers every request with one fixed status, content type and body (an HTML page,
  a 400, JSON that is not GraphQL).

Both run in a thread of the test process on a free loopback port; use them as context managers.
"""

from __future__ import annotations

import json
import re
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ROOT_FIELD = re.compile(r"\{\s*(\w+)")


class _Handler(BaseHTTPRequestHandler):
    # Without this, each keep-alive request stalls 40 ms (Nagle + delayed ACK).
    disable_nagle_algorithm = True
    protocol_version = "HTTP/1.1"

    def log_message(self, *_args) -> None:  # keep pytest output clean
        pass

    def _read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _EchoHandler(_Handler):
    def do_POST(self) -> None:
        raw = self._read_body()
        try:
            request = json.loads(raw)
        except ValueError:
            request = None
        query = request.get("query", "") if isinstance(request, dict) else ""
        match = ROOT_FIELD.search(query)  # the first field of the operation's selection set
        root = match.group(1) if match else "echo"
        record = {
            "id": "echo",
            "method": self.command,
            "path": self.path,
            "headers": [[name, value] for name, value in self.headers.items()],
            "body": request,
        }
        self.server.requests.append(record)
        self._send(200, "application/json", json.dumps({"data": {root: record}}).encode())


class _FixedHandler(_Handler):
    def _answer(self) -> None:
        self._read_body()
        self.server.requests.append({"method": self.command, "path": self.path})
        self._send(self.server.status, self.server.content_type, self.server.body)

    do_GET = do_POST = _answer


class _Server:
    def __init__(self, handler: type[_Handler]) -> None:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.httpd.requests = []
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/graphql"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """What the server received, in order."""
        return self.httpd.requests

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class EchoServer(_Server):
    """Echoes each request back as ``{"data": {<root field>: {id, method, path, headers, body}}}``."""

    def __init__(self) -> None:
        super().__init__(_EchoHandler)

    def headers(self, index: int = -1) -> dict[str, str]:
        """The headers of a received request, by lower-cased name."""
        return {name.lower(): value for name, value in self.requests[index]["headers"]}


class FixedServer(_Server):
    """Answers every request with ``status``, ``content_type`` and ``body``."""

    def __init__(self, status: int, content_type: str, body: str | bytes) -> None:
        super().__init__(_FixedHandler)
        self.httpd.status = status
        self.httpd.content_type = content_type
        self.httpd.body = body.encode() if isinstance(body, str) else body


def closed_port_url() -> str:
    """A loopback URL on which nothing listens (the port was just free)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/graphql"
