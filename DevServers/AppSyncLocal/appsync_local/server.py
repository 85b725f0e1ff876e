"""HTTP/1.1 server for the GraphQL endpoint, with API-key and IAM (SigV4) checks and fault injection.

Endpoint: ``POST /graphql`` (JSON body) and ``GET /graphql?query=…&variables=…``. Keep-alive is on
(HTTP/1.1 with exact Content-Length) and Nagle's algorithm is off. Responses carry
``x-amzn-RequestId``; error responses also ``x-amzn-ErrorType``.

Fault injection counts every request to the endpoint (1, 2, 3, …); when a request's number is a
multiple of N the fault applies, checked in this order: ``drop_every`` (close the connection without
answering), ``throttle_every`` (429 ``TooManyRequestsException``, with ``Retry-After`` when
configured), ``fail_every`` (``fail_status``, 500 ``InternalFailure`` by default). ``lose_answer_every`` carries the
request out, then closes the connection without answering (the client cannot tell that it was applied).
``latency_ms`` delays every request.

Canned replies stand in for a broken endpoint or a proxy in front of it: with ``reply`` set, requests get its
status, body, content type and headers instead of an answer (the first ``reply.first`` requests, or all of
them when it is 0; none of the first ``reply.after``), after the faults above; ``${headers}`` in its body or a header value stands for the
request's header values. ``record_path`` appends each request received, faults included,
as one JSON line ``{"number", "method", "path", "headers": [[name, value], …], "body"}`` before answering.
Transport: with ``tls_cert``/``tls_key`` the server speaks HTTPS only (the TLS handshake runs on the connection's
thread; a refused handshake is one log line). A response is gzip-compressed when the request's
``Accept-Encoding`` allows gzip; with ``verbose`` the log then says how many bytes were sent for how many.

Auth: with ``api_key`` the ``x-api-key`` header must match; with ``iam_credentials`` requests must be signed
with SigV4 for ``iam_region`` (see ``auth``). With both, either is accepted, as on an AppSync API with an
additional auth mode: a request with ``x-api-key`` is checked as an API-key request, any other as IAM.

A WebSocket upgrade ``GET /graphql/realtime`` is handed to ``realtime`` on the same port.
"""

from __future__ import annotations

import gzip
import json
import re
import socket
import ssl
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
from .auth import AuthPolicy, identify
from .userpools import UserPoolVerifier
from .events import HTTP_PATH as EVENTS_PATH, EventsHub, EventsOptions, handle_http, is_events_request, serve_events
from .realtime import RealtimeOptions, is_realtime_request, serve_realtime
from .sigv4 import IAMCredentials


ECHO_HEADERS = "${headers}"
ECHO_BODY = "${body}"  # the request's body, escaped as in a JSON string: a service repeating the request in its error


@dataclass(frozen=True)
class CannedReply:
    """What to answer instead of serving a request."""

    status: int = 200
    body: bytes | None = None  # None: AppSync's error body for the status
    content_type: str = "application/json; charset=UTF-8"
    headers: tuple[tuple[str, str], ...] = ()
    first: int = 0  # reply to the first N requests only, then serve; 0: reply to every request
    after: int = 0  # serve the first N requests, then reply


@dataclass
class ServerOptions:
    """Runtime options of the HTTP layer."""

    api_key: str | None = None
    iam_credentials: tuple[IAMCredentials, ...] = ()
    iam_region: str = "us-east-1"
    iam_sts_url: str | None = None
    user_pool: UserPoolVerifier | None = None
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(timezone.utc))
    latency_ms: int = 0
    fail_every: int = 0
    fail_status: int = 500
    throttle_every: int = 0
    drop_every: int = 0
    lose_answer_every: int = 0
    retry_after: int | None = None
    verbose: bool = False
    reply: CannedReply | None = None
    record_path: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    realtime: RealtimeOptions = field(default_factory=RealtimeOptions)
    events: EventsOptions = field(default_factory=EventsOptions)

    def auth_policy(self) -> AuthPolicy:
        """The API-key / IAM requirements, shared with the real-time endpoint."""
        return AuthPolicy(self.api_key, self.iam_credentials, self.iam_region, sts_url=self.iam_sts_url,
                          user_pool=self.user_pool)


class TLSSetupError(ValueError):
    """The TLS certificate or key cannot be used."""


class AppSyncHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server bound to one ``App``."""

    daemon_threads = True
    allow_reuse_address = True
    # socketserver listens with a backlog of 5: a client opening more connections at once (gqlc's bulk workers)
    # had SYNs dropped and waited a second for the retransmit. The kernel caps this at net.core.somaxconn.
    request_queue_size = socket.SOMAXCONN

    def __init__(self, address: tuple[str, int], app: App, options: ServerOptions) -> None:
        super().__init__(address, GraphQLHandler)
        self.app = app
        self.options = options
        self.events = EventsHub(options.events)
        self.tls = None
        if options.tls_cert:
            self.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            try:
                self.tls.load_cert_chain(options.tls_cert, options.tls_key)
            except OSError as error:
                self.server_close()
                raise TLSSetupError(f"{options.tls_cert}, {options.tls_key}: {error.strerror or error}") from None
        self._counter = 0
        self._counter_lock = threading.Lock()
        self._record_lock = threading.Lock()

    def next_request_number(self) -> int:
        """1, 2, 3, … across all connections (the fault-injection counter)."""
        with self._counter_lock:
            self._counter += 1
            return self._counter

    def record(self, entry: dict) -> None:
        """Appends one received request to the ``record_path`` file, whole lines only."""
        if self.options.record_path:
            with self._record_lock, open(self.options.record_path, "a", encoding="utf-8") as file:
                file.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def get_request(self):
        connection, address = super().get_request()
        if self.tls is not None:
            connection = self.tls.wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
        return connection, address

    def handle_error(self, request, client_address) -> None:
        """A refused TLS handshake or a vanished client is one line, not a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, (ssl.SSLError, ConnectionError)):
            sys.stderr.write(f"appsync-local: {client_address[0]}:{client_address[1]} connection failed: {error}\n")
            return
        super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        """The endpoint URL, printed as the first stdout line."""
        host, port = self.server_address[:2]
        return f"{'https' if self.tls else 'http'}://{host}:{port}/graphql"


