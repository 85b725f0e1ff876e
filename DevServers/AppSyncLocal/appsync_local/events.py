"""An AppSync Events API on the HTTP port: ``POST /event`` and the WebSocket protocol at ``GET /event/realtime``.

As AWS documents it ("Publish events via HTTP", "Understanding the Event API WebSocket protocol"):
- Channels are ``/NAMESPACE/segment/…`` (the leading ``/`` optional), 1 to 5 segments of letters, digits and ``-``,
  each at most 50 characters, in a namespace the API has (``--events-namespace``, ``default`` unless given).
  A subscription may end in ``*``: ``/default/*`` receives every channel below ``/default``.
- HTTP publish: ``{"channel", "events": ["<JSON string>", …]}`` (1 to 5 events, each a JSON text of at most
  240 KB) → ``{"successful": [{"identifier", "index"}], "failed": []}``; a bad request is HTTP 400
  ``BadRequestException``. Auth as for GraphQL: ``x-api-key``, a user-pool token, or SigV4 over ``POST /event``.
- WebSocket, subprotocol ``aws-appsync-event-ws`` (the auth header object as the ``header-<base64url>``
  subprotocol, signed over ``POST /event`` with body ``{}``): ``connection_init`` → ``connection_ack``
  ``{"connectionTimeoutMs"}`` then ``ka``; ``subscribe`` ``{id, channel, authorization}`` →
  ``subscribe_success`` / ``subscribe_error`` ``{id, errors: [{errorType, message}]}``; ``data`` ``{id, event:
  "<JSON string>"}`` per event published to a matching channel; ``unsubscribe`` ``{id}`` →
  ``unsubscribe_success``; ``publish`` ``{id, channel, events, authorization}`` → ``publish_success``
  ``{id, successful, failed}`` / ``publish_error``. The ``authorization`` of a subscribe is signed over
  ``{"channel": …}``, of a publish over ``{"channel": …, "events": […]}``.

Every connection, subscription and publish is logged on stderr (``appsync-local: events: …``). Secrets never are.
"""

from __future__ import annotations

import itertools
import json
import re
import socket
import threading
import uuid
from dataclasses import dataclass, field
from typing import Any

from websockets.server import ServerProtocol

from .auth import Refusal, identify
from .realtime import OutboxSession, auth_headers, upgrade

HTTP_PATH = "/event"
REALTIME_PATH = "/event/realtime"
SUBPROTOCOL = "aws-appsync-event-ws"
MAX_EVENTS = 5
MAX_EVENT_BYTES = 240 * 1024
_SEGMENT = re.compile(r"^[A-Za-z0-9-]{1,50}$")
_numbers = itertools.count(1)


@dataclass(frozen=True)
class EventsOptions:
    """The namespaces of the Events API; none turns it off."""

    namespaces: tuple[str, ...] = ("default",)
    ka_seconds: float = 10.0
    connection_timeout_ms: int = 300000


def _log(message: str) -> None:
    import sys
    sys.stderr.write(f"appsync-local: events: {message}\n")
    sys.stderr.flush()


def channel_segments(channel: Any, namespaces: tuple[str, ...], wildcard: bool) -> list[str] | str:
    """The channel's segments, or why it is not a channel of this API."""
    if not isinstance(channel, str) or not channel.strip("/"):
        return "A channel is a path such as /default/room."
    segments = channel.strip("/").split("/")
    if wildcard and segments[-1] == "*":
        segments = segments[:-1]
        if not segments:
            return "A wildcard needs a namespace before it: /default/*."
    if len(segments) > 5 or not all(_SEGMENT.match(segment) for segment in segments):
        return f"Invalid channel {channel}: 1 to 5 segments of letters, digits and '-', at most 50 characters each."
    if segments[0] not in namespaces:
        return f"Namespace {segments[0]} does not exist."
    return segments + (["*"] if wildcard and channel.rstrip("/").endswith("*") else [])


def matches(pattern: list[str], channel: list[str]) -> bool:
    """Whether a subscription's channel (perhaps ending in ``*``) receives events published to ``channel``."""
    if pattern and pattern[-1] == "*":
        prefix = pattern[:-1]
        return channel[:len(prefix)] == prefix and len(channel) >= len(prefix)
    return pattern == channel


