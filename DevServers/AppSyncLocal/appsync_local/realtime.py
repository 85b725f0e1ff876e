"""AppSync's real-time (subscriptions) WebSocket protocol at ``GET /graphql/realtime``, on the HTTP port.

Protocol (subprotocol ``graphql-ws``), as AppSync speaks it:
- Auth: the "header" object (``{"host", "x-api-key"}``, or the SigV4-signed headers of ``POST /graphql/connect``
  with body ``{}``) comes as the subprotocol ``header-<base64url(JSON)>``, or as the classic query parameters
  ``?header=<base64(JSON)>&payload=e30=``, or as the upgrade request's own headers (amplify-swift). It is checked
  when ``connection_init`` arrives: ``connection_ack`` with ``connectionTimeoutMs``, or ``connection_error``
  ``{"errors": [{"errorType", "message", "errorCode"}]}`` and the connection closes.
- ``ka`` right after the ack, then every ``ka_seconds``.
- ``start`` ``{id, payload: {data: "<JSON string>", extensions: {authorization: {…header object…}}}}`` is
  checked again (IAM: signed over ``POST /graphql`` with the data string as body): ``start_ack`` or ``error``
  ``{"id", "payload": {"errors": [{"errorType", "message"}]}}``. Errors are always an array (AppSync's documented
  form; a single object has been observed from AppSync, but this server does not send it).
- ``data`` ``{id, payload: {data: {…}}}`` per matching mutation; ``stop`` ``{id}`` → ``complete`` ``{id}``.

With a user pool, each ``start`` is also checked against the model's auth rules as AppSync's generated subscription
resolver does (``rules.subscription_access``): ``error`` ``Unauthorized`` ``Not Authorized to access onCreateX on type
Subscription``, or events filtered to the caller's own records.

Faults: ``drop_after`` closes the TCP connection without a close frame after that many ``data`` messages on it;
``send_ka=False`` never sends ``ka``; ``refuse_starts`` answers the first N token-carrying ``start`` messages with
``error`` 401 ``UnauthorizedException`` ``Token has expired.`` (a token that expired between connecting and
starting) while the connection stays up; ``echo_auth`` makes every auth refusal repeat the auth header values it was
given (to prove that a client never prints them); ``ignore_goodbyes`` never answers ``stop`` (no ``complete``) nor the
client's close frame, and keeps the TCP connection open until the client drops it (a server that does not say goodbye). Each connection and subscription event is logged on stderr
(``appsync-local: realtime: connection N …``) so tests can wait for it. Secrets are never logged.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import queue
import socket
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.exceptions import ConnectionClosed
from websockets.frames import Opcode
from websockets.http11 import Request
from websockets.server import ServerProtocol
from websockets.sync.connection import Connection

from .auth import Refusal, header_value, identify
from .errors import AppSyncError
from .pubsub import Subscription, prepare_subscription
from .rules import Identity, subscription_access

PATH = "/graphql/realtime"
SUBPROTOCOL = "graphql-ws"
HEADER_PREFIX = "header-"


@dataclass(frozen=True)
class RealtimeOptions:
    """Runtime options of the real-time endpoint."""

    ka_seconds: float = 10.0
    send_ka: bool = True
    connection_timeout_ms: int = 300000
    drop_after: int = 0  # 0: never drop
    refuse_starts: int = 0  # refuse the first N starts that carry a token as expired (401); 0: never
    echo_auth: bool = False  # refusals repeat the auth header values they were given, as a broken server might
    ignore_goodbyes: bool = False  # never answer stop nor a close frame; hold the connection until the client drops it


_numbers = itertools.count(1)
_log_lock = threading.Lock()
_refused_starts = [0]  # starts refused by the refuse_starts fault, over every connection


def log(message: str) -> None:
    """One ``appsync-local: realtime: …`` line on stderr, flushed."""
    with _log_lock:
        sys.stderr.write(f"appsync-local: realtime: {message}\n")
        sys.stderr.flush()


def is_realtime_request(path: str, headers) -> bool:
    """Whether a GET is a WebSocket upgrade to the real-time path."""
    return path == PATH and "websocket" in (headers.get("Upgrade") or "").lower()


def _decode_header_object(text: str) -> list[tuple[str, str]] | None:
    """A base64 / base64url JSON object (padding optional) as header pairs, or None when it is not one."""
    try:
        raw = base64.b64decode(text.replace("-", "+").replace("_", "/") + "=" * (-len(text) % 4), validate=True)
        value = json.loads(raw)
    except (binascii.Error, ValueError):
        return None
    if not isinstance(value, dict):
        return None
    return [(str(name), str(item)) for name, item in value.items() if item is not None]


def auth_headers(raw_path: str, headers: list[tuple[str, str]]) -> list[tuple[str, str]] | Refusal:
    """The auth header object of an upgrade request: ``header-…`` subprotocol, ``header`` query parameter,
    or else the request's own headers."""
    offered = [p.strip() for value in (v for k, v in headers if k.lower() == "sec-websocket-protocol")
               for p in value.split(",")]
    encoded = next((p[len(HEADER_PREFIX):] for p in offered if p.startswith(HEADER_PREFIX)), None)
    if encoded is None:
        encoded = next(iter(parse_qs(urlsplit(raw_path).query).get("header", [])), None)
    if encoded is None:
        return headers
    decoded = _decode_header_object(encoded)
    if decoded is None:
        return Refusal(400, "BadRequestException", "The auth header is not base64-encoded JSON.")
    return decoded


