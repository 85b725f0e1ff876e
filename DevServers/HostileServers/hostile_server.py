"""A small HTTP server that answers whatever a test tells it to: malformed bodies, HTML pages, dropped
connections. It stands in for a broken GraphQL endpoint.

Tests run it in-process and register scripted answers; each registration gets its own URL::

    with HostileServer() as server:
        url = server.script([Reply(500), Reply(200, b'{"data":{"getPost":null}}')])
        ... gqlc --endpoint url ...          # 1st request: 500, 2nd and later: the second reply
        server.received(url)                 # the request bodies, in order
        server.headers(url)                  # the request headers, in order

The reply for request *n* of a URL is ``replies[min(n, len - 1)]``. The URL carries the script's id in its
query string (``/graphql?case=7``); a ``x-hostile-case`` request header can select a script too.

Run as a program it serves the named cases of ``NAMED_REPLIES`` on ``/graphql?case=NAME`` for manual tests::

    python3 DevServers/HostileServers/hostile_server.py --port 20003
    gqlc --endpoint 'http://127.0.0.1:20003/graphql?case=html-502' --schema … get Post --id x
"""

from __future__ import annotations

import argparse
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


@dataclass(frozen=True)
class Reply:
    """One scripted answer. ``drop`` closes the connection without answering."""

    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "application/json"),)
    drop: bool = False

    @staticmethod
    def json(text: str | bytes, status: int = 200, **kwargs) -> "Reply":
        return Reply(status, text.encode() if isinstance(text, str) else text, **kwargs)

    @staticmethod
    def html(text: str, status: int) -> "Reply":
        return Reply(status, text.encode(), (("Content-Type", "text/html; charset=utf-8"),))


@dataclass
class _Script:
    replies: list[Reply]
    bodies: list[bytes] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else every keep-alive answer waits 40 ms
    server_version = "hostile"
    sys_version = ""
    server: "_Server"

    def log_message(self, format, *args) -> None:  # noqa: A002 - quiet
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        case = parse_qs(urlsplit(self.path).query).get("case", [None])[-1] or self.headers.get("x-hostile-case")
        reply = self.server.owner._next_reply(case, body, {name.lower(): value for name, value in self.headers.items()})
        if reply is None:
            reply = Reply.json(b'{"errors":[{"message":"hostile: no such case"}]}', 404)
        if reply.drop:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        self.send_response(reply.status)
        for name, value in reply.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        try:
            self.wfile.write(reply.body)
        except OSError:
            self.close_connection = True  # the client gave up (timeout); nothing to do


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    owner: "HostileServer"


class HostileServer:
    """The server, listening on a free loopback port from construction until ``close``."""

    def __init__(self, port: int = 0) -> None:
        self._lock = threading.Lock()
        self._scripts: dict[str, _Script] = {}
        self._next_id = 0
        self._server = _Server(("127.0.0.1", port), _Handler)
        self._server.owner = self
        self._thread = threading.Thread(target=self._server.serve_forever, name="hostile-server", daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/graphql"

    def script(self, replies: Reply | list[Reply], name: str | None = None) -> str:
        """Registers the answers for a new URL and returns it."""
        replies = [replies] if isinstance(replies, Reply) else list(replies)
        assert replies, "a script needs at least one reply"
        with self._lock:
            if name is None:
                name = str(self._next_id)
                self._next_id += 1
            self._scripts[name] = _Script(replies)
        return f"{self.base_url}?case={name}"

    def received(self, url: str) -> list[bytes]:
        """The bodies POSTed to ``url``, in order."""
        with self._lock:
            return list(self._scripts[_case(url)].bodies)

    def headers(self, url: str) -> list[dict[str, str]]:
        """The headers (lower-cased names) sent to ``url``, one dict per request."""
        with self._lock:
            return list(self._scripts[_case(url)].headers)

    def forget(self, url: str) -> None:
        """Drops a script (and its large bodies) that is no longer needed."""
        with self._lock:
            self._scripts.pop(_case(url), None)

    def _next_reply(self, case: str | None, body: bytes, headers: dict[str, str]) -> Reply | None:
        with self._lock:
            script = self._scripts.get(case or "")
            if script is None:
                return None
            index = min(len(script.bodies), len(script.replies) - 1)
            script.bodies.append(body)
            script.headers.append(headers)
            return script.replies[index]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "HostileServer":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


def _case(url: str) -> str:
    return parse_qs(urlsplit(url).query)["case"][-1]


# Named answers for manual use (`python3 hostile_server.py`) and for the fixed cases of the fuzz suite.
HTML_502 = ("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n"
            "<body><h1>Bad Gateway</h1><p>The proxy got no answer.</p></body></html>\n")
HTML_200 = ("<html><head><title>Sign in - Corporate Portal</title></head><body><form>…</form></body></html>")

NAMED_REPLIES: dict[str, Reply] = {
    "empty": Reply.json(b""),
    "truncated": Reply.json(b'{"data":{"getPost":{"id":"p1","title":"Trunc'),
    "html-200": Reply.html(HTML_200, 200),
    "html-502": Reply.html(HTML_502, 502),
    "not-graphql": Reply.json(b'{"status":"ok","items":[1,2,3]}'),
    "array": Reply.json(b"[1,2,3]"),
    "data-wrong-type": Reply.json(b'{"data":[{"getPost":{"id":"p1"}}]}'),
    "errors-wrong-type": Reply.json(b'{"errors":"everything failed"}'),
    "deep": Reply.json(b'{"data":{"getPost":' + b"[" * 100_000 + b"]" * 100_000 + b"}}"),
    "huge-string": Reply.json(b'{"data":{"getPost":{"id":"p1","title":"' + b"x" * 10_000_000 + b'"}}}'),
    "big-numbers": Reply.json(b'{"data":{"getPost":{"id":"p1","views":123456789012345678901234567890,'
                              b'"score":1e400,"rating":-9223372036854775809}}}'),
    "drop": Reply(drop=True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=20003)
    options = parser.parse_args()
    server = HostileServer(options.port)
    for name, reply in NAMED_REPLIES.items():
        server.script(reply, name=name)
    print(server.base_url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.close()


if __name__ == "__main__":
    main()