def check_events(events: Any) -> str | None:
    """Why a publish's events are refused, or None."""
    if not isinstance(events, list) or not 1 <= len(events) <= MAX_EVENTS:
        return f"A publish carries 1 to {MAX_EVENTS} events."
    for index, event in enumerate(events):
        if not isinstance(event, str):
            return f"Event {index} is not a string: each event is a JSON text in a string."
        if len(event.encode()) > MAX_EVENT_BYTES:
            return f"Event {index} is larger than 240 KB."
        try:
            json.loads(event)
        except ValueError:
            return f"Event {index} is not valid JSON."
    return None


@dataclass
class _Subscriber:
    connection: int
    id: str
    pattern: list[str]
    deliver: Any


@dataclass
class EventsHub:
    """The subscriptions of every connection; a publish reaches each matching one."""

    options: EventsOptions
    lock: threading.Lock = field(default_factory=threading.Lock)
    subscribers: list[_Subscriber] = field(default_factory=list)

    def publish(self, channel: list[str], events: list[str]) -> dict:
        successful = []
        with self.lock:
            targets = [s for s in self.subscribers if matches(s.pattern, channel)]
        for index, event in enumerate(events):
            successful.append({"identifier": str(uuid.uuid4()), "index": index})
            for target in targets:
                target.deliver(target.id, event)
        _log(f"published {len(events)} to /{'/'.join(channel)} ({len(targets)} subscriptions)")
        return {"successful": successful, "failed": []}


def handle_http(handler, hub: EventsHub, options, body: bytes) -> tuple[int, dict]:
    """``POST /event``: the status and JSON body to answer."""
    headers = list(handler.headers.items())
    refusal, _ = identify(options.auth_policy(), "POST", HTTP_PATH, headers, body, options.clock())
    if refusal is not None:
        return refusal.status, {"errors": [{"errorType": refusal.error_type, "message": refusal.message}]}
    try:
        request = json.loads(body)
    except ValueError:
        return 400, {"errors": [{"errorType": "BadRequestException", "message": "The body is not JSON."}]}
    if not isinstance(request, dict):
        return 400, {"errors": [{"errorType": "BadRequestException", "message": "The body is not a JSON object."}]}
    segments = channel_segments(request.get("channel"), options.events.namespaces, wildcard=False)
    problem = segments if isinstance(segments, str) else check_events(request.get("events"))
    if problem:
        return 400, {"errors": [{"errorType": "BadRequestException", "message": problem}]}
    return 200, hub.publish(segments, request["events"])


def is_events_request(path: str, headers) -> bool:
    return path == REALTIME_PATH and "websocket" in (headers.get("Upgrade") or "").lower()


def serve_events(handler, hub: EventsHub, options) -> None:
    """Upgrades the handler's connection and runs the Events session until it closes."""
    protocol = ServerProtocol(subprotocols=[SUBPROTOCOL])
    if upgrade(handler, protocol, SUBPROTOCOL):
        _Session(handler.connection, protocol, hub, options, auth_headers(handler.path, list(handler.headers.items()))).run()