def upgrade(handler, protocol: ServerProtocol, subprotocol: str) -> bool:
    """Completes the WebSocket handshake of the request the HTTP server already read, refusing it without
    ``subprotocol``; True when the connection was upgraded."""
    request_headers = list(handler.headers.items())
    # The HTTP server already read the request; give its bytes to the protocol's parser, as if from the socket.
    head = f"GET {handler.path} HTTP/1.1\r\n" + "".join(f"{name}: {value}\r\n" for name, value in request_headers)
    protocol.receive_data((head + "\r\n").encode("latin-1"))
    request = next((event for event in protocol.events_received() if isinstance(event, Request)), None)
    if request is None:
        handler.send_error(400, "Bad WebSocket upgrade request")
        return False
    response = protocol.accept(request)
    if response.status_code == 101 and protocol.subprotocol != subprotocol:
        response = protocol.reject(400, f"The {subprotocol} subprotocol is required.\n")
    protocol.send_response(response)
    handler.wfile.write(b"".join(protocol.data_to_send()))
    handler.wfile.flush()
    return response.status_code == 101


def serve_realtime(handler, app, options) -> None:
    """Upgrades the handler's connection and runs the session until it closes."""
    protocol = (_DeafProtocol if options.realtime.ignore_goodbyes else ServerProtocol)(subprotocols=[SUBPROTOCOL])
    if upgrade(handler, protocol, SUBPROTOCOL):
        Session(handler.connection, protocol, app, options, auth_headers(handler.path, list(handler.headers.items()))).run()


class _DeafProtocol(ServerProtocol):
    """The ``ignore_goodbyes`` fault: the close frame and the end of the TCP stream that answer a client's close frame
    are never sent."""

    def send_frame(self, frame) -> None:
        if frame.opcode is not Opcode.CLOSE:
            super().send_frame(frame)

    def send_eof(self) -> None:
        self.eof_sent = True  # as far as the protocol knows; the client never sees it