class GraphQLHandler(BaseHTTPRequestHandler):
    """Handles one connection; many requests when the client keeps it alive."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_version = "appsync-local"
    sys_version = ""
    server: AppSyncHTTPServer

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - signature from the base class
        if self.server.options.verbose:
            sys.stderr.write(f"appsync-local: {self.address_string()}:{self.client_address[1]} {format % args}\n")

    def do_POST(self) -> None:
        body = self._read_body()
        if body is None:
            return
        self._handle(body, raw_body=body)

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        if is_realtime_request(parts.path, self.headers):
            self.close_connection = True
            serve_realtime(self, self.server.app, self.server.options)
            return
        if is_events_request(parts.path, self.headers):
            self.close_connection = True
            serve_events(self, self.server.events, self.server.options)
            return
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
        target = path or urlsplit(self.path).path
        if target not in ("/graphql", EVENTS_PATH):
            self._send(404, http_error_body("NotFoundException", f"No endpoint at {self.path}; use /graphql."))
            return
        if options.latency_ms:
            time.sleep(options.latency_ms / 1000)
        number = self.server.next_request_number()
        self.server.record({"number": number, "method": self.command, "path": self.path,
                            "headers": [[name, value] for name, value in self.headers.items()],
                            "body": raw_body.decode("utf-8", "replace")})
        if options.drop_every and number % options.drop_every == 0:
            self._drop()
            return
        if options.throttle_every and number % options.throttle_every == 0:
            extra = {"Retry-After": str(options.retry_after)} if options.retry_after is not None else {}
            self._send(429, http_error_body("TooManyRequestsException", "Rate exceeded"), extra)
            return
        if options.fail_every and number % options.fail_every == 0:
            self._send(options.fail_status,
                       http_error_body("InternalFailure", "An internal failure occurred (injected fault)."))
            return
        reply = options.reply
        if reply is not None and (reply.first == 0 or number <= reply.first) and number > reply.after:
            self._send_canned(reply, raw_body)
            return
        if target == EVENTS_PATH:
            self._send(*handle_http(self, self.server.events, options, raw_body))
            return
        allowed, identity = self._authorized(raw_body)
        if not allowed:
            return
        status, payload = self.server.app.handle_body(body, identity)
        if options.lose_answer_every and number % options.lose_answer_every == 0:
            self._drop()  # applied, but the answer is lost on the way back
            return
        self._send(status, payload)

    def _drop(self) -> None:
        """Closes the connection without an answer."""
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _authorized(self, raw_body: bytes):
        """Checks the API key, the SigV4 signature or the user-pool token; answers 401/403 and returns
        (False, None) when refused, else (True, the caller's identity or None)."""
        options = self.server.options
        refusal, identity = identify(options.auth_policy(), self.command, self.path, list(self.headers.items()),
                                     raw_body, options.clock(), on_verified=self._log_key_id)
        if refusal is not None:
            self._send(refusal.status, http_error_body(refusal.error_type, refusal.message))
            return False, None
        return True, identity

    def _log_key_id(self, key_id: str) -> None:
        """One stderr line per verified signature, so tests can see which access key signed (never a secret)."""
        sys.stderr.write(f"appsync-local: iam: verified a signature by {key_id}\n")
        sys.stderr.flush()

    def _send_canned(self, reply: CannedReply, raw_body: bytes = b"") -> None:
        # ${headers} echoes the request's header values, as a misconfigured server or proxy might.
        echoed = " ".join(value for _, value in self.headers.items())
        headers = [(name, value.replace(ECHO_HEADERS, echoed)) for name, value in reply.headers]
        if reply.body is None:
            self._send(reply.status, http_error_body("InjectedReply", f"HTTP {reply.status} (canned reply)."),
                       dict(headers))
            return
        escaped = json.dumps(raw_body.decode("utf-8", "replace"), ensure_ascii=False)[1:-1].encode()
        body = reply.body.replace(ECHO_HEADERS.encode(), echoed.encode()).replace(ECHO_BODY.encode(), escaped)
        # ${header:NAME} echoes one header's value (empty when the request has none).
        body = re.sub(rb"\$\{header:([A-Za-z0-9-]+)\}",
                      lambda match: self.headers.get(match.group(1).decode(), "").encode(), body)
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _accepts_gzip(self) -> bool:
        for part in self.headers.get("Accept-Encoding", "").split(","):
            coding, _, params = part.strip().partition(";")
            if coding.strip().lower() in ("gzip", "*"):
                return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
        return False

    def _send(self, status: int, payload: dict, extra_headers: dict | None = None) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        compressed = self._accepts_gzip()
        if compressed:
            plain_size, data = len(data), gzip.compress(data, compresslevel=6, mtime=0)
            self.log_message("gzip: sent %d bytes for %d", len(data), plain_size)
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        if compressed:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-amzn-RequestId", str(uuid.uuid4()))
        if status != 200 and payload.get("errors"):
            self.send_header("x-amzn-ErrorType", f"{payload['errors'][0]['errorType']}:")
        for name, value in (extra_headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
