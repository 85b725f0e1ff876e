"""appsync-local's AppSync Events API, spoken to by a client written from AWS's protocol documentation alone
("Understanding the Event API WebSocket protocol", "Publish events via HTTP", "Publish events via WebSocket" in the
AWS AppSync Events developer guide), independently of gqlc, so that gqlc and the server cannot agree on a wrong
protocol: subprotocols ``aws-appsync-event-ws`` and ``header-<base64url(auth)>``; ``connection_init`` →
``connection_ack``; ``subscribe`` {id, channel, authorization} → ``subscribe_success``; ``data`` {id, event: JSON
text}; ``publish`` → ``publish_success`` {successful: [{identifier, index}], failed}; ``unsubscribe`` →
``unsubscribe_success``; HTTP ``POST /event`` {channel, events: [JSON text, …]} (at most 5 events)."""

from __future__ import annotations

import base64
import http.client
import json

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from harness import start_server
from local_app import EXAMPLES

KEY = "da2-eventsapikey0123456789"
WAIT = 10  # seconds: a bound for a failing test only; every wait ends on a message


@pytest.fixture(scope="module")
def server():
    handle = start_server(EXAMPLES / "blog.json", api_key=KEY, args=("--events-namespace", "default",
                                                                     "--events-namespace", "chat"))
    yield handle
    handle.stop()


def auth(server, key=KEY):
    return {"host": f"{server.host}:{server.port}", "x-api-key": key}


def header_subprotocol(value: dict) -> str:
    return "header-" + base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


class EventsClient:
    def __init__(self, server, key=KEY):
        self.auth = auth(server, key)
        url = f"ws://{server.host}:{server.port}/event/realtime"
        self.ws = connect(url, subprotocols=["aws-appsync-event-ws", header_subprotocol(self.auth)], open_timeout=WAIT, legacy=True)
        self.ws.send(json.dumps({"type": "connection_init"}))

    def next(self, kind=None):
        while True:
            message = json.loads(self.ws.recv(timeout=WAIT))
            if message["type"] != "ka" and (kind is None or message["type"] == kind):
                return message

    def close(self):
        self.ws.close()


def http_publish(server, channel, events, key=KEY):
    connection = http.client.HTTPConnection(server.host, server.port, timeout=WAIT)
    body = json.dumps({"channel": channel, "events": [json.dumps(event) for event in events]})
    connection.request("POST", "/event", body=body, headers={"Content-Type": "application/json", "x-api-key": key})
    response = connection.getresponse()
    return response.status, json.loads(response.read())


def test_subscribe_then_receive_what_http_and_websocket_publishes_send(server):
    client = EventsClient(server)
    assert client.next()["type"] == "connection_ack"
    client.ws.send(json.dumps({"type": "subscribe", "id": "s1", "channel": "/default/*", "authorization": client.auth}))
    assert client.next() == {"type": "subscribe_success", "id": "s1"}
    status, answer = http_publish(server, "/default/room", [{"text": "hello"}, {"n": 2}])
    assert status == 200
    assert [entry["index"] for entry in answer["successful"]] == [0, 1] and answer["failed"] == []
    for expected in ({"text": "hello"}, {"n": 2}):
        message = client.next("data")
        assert message["id"] == "s1" and json.loads(message["event"]) == expected
    client.ws.send(json.dumps({"type": "publish", "id": "p1", "channel": "/default/room/sub",
                               "events": [json.dumps({"ws": True})], "authorization": client.auth}))
    first, second = client.next(), client.next()
    by_type = {first["type"]: first, second["type"]: second}
    assert json.loads(by_type["data"]["event"]) == {"ws": True}
    assert by_type["publish_success"]["id"] == "p1" and len(by_type["publish_success"]["successful"]) == 1
    client.ws.send(json.dumps({"type": "unsubscribe", "id": "s1"}))
    assert client.next() == {"type": "unsubscribe_success", "id": "s1"}
    client.close()


def test_an_exact_channel_hears_only_itself(server):
    client = EventsClient(server)
    client.next("connection_ack")
    client.ws.send(json.dumps({"type": "subscribe", "id": "x", "channel": "/chat/a", "authorization": client.auth}))
    client.next("subscribe_success")
    http_publish(server, "/chat/b", [{"to": "b"}])
    http_publish(server, "/chat/a", [{"to": "a"}])
    assert json.loads(client.next("data")["event"]) == {"to": "a"}
    client.close()


@pytest.mark.parametrize("channel, events, fragment", [
    ("/default/room", [{}] * 6, "1 to 5 events"),
    ("/nowhere/room", [{}], "Namespace nowhere does not exist"),
    ("/default/bad channel", [{}], "Invalid channel"),
    ("/default/room", [{"big": "x" * (240 * 1024)}], "larger than 240 KB"),
])
def test_http_publish_refuses_what_appsync_refuses(server, channel, events, fragment):
    status, answer = http_publish(server, channel, events)
    assert status == 400 and fragment in answer["errors"][0]["message"], answer


def test_a_wrong_key_is_refused_over_http_and_at_connection_init(server):
    status, answer = http_publish(server, "/default/room", [{}], key="da2-wrongkey000000000000")
    assert status == 401, answer
    client = EventsClient(server, key="da2-wrongkey000000000000")
    message = client.next()
    assert message["type"] == "connection_error" and message["errors"][0]["errorType"] == "UnauthorizedException"


def test_the_event_subprotocol_is_required(server):
    with pytest.raises(InvalidStatus):
        connect(f"ws://{server.host}:{server.port}/event/realtime", subprotocols=["graphql-ws"], open_timeout=WAIT, legacy=True)


def test_a_subscribe_to_an_unknown_namespace_fails_with_subscribe_error(server):
    client = EventsClient(server)
    client.next("connection_ack")
    client.ws.send(json.dumps({"type": "subscribe", "id": "u", "channel": "/nope/*", "authorization": client.auth}))
    message = client.next()
    assert message["type"] == "subscribe_error" and message["id"] == "u"
    client.close()
