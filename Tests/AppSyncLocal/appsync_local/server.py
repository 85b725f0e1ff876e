"""HTTP/1.1 server for the GraphQL endpoint, with API-key and IAM (SigV4) checks and fault injection.

Endpoint: ``POST /graphql`` (JSON body) and ``GET /graphql?query=…&variables=…``. Keep-alive is on
(HTTP/1.1 with exact Content-Length) and Nagle's algorithm is off. Responses carry
``x-amzn-RequestId``; error responses also ``x-amzn-ErrorType``.

Fault injection counts every request to the endpoint (1, 2, 3, …); when a request's number is a
multiple of N the fault applies, checked in this order: ``drop_every`` (close the connection without
answering), ``throttle_every`` (429 ``TooManyRequestsException``, with ``Retry-After`` when
configured), ``fail_every`` (``fail_status``, 500 ``InternalFailure`` by default). ``latency_ms`` delays every request.

Auth: with ``api_key`` the ``x-api-key`` header must match; with ``iam_credentials`` requests must be signed
with SigV4 for ``iam_region`` (see ``sigv4``). With both, either is accepted, as on an AppSync API with an
additional auth mode: a request with ``x-api-key`` is checked as an API-key request, any other as IAM.
"""

from __future__ import annotations

import hmac
import json
import socket
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from .errors import http_error_body
from .execution import App
from .sigv4 import IAMCredentials, SigV4Rejection, verify


@dataclass
class ServerOptions:
    """Runtime options of the HTTP layer."""

    api_key: str | None = None
    iam_credentials: tuple[IAMCredentials, ...] = ()
    iam_region: str = "us-east-1"
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(timezone.utc))
    latency_ms: int = 0
    fail_every: int = 0
    fail_status: int = 500
    throttle_every: int = 0
    drop_every: int = 0
    retry_after: int | None = None
    verbose: bool = False


class AppSyncHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server bound to one ``App``."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], app: App, options: ServerOptions) -> None:
        super().__init__(address, GraphQLHandler)
        self.app = app
        self.options = options
        self._counter = 0
        self._counter_lock = threading.Lock()

    def next_request_number(self) -> int:
        """1, 2, 3, … across all connections (the fault-injection counter)."""
        with self._counter_lock:
            self._counter += 1
            return self._counter

    @property
    def url(self) -> str:
        """The endpoint URL, printed as the first stdout line."""
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/graphql"


class GraphQLHandler(BaseHTTPRequestHandler):
    """Handles one connection; many requests when the client keeps it alive."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_version = "appsync-local"
    sys_version = ""
    server: AppSyncHTTPServer

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - signature from the base class
        if self.server.options.verbose:
            sys.stderr.write(f"appsync-local: {self.address_string()} {format % args}\n")

    def do_POST(self) -> None:
        body = self._read_body()
        if body is None:
            return
        self._handle(body, raw_body=body)

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        params = {name: values[-1] for name, values in parse_qs(parts.query).items()}
        request = {"query": params.get("query")}
        try:
            request["variables"] = json.loads(params["variables"]) if "variables" in params else None
        except ValueError:
            request["variables"] = "invalid"  # rejected as malformed below
        if "operationName" in params:
            request["operationName"] = params["operationName"]
        self._handle(json.dumps(request).encode() if request["query"] else b"", path=parts.path, raw_body=b"")

    def _read_body(self) -> bytes | None:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            self._send(400, http_error_body("MalformedHttpRequestException", "Invalid Content-Length."))
            return None
        return self.rfile.read(length) if length > 0 else b""

    def _handle(self, body: bytes, path: str | None = None, raw_body: bytes = b"") -> None:
        options = self.server.options
        if (path or urlsplit(self.path).path) != "/graphql":
            self._send(404, http_error_body("NotFoundException", f"No endpoint at {self.path}; use /graphql."))
            return
        if options.latency_ms:
            time.sleep(options.latency_ms / 1000)
        number = self.server.next_request_number()
        if options.drop_every and number % options.drop_every == 0:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if options.throttle_every and number % options.throttle_every == 0:
            extra = {"Retry-After": str(options.retry_after)} if options.retry_after is not None else {}
            self._send(429, http_error_body("TooManyRequestsException", "Rate exceeded"), extra)
            return
        if options.fail_every and number % options.fail_every == 0:
            self._send(options.fail_status,
                       http_error_body("InternalFailure", "An internal failure occurred (injected fault)."))
            return
        if not self._authorized(raw_body):
            return
        status, payload = self.server.app.handle_body(body)
        self._send(status, payload)

    def _authorized(self, raw_body: bytes) -> bool:
        """Checks the API key or the SigV4 signature; answers 401/403 and returns False when refused."""
        options = self.server.options
        given_key = self.headers.get("x-api-key")
        if options.api_key is not None and (given_key or not options.iam_credentials):
            if not given_key:
                self._send(401, http_error_body("UnauthorizedException", "Valid authorization header not provided."))
                return False
            if not hmac.compare_digest(given_key.encode(), options.api_key.encode()):
                self._send(401, http_error_body("UnauthorizedException", "You are not authorized to make this call."))
                return False
            return True
        if options.iam_credentials:
            try:
                verify(self.command, self.path, list(self.headers.items()), raw_body, options.iam_credentials,
                       options.iam_region, options.clock())
            except SigV4Rejection as rejection:
                self._send(rejection.status, http_error_body(rejection.error_type, rejection.message))
                return False
        return True

    def _send(self, status: int, payload: dict, extra_headers: dict | None = None) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-amzn-RequestId", str(uuid.uuid4()))
        if status != 200 and payload.get("errors"):
            self.send_header("x-amzn-ErrorType", f"{payload['errors'][0]['errorType']}:")
        for name, value in (extra_headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
