"""A tiny forwarding HTTP proxy for end-to-end tests of the proxy variables (``http_proxy`` …).

It takes absolute-URI requests (``POST http://127.0.0.1:PORT/graphql HTTP/1.1``), records the request line, and
forwards the request to its target over a new connection, passing the answer back. Runs in a thread of the test
process on a free loopback port; use it as a context manager.
"""

from __future__ import annotations

import http.client
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer",
              "transfer-encoding", "upgrade", "content-length"}


class _ProxyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: "ForwardingProxy"

    def log_message(self, *_args) -> None:
        pass

    def do_POST(self) -> None:
        self._forward()

    def do_GET(self) -> None:
        self._forward()

    def _forward(self) -> None:
        with self.server.lock:
            self.server.requests.append(f"{self.command} {self.path}")
        target = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
        upstream = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=30)
        try:
            path = target.path + (f"?{target.query}" if target.query else "")
            upstream.request(self.command, path, body=body, headers=headers)
            answer = upstream.getresponse()
            data = answer.read()
            self.send_response(answer.status, answer.reason)
            for name, value in answer.getheaders():
                if name.lower() not in HOP_BY_HOP:
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Via", "1.1 forwarding-proxy")
            self.end_headers()
            self.wfile.write(data)
        finally:
            upstream.close()


class ForwardingProxy(ThreadingHTTPServer):
    """``url`` is ``http://127.0.0.1:PORT``; ``requests`` lists each proxied request line (`POST http://…`)."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self.lock = threading.Lock()
        self.requests: list[str] = []
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def __enter__(self) -> "ForwardingProxy":
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.shutdown()
        self.server_close()