class OutboxSession:
    """One WebSocket connection: a reader (this thread) that hands each JSON object to ``_handle`` (anything else to
    ``_not_an_object``), and a writer thread that sends what is put in the outbox. Once acknowledged the writer sends a
    ``ka`` every ``ka_seconds`` (with ``send_ka``, and until goodbyes are ignored); with ``drop_after`` it drops the
    connection after that many data messages (the ``--ws-drop-after`` fault)."""

    def __init__(self, sock: socket.socket, protocol: ServerProtocol, connect_auth, *, number: int, say,
                 ka_seconds: float, drop_after: int, send_ka: bool = True, close_timeout: float = 2) -> None:
        self.number = number
        self.sock = sock
        self.connect_auth = connect_auth
        self.connection = Connection(sock, protocol, ping_interval=None, ping_timeout=None, close_timeout=close_timeout)
        self.outbox: queue.Queue = queue.Queue()
        self.acknowledged = False
        self.goodbyes_ignored = False
        self._say = say
        self._ka_seconds = ka_seconds
        self._drop_after = drop_after
        self._send_ka = send_ka

    def run(self) -> None:
        self._say(f"connection {self.number} opened")
        writer = threading.Thread(target=self._write, daemon=True)
        writer.start()
        try:
            for text in self.connection:
                try:
                    message = json.loads(text)
                except ValueError:
                    message = None
                if isinstance(message, dict):
                    self._handle(message)
                else:
                    self._not_an_object()
        except ConnectionClosed:
            pass
        finally:
            self._closed()
            self.outbox.put(None)
            writer.join()
            self._say(f"connection {self.number} closed")

    def _handle(self, message: dict) -> None:
        raise NotImplementedError

    def _not_an_object(self) -> None:
        raise NotImplementedError

    def _closed(self) -> None:
        """Forgets the connection's subscriptions."""

    def _send(self, message: dict) -> None:
        self.outbox.put((message, None))

    def _write(self) -> None:
        next_ka: float | None = None
        delivered = 0
        try:
            while True:
                timeout = None if next_ka is None else max(0.0, next_ka - time.monotonic())
                try:
                    item = self.outbox.get(timeout=timeout)
                except queue.Empty:
                    if self.goodbyes_ignored:
                        next_ka = None
                        continue
                    self.connection.send('{"type":"ka"}')
                    next_ka = (next_ka or time.monotonic()) + self._ka_seconds
                    continue
                if item is None:
                    return
                message, kind = item
                self.connection.send(json.dumps(message, ensure_ascii=False))
                if kind == "close":
                    self.connection.close()
                    return
                if kind == "ack" and self._send_ka and next_ka is None:
                    self.connection.send('{"type":"ka"}')
                    next_ka = time.monotonic() + self._ka_seconds
                if kind == "data":
                    delivered += 1
                    if self._drop_after and delivered >= self._drop_after:
                        self._say(f"connection {self.number} dropped after {delivered} events")
                        self.sock.shutdown(socket.SHUT_RDWR)
                        return
        except (ConnectionClosed, OSError):
            return