class _Session(OutboxSession):
    """An AppSync Events connection: subscribe, unsubscribe and publish over the socket."""

    def __init__(self, sock: socket.socket, protocol: ServerProtocol, hub: EventsHub, options, connect_auth) -> None:
        # --ws-drop-after applies here too.
        super().__init__(sock, protocol, connect_auth, number=next(_numbers), say=_log,
                         ka_seconds=options.events.ka_seconds, drop_after=options.realtime.drop_after)
        self.hub = hub
        self.options = options
        self.ids: set[str] = set()

    def _closed(self) -> None:
        with self.hub.lock:
            self.hub.subscribers = [s for s in self.hub.subscribers if s.connection != self.number]

    def _check(self, headers: Any, body: bytes) -> Refusal | None:
        pairs = [(str(k), str(v)) for k, v in headers.items() if v is not None] if isinstance(headers, dict) else []
        return identify(self.options.auth_policy(), "POST", HTTP_PATH, pairs, body, self.options.clock())[0]

    def _not_an_object(self) -> None:
        self._send({"type": "error", "errors": [{"errorType": "BadRequestException",
                                                 "message": "A message must be a JSON object."}]})

    def _handle(self, message: dict) -> None:
        kind, identifier = message.get("type"), message.get("id")
        if kind == "connection_init":
            self._connection_init()
        elif not self.acknowledged:
            self._send({"type": "error", "errors": [{"errorType": "BadRequestException",
                                                     "message": "Send connection_init first."}]})
        elif kind == "subscribe" and isinstance(identifier, str):
            self._subscribe(identifier, message)
        elif kind == "unsubscribe" and isinstance(identifier, str):
            self._unsubscribe(identifier)
        elif kind == "publish" and isinstance(identifier, str):
            self._publish(identifier, message)
        else:
            self._send({"type": "error", "id": identifier, "errors": [
                {"errorType": "UnsupportedOperation", "message": f"{kind} is not supported."}]})

    def _connection_init(self) -> None:
        refusal = self.connect_auth if isinstance(self.connect_auth, Refusal) else self._check(
            dict(self.connect_auth), b"{}")
        if refusal is not None:
            _log(f"connection {self.number} refused: {refusal.error_type}")
            self.outbox.put(({"type": "connection_error", "errors": [
                {"errorType": refusal.error_type, "message": refusal.message}]}, "close"))
            return
        self.acknowledged = True
        _log(f"connection {self.number} acknowledged")
        self.outbox.put(({"type": "connection_ack",
                          "connectionTimeoutMs": self.options.events.connection_timeout_ms}, "ack"))

    def _subscribe(self, identifier: str, message: dict) -> None:
        channel = message.get("channel")
        body = json.dumps({"channel": channel}, separators=(",", ":"), ensure_ascii=False).encode()
        refusal = self._check(message.get("authorization"), body)
        segments = channel_segments(channel, self.options.events.namespaces, wildcard=True)
        error = None
        if refusal is not None:
            error = {"errorType": refusal.error_type, "message": refusal.message}
        elif isinstance(segments, str):
            error = {"errorType": "BadRequestException", "message": segments}
        elif identifier in self.ids:
            error = {"errorType": "DuplicatedOperationError", "message": f"Subscription {identifier} exists."}
        if error:
            _log(f"connection {self.number} refused {identifier}: {error['errorType']}")
            self._send({"type": "subscribe_error", "id": identifier, "errors": [error]})
            return
        with self.hub.lock:
            self.ids.add(identifier)
            self.hub.subscribers.append(_Subscriber(self.number, identifier, segments, self._deliver))
            _log(f"connection {self.number} subscribed {identifier} {channel}")
            self._send({"type": "subscribe_success", "id": identifier})

    def _unsubscribe(self, identifier: str) -> None:
        with self.hub.lock:
            self.hub.subscribers = [s for s in self.hub.subscribers
                                           if not (s.connection == self.number and s.id == identifier)]
            self.ids.discard(identifier)
        _log(f"connection {self.number} unsubscribed {identifier}")
        self._send({"type": "unsubscribe_success", "id": identifier})

    def _publish(self, identifier: str, message: dict) -> None:
        channel, events = message.get("channel"), message.get("events")
        body = json.dumps({"channel": channel, "events": events}, separators=(",", ":"), ensure_ascii=False).encode()
        refusal = self._check(message.get("authorization"), body)
        segments = channel_segments(channel, self.options.events.namespaces, wildcard=False)
        problem = segments if isinstance(segments, str) else check_events(events)
        if refusal is not None or problem:
            error = ({"errorType": refusal.error_type, "message": refusal.message} if refusal is not None
                     else {"errorType": "BadRequestException", "message": problem})
            self._send({"type": "publish_error", "id": identifier, "errors": [error]})
            return
        result = self.hub.publish(segments, events)
        self._send({"type": "publish_success", "id": identifier, **result})

    def _deliver(self, identifier: str, event: str) -> None:
        self.outbox.put(({"type": "data", "id": identifier, "event": event}, "data"))