class Session(OutboxSession):
    """An AppSync real-time connection (the graphql-ws dialect AppSync speaks)."""

    def __init__(self, sock: socket.socket, protocol: ServerProtocol, app, options,
                 connect_auth: list[tuple[str, str]] | Refusal) -> None:
        realtime: RealtimeOptions = options.realtime
        # A server that ignores goodbyes waits (almost) forever for the client to drop the connection.
        super().__init__(sock, protocol, connect_auth, number=next(_numbers), say=log, ka_seconds=realtime.ka_seconds,
                         drop_after=realtime.drop_after, send_ka=realtime.send_ka,
                         close_timeout=3600 if realtime.ignore_goodbyes else 2)
        self.app = app
        self.options = options
        self.realtime = realtime

    def _closed(self) -> None:
        for subscription in self.app.pubsub.remove_connection(self.number):
            log(f"connection {self.number} stopped {subscription.id} {subscription.field_name}")

    # Reading

    def _not_an_object(self) -> None:
        self._send_error(None, "BadRequestException", "A message must be a JSON object.")

    def _handle(self, message: dict) -> None:
        kind, identifier = message.get("type"), message.get("id")
        if kind == "connection_init":
            self._connection_init()
        elif kind == "start" and isinstance(identifier, str):
            self._start(identifier, message.get("payload"))
        elif kind == "stop" and isinstance(identifier, str):
            self._stop(identifier)
        else:
            self._send_error(identifier if isinstance(identifier, str) else None, "UnsupportedOperation",
                             f"{kind} not supported through the realtime channel")

    def _connection_init(self) -> None:
        refusal = self.connect_auth if isinstance(self.connect_auth, Refusal) else self._check(
            "/graphql/connect", self.connect_auth, b"{}")[0]
        if refusal is not None:
            log(f"connection {self.number} refused: {refusal.error_type}")
            given = [] if isinstance(self.connect_auth, Refusal) else self.connect_auth
            error = {"errorType": refusal.error_type, "message": self._echoing(refusal.message, given),
                     "errorCode": refusal.status}
            self.outbox.put(({"type": "connection_error", "payload": {"errors": [error]}}, "close"))
            return
        self.acknowledged = True
        log(f"connection {self.number} acknowledged")
        self.outbox.put(({"type": "connection_ack",
                          "payload": {"connectionTimeoutMs": self.realtime.connection_timeout_ms}}, "ack"))

    def _start(self, identifier: str, payload: Any) -> None:
        if not self.acknowledged:
            self._send_error(identifier, "BadRequestException", "Send connection_init before start.")
            return
        payload = payload if isinstance(payload, dict) else {}
        data = payload.get("data")
        extensions = payload.get("extensions")
        authorization = extensions.get("authorization") if isinstance(extensions, dict) else None
        headers = [(str(k), str(v)) for k, v in authorization.items() if v is not None] \
            if isinstance(authorization, dict) else []
        refusal, identity = self._check("/graphql", headers, data.encode() if isinstance(data, str) else b"")
        if refusal is None and self._refuses_start(headers):
            refusal = Refusal(401, "UnauthorizedException", "Token has expired.")
        if refusal is not None:
            log(f"connection {self.number} refused {identifier}: {refusal.error_type}")
            self._send_error(identifier, refusal.error_type, self._echoing(refusal.message, headers))
            return
        fields, errors = prepare_subscription(self.app.graphql_schema, data)
        if errors:
            self._send({"type": "error", "id": identifier, "payload": {"errors": errors}})
            return
        listener = self.app.pubsub.listeners.get(fields["field_name"])
        model = self.app.schema.models.get(listener[0]) if listener else None
        try:
            access = subscription_access(model, identity, fields["arguments"], fields["field_name"]) if model else None
        except AppSyncError as denial:
            log(f"connection {self.number} refused {identifier}: {denial.error_type}")
            self._send_error(identifier, denial.error_type, str(denial))
            return
        subscription = Subscription(id=identifier, deliver=self._deliver, connection=self.number, access=access,
                                    **fields)
        with self.app.lock:  # no mutation publishes between registering and start_ack
            if not self.app.pubsub.add(subscription):
                self._send_error(identifier, "DuplicatedOperationError",
                                 f"A subscription with id {identifier} is already started on this connection.")
                return
            log(f"connection {self.number} started {identifier} {subscription.field_name}")
            self._send({"type": "start_ack", "id": identifier})

    def _stop(self, identifier: str) -> None:
        if self.realtime.ignore_goodbyes:
            self.goodbyes_ignored = True  # no more ka either: the connection looks alive but says nothing
            log(f"connection {self.number} ignored stop {identifier}")
            return
        subscription = self.app.pubsub.remove(self.number, identifier)
        if subscription is not None:
            log(f"connection {self.number} stopped {identifier} {subscription.field_name}")
        self._send({"type": "complete", "id": identifier})

    def _check(self, path: str, headers: list[tuple[str, str]], body: bytes) -> tuple[Refusal | None, Identity | None]:
        # As over HTTP: with a user pool, a token in Authorization is checked as one (signature, expiry, issuer).
        return identify(self.options.auth_policy(), "POST", path, headers, body, self.options.clock(),
                        on_verified=lambda key_id: log(f"connection {self.number} signed by {key_id}"))

    def _echoing(self, message: str, headers: list[tuple[str, str]]) -> str:
        """With ``echo_auth``, the refusal's message followed by the auth header values it was given."""
        if not self.realtime.echo_auth:
            return message
        return f"{message} (given: {' '.join(value for _, value in headers)})"

    def _refuses_start(self, headers: list[tuple[str, str]]) -> bool:
        """The ``refuse_starts`` fault: the first N starts that carry a token are refused as expired."""
        if not self.realtime.refuse_starts or not header_value(headers, "authorization"):
            return False
        with _log_lock:
            _refused_starts[0] += 1
            return _refused_starts[0] <= self.realtime.refuse_starts

    # Writing (all through the outbox, so messages keep their order)

    def _deliver(self, subscription: Subscription, payload: dict) -> None:
        self.outbox.put(({"type": "data", "id": subscription.id, "payload": payload}, "data"))

    def _send_error(self, identifier: str | None, error_type: str, message: str) -> None:
        error = {"type": "error", "payload": {"errors": [{"errorType": error_type, "message": message}]}}
        if identifier is not None:
            error["id"] = identifier
        self.outbox.put((error, None))
