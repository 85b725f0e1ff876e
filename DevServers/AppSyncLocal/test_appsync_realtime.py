"""appsync-local's real-time endpoint, spoken to with the websockets client the way Amplify speaks to AppSync.

Protocol facts (shared research note, amplify-appsync-conventions.md §5.4): subprotocol graphql-ws, the auth header
object as a ``header-<base64url>`` subprotocol or the classic ``?header=…&payload=e30=`` query, connection_init →
connection_ack (connectionTimeoutMs) → ka → start (payload.data a JSON string, extensions.authorization) →
start_ack → data → stop → complete; errors as ``{"errors": [{"errorType", "message"}]}``.
"""

from __future__ import annotations

import base64
import json
import time
from datetime import datetime, timezone
from urllib.parse import quote

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from harness import SHARED_FIXTURES, ServerHandle, start_server
from local_app import EXAMPLES
from sigv4_support import sign
from appsync_local.sigv4 import IAMCredentials

BLOG = EXAMPLES / "blog.json"
SEED = EXAMPLES / "blog-seed.json"
KEY = "da2-realtimekey"
IAM = IAMCredentials("AKIDREALTIME", "realtimeSecret")
WAIT = 10  # seconds: a bound for a failing test only; every wait below ends on an event

POST_FIELDS = "id title rating"
CREATE = "mutation($input: CreatePostInput!) { createPost(input: $input) { id title content rating tags } }"


def b64url(value: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


class Client:
    """One real-time connection."""

    def __init__(self, server: ServerHandle, header: dict | None = None, form: str = "subprotocol",
                 extra_headers: dict | None = None) -> None:
        self.server = server
        self.host = f"{server.host}:{server.port}"
        self.header = header if header is not None else self.api_key_header(server.api_key)
        url = server.realtime_url
        subprotocols = ["graphql-ws"]
        headers = dict(extra_headers or {})
        if form == "subprotocol":
            subprotocols.append("header-" + b64url(self.header))
        elif form == "query":
            encoded = base64.b64encode(json.dumps(self.header).encode()).decode()
            url += f"?header={quote(encoded)}&payload=e30="
        else:  # "headers": the auth keys as upgrade headers (amplify-swift)
            headers.update({k: v for k, v in self.header.items() if k != "host"})
        self.ws: ClientConnection = connect(url, subprotocols=subprotocols, additional_headers=headers,
                                            open_timeout=WAIT, legacy=True)

    def api_key_header(self, key: str | None) -> dict:
        return {"host": self.host, **({"x-api-key": key} if key is not None else {})}

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, keep_ka: bool = False) -> dict:
        """The next message (``ka`` skipped unless ``keep_ka``)."""
        while True:
            message = json.loads(self.ws.recv(timeout=WAIT))
            if keep_ka or message.get("type") != "ka":
                return message

    def init(self) -> dict:
        self.send({"type": "connection_init"})
        return self.recv()

    def start(self, query: str, identifier: str = "s1", variables: dict | None = None,
              authorization: dict | None = None, data: str | None = None) -> dict:
        data = data if data is not None else json.dumps({"query": query, "variables": variables or {}})
        auth = authorization if authorization is not None else self.header
        self.send({"id": identifier, "type": "start",
                   "payload": {"data": data, "extensions": {"authorization": auth}}})
        return self.recv()

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def server():
    with start_server(BLOG, seed=SEED, api_key=KEY, args=("--ws-ka-seconds", "60")) as handle:
        yield handle


@pytest.fixture
def client(server):
    connection = Client(server)
    assert connection.init()["type"] == "connection_ack"
    yield connection
    connection.close()


def create_post(server: ServerHandle, **fields) -> dict:
    body = server.graphql(CREATE, {"input": fields})
    assert "errors" not in body, body
    return body["data"]["createPost"]


def wait_for_log(server: ServerHandle, text: str) -> str:
    deadline = time.monotonic() + WAIT
    while text not in server.stderr_text():
        assert time.monotonic() < deadline, f"no {text!r} in: {server.stderr_text()}"
        time.sleep(0.02)
    return server.stderr_text()


# Handshake and keep-alive

def test_handshake_selects_graphql_ws_and_acks_with_the_connection_timeout_then_sends_ka(server):
    client = Client(server)
    assert client.ws.subprotocol == "graphql-ws"
    client.send({"type": "connection_init"})
    assert client.recv(keep_ka=True) == {"type": "connection_ack", "payload": {"connectionTimeoutMs": 300000}}
    assert client.recv(keep_ka=True) == {"type": "ka"}
    client.close()


def test_ka_every_interval_and_announced_timeout():
    with start_server(BLOG, api_key=KEY, args=("--ws-ka-seconds", "0.05", "--ws-connection-timeout-ms", "1500")) \
            as server:
        client = Client(server)
        before_ack = time.monotonic()
        assert client.init() == {"type": "connection_ack", "payload": {"connectionTimeoutMs": 1500}}
        assert [client.recv(keep_ka=True) for _ in range(5)] == [{"type": "ka"}] * 5
        assert time.monotonic() - before_ack >= 4 * 0.05  # one right after the ack, then one per period
        client.close()


@pytest.mark.parametrize("no_ka", [False, True])
def test_no_ka_flag_sends_none(no_ka):
    args = ("--ws-ka-seconds", "0.01") + (("--ws-no-ka",) if no_ka else ())
    with start_server(BLOG, api_key=KEY, args=args) as server:
        client = Client(server)
        client.send({"type": "connection_init"})
        seen = [client.recv(keep_ka=True)]
        client.send({"id": "s1", "type": "start", "payload": {
            "data": json.dumps({"query": "subscription { onCreatePost { id } }"}),
            "extensions": {"authorization": client.header}}})
        while seen[-1]["type"] != "start_ack":
            seen.append(client.recv(keep_ka=True))
        for number in range(3):
            create_post(server, title=f"t{number}")
        while len([m for m in seen if m["type"] == "data"]) < 3:
            seen.append(client.recv(keep_ka=True))
        assert seen[0]["type"] == "connection_ack"
        assert any(m["type"] == "ka" for m in seen) is not no_ka
        client.close()


def test_the_graphql_ws_subprotocol_is_required(server):
    with pytest.raises(InvalidStatus) as caught:
        connect(server.realtime_url, open_timeout=WAIT, legacy=True)
    assert caught.value.response.status_code == 400


# Auth

@pytest.mark.parametrize("form", ["subprotocol", "query", "headers"])
def test_api_key_in_each_form_is_accepted(server, form):
    client = Client(server, form=form)
    assert client.init()["type"] == "connection_ack"
    assert client.start(f"subscription {{ onCreatePost {{ {POST_FIELDS} }} }}") == {"type": "start_ack", "id": "s1"}
    client.close()


@pytest.mark.parametrize("form", ["subprotocol", "query", "headers"])
@pytest.mark.parametrize("key, message", [("da2-wrong", "You are not authorized to make this call."),
                                          (None, "Valid authorization header not provided.")])
def test_wrong_or_missing_key_gets_connection_error_and_close(server, form, key, message):
    client = Client(server, header={"host": f"{server.host}:{server.port}",
                                    **({"x-api-key": key} if key else {})}, form=form)
    assert client.init() == {"type": "connection_error", "payload": {"errors": [
        {"errorType": "UnauthorizedException", "message": message, "errorCode": 401}]}}
    with pytest.raises(ConnectionClosed):
        client.recv()
    assert "connection 1 refused: UnauthorizedException" in server.stderr_text()
    assert "da2-wrong" not in server.stderr_text()


def test_undecodable_header_is_a_bad_request(server):
    ws = connect(server.realtime_url, subprotocols=["graphql-ws", "header-%%%"],
                 open_timeout=WAIT, legacy=True)
    ws.send(json.dumps({"type": "connection_init"}))
    error = json.loads(ws.recv(timeout=WAIT))["payload"]["errors"][0]
    assert (error["errorType"], error["errorCode"]) == ("BadRequestException", 400)
    ws.close()


def test_start_is_checked_again_with_its_own_authorization(client):
    answer = client.start(f"subscription {{ onCreatePost {{ {POST_FIELDS} }} }}",
                          authorization={"host": client.host, "x-api-key": "da2-wrong"})
    assert answer == {"type": "error", "id": "s1", "payload": {"errors": [
        {"errorType": "UnauthorizedException", "message": "You are not authorized to make this call."}]}}


def iam_server():
    return start_server(BLOG, args=("--iam-credentials", f"{IAM.access_key_id}:{IAM.secret_access_key}"))


def signed(host: str, path: str, body: bytes) -> dict:
    """The header object of an IAM connection or start: the signed headers of a POST (Amplify's form)."""
    return dict(sign(IAM, when=datetime.now(timezone.utc), region="us-east-1", body=body, host=host, path=path))


def test_sigv4_connect_over_connect_path_and_start_over_its_data():
    with iam_server() as server:
        host = f"{server.host}:{server.port}"
        client = Client(server, header=signed(host, "/graphql/connect", b"{}"))
        assert client.init()["type"] == "connection_ack"
        data = json.dumps({"query": f"subscription {{ onCreatePost {{ {POST_FIELDS} }} }}", "variables": {}})
        assert client.start("", data=data, authorization=signed(host, "/graphql", data.encode())) == \
            {"type": "start_ack", "id": "s1"}
        other = json.dumps({"query": "subscription { onDeletePost { id } }", "variables": {}})
        refused = client.start("", identifier="s2", data=other, authorization=signed(host, "/graphql", data.encode()))
        assert (refused["id"], refused["payload"]["errors"][0]["errorType"]) == ("s2", "InvalidSignatureException")
        client.close()


@pytest.mark.parametrize("path, body", [("/graphql", b"{}"), ("/graphql/connect", b"")])
def test_sigv4_connect_signed_over_anything_else_is_refused(path, body):
    with iam_server() as server:
        client = Client(server, header=signed(f"{server.host}:{server.port}", path, body))
        error = client.init()
        assert error["type"] == "connection_error"
        assert error["payload"]["errors"][0]["errorType"] == "InvalidSignatureException"
        assert error["payload"]["errors"][0]["errorCode"] == 403
        client.close()


# Events

def test_an_event_per_mutation_kind_on_one_connection(server, client):
    for identifier, kind in (("c", "Create"), ("u", "Update"), ("d", "Delete")):
        query = f"subscription {{ on{kind}Post {{ {POST_FIELDS} }} }}"
        assert client.start(query, identifier) == {"type": "start_ack", "id": identifier}
    create_post(server, id="rt1", title="Live", rating=3)
    server.graphql('mutation { updatePost(input: {id: "rt1", rating: 4}) { id title rating } }')
    server.graphql('mutation { deletePost(input: {id: "rt1"}) { id title rating } }')
    assert [client.recv() for _ in range(3)] == [
        {"type": "data", "id": "c", "payload": {"data": {"onCreatePost": {"id": "rt1", "title": "Live", "rating": 3}}}},
        {"type": "data", "id": "u", "payload": {"data": {"onUpdatePost": {"id": "rt1", "title": "Live", "rating": 4}}}},
        {"type": "data", "id": "d", "payload": {"data": {"onDeletePost": {"id": "rt1", "title": "Live", "rating": 4}}}},
    ]


def test_the_subscription_selection_set_and_aliases_shape_the_event(server, client):
    client.start("subscription Watch { created: onCreatePost { __typename title } }")
    create_post(server, title="Shape", content="body", rating=1)
    assert client.recv()["payload"] == {"data": {"created": {"__typename": "Post", "title": "Shape"}}}


def test_fields_the_mutation_did_not_select_arrive_as_null(server, client):
    client.start("subscription { onCreatePost { id title content } }")
    server.graphql('mutation { createPost(input: {id: "rt2", title: "Half", content: "hidden"}) { id title } }')
    assert client.recv()["payload"]["data"]["onCreatePost"] == {"id": "rt2", "title": "Half", "content": None}


def test_relationship_fields_resolve_in_events(server, client):
    client.start("subscription { onCreateComment { content post { title } } }")
    server.graphql('mutation { createComment(input: {content: "Nice", postId: "p1"}) { id content postId } }')
    assert client.recv()["payload"]["data"]["onCreateComment"] == {
        "content": "Nice", "post": {"title": "A sourdough starter in seven days"}}


MATCHING = [
    ({"title": {"eq": "Yes"}}),
    ({"title": {"beginsWith": "Ye"}}),
    ({"title": {"contains": "e"}, "rating": {"ge": 5}}),
    ({"rating": {"in": [1, 5]}}),
    ({"rating": {"notIn": [1, 2]}}),
    ({"rating": {"between": [4, 6]}}),
    ({"tags": {"contains": "live"}}),
    ({"or": [{"title": {"eq": "nope"}}, {"rating": {"gt": 4}}]}),
    ({"and": [{"title": {"ne": "No"}}, {"rating": {"lt": 6}}]}),
]


@pytest.mark.parametrize("condition", MATCHING, ids=json.dumps)
def test_filters_that_match_and_that_do_not(server, client, condition):
    client.start("subscription($f: ModelSubscriptionPostFilterInput) { onCreatePost(filter: $f) { title } }",
                 variables={"f": condition})
    create_post(server, title="No", rating=2, tags=["dead"])  # matches none of the filters
    create_post(server, title="Yes", rating=5, tags=["live"])  # matches all of them
    assert client.recv()["payload"]["data"]["onCreatePost"] == {"title": "Yes"}


def test_a_filter_written_inline(server, client):
    client.start('subscription { onCreatePost(filter: {title: {eq: "Yes"}}) { title } }')
    create_post(server, title="No")
    create_post(server, title="Yes")
    assert client.recv()["payload"]["data"]["onCreatePost"] == {"title": "Yes"}


def test_several_subscriptions_get_their_own_events_in_mutation_order(server, client):
    client.start('subscription { onCreatePost(filter: {rating: {eq: 1}}) { title } }', "one")
    client.start('subscription { onCreatePost(filter: {rating: {eq: 2}}) { title } }', "two")
    client.start('subscription { onCreatePost { title } }', "all")
    for title, rating in (("a", 1), ("b", 2), ("c", 1)):
        create_post(server, title=title, rating=rating)
    got = [(m["id"], m["payload"]["data"]["onCreatePost"]["title"]) for m in (client.recv() for _ in range(6))]
    assert got == [("one", "a"), ("all", "a"), ("two", "b"), ("all", "b"), ("one", "c"), ("all", "c")]


def test_two_connections_both_receive(server, client):
    other = Client(server)
    other.init()
    client.start("subscription { onCreatePost { title } }")
    other.start("subscription { onCreatePost { title } }")
    create_post(server, title="Both")
    assert client.recv()["payload"] == other.recv()["payload"] == {"data": {"onCreatePost": {"title": "Both"}}}
    other.close()


def test_twenty_connections_each_with_a_subscription(server):
    clients = [Client(server) for _ in range(20)]
    for number, client in enumerate(clients):
        client.init()
        client.start(f'subscription {{ onCreatePost(filter: {{rating: {{le: {number}}}}}) {{ title }} }}')
    create_post(server, title="Crowd", rating=10)
    for client in clients[10:]:
        assert client.recv()["payload"] == {"data": {"onCreatePost": {"title": "Crowd"}}}
    create_post(server, title="Everyone", rating=0)
    for client in clients:
        assert client.recv()["payload"] == {"data": {"onCreatePost": {"title": "Everyone"}}}
        client.close()


@pytest.mark.shared_fixtures
def test_an_owner_argument_must_equal_the_records_owner():
    # Gen 2 owner-authorized models take `owner:`; appsync-local never fills owner fields, so a record has none.
    with start_server(SHARED_FIXTURES / "gen2-amplify-data-modeled.mis.json") as server:
        client = Client(server)
        client.init()
        client.start('subscription { onCreateTodo(owner: "alice") { name } }', "alice")
        client.start("subscription { onCreateTodo { name } }", "anyone")
        client.start('subscription { onCreateTodo(filter: {name: {eq: "second"}}) { name } }', "second")
        server.graphql('mutation { createTodo(input: {name: "first"}) { id name owner } }')
        server.graphql('mutation { createTodo(input: {name: "second"}) { id name owner } }')
        assert [(m["id"], m["payload"]["data"]["onCreateTodo"]["name"]) for m in (client.recv() for _ in range(3))] \
            == [("anyone", "first"), ("anyone", "second"), ("second", "second")]
        client.close()


def test_stop_answers_complete_and_ends_the_events(server, client):
    client.start("subscription { onCreatePost { title } }", "gone")
    client.start("subscription { onDeletePost { id } }", "kept")
    client.send({"type": "stop", "id": "gone"})
    assert client.recv() == {"type": "complete", "id": "gone"}
    wait_for_log(server, "connection 1 stopped gone onCreatePost")
    create_post(server, id="rt3", title="Unseen")
    server.graphql('mutation { deletePost(input: {id: "rt3"}) { id } }')
    assert client.recv() == {"type": "data", "id": "kept", "payload": {"data": {"onDeletePost": {"id": "rt3"}}}}


def test_started_and_stopped_are_logged(server, client):
    client.start("subscription { onCreatePost { title } }", "logged")
    assert "connection 1 started logged onCreatePost" in wait_for_log(server, "started logged")
    client.close()
    log = wait_for_log(server, "connection 1 closed")
    assert "connection 1 stopped logged onCreatePost" in log
    assert KEY not in log


# Faults

def test_drop_after_n_events_closes_without_a_close_frame():
    with start_server(BLOG, api_key=KEY, args=("--ws-drop-after", "2")) as server:
        client = Client(server)
        client.init()
        client.start("subscription { onCreatePost { title } }")
        for title in ("e1", "e2", "e3"):
            create_post(server, title=title)
        assert [client.recv()["payload"]["data"]["onCreatePost"]["title"] for _ in range(2)] == ["e1", "e2"]
        with pytest.raises(ConnectionClosed) as caught:
            client.recv()
        assert caught.value.rcvd is None  # no close frame: the TCP connection was cut
        assert "connection 1 dropped after 2 events" in wait_for_log(server, "connection 1 closed")
        again = Client(server)  # the server still serves new connections, and counts for each
        again.init()
        again.start("subscription { onCreatePost { title } }")
        create_post(server, title="e4")
        assert again.recv()["payload"]["data"]["onCreatePost"]["title"] == "e4"
        again.close()


# Errors

@pytest.mark.parametrize("query, error_type, message", [
    ("subscription { onCreatePost { nope } }", None, "Validation error of type FieldUndefined: "),
    ("query { getPost(id: \"p1\") { id } }", "UnsupportedOperation", "Only subscription operations"),
    ("subscription { onCreatePost { id } ", None, "Invalid Syntax : "),
    ("subscription($f: ModelSubscriptionPostFilterInput) { onCreatePost(filter: $f) { id } }", None,
     "Validation error"),
])
def test_bad_start_documents_get_an_error_with_the_id(client, query, error_type, message):
    variables = {"f": {"not": {"title": {"eq": "x"}}}} if "$f" in query else None
    answer = client.start(query, "bad", variables=variables)
    assert (answer["type"], answer["id"]) == ("error", "bad")
    error = answer["payload"]["errors"][0]
    assert error.get("errorType") == error_type
    assert error["message"].startswith(message)


def test_a_duplicate_id_and_an_unknown_message_type_get_errors(client):
    client.start("subscription { onCreatePost { id } }", "same")
    answer = client.start("subscription { onCreatePost { id } }", "same")
    assert (answer["id"], answer["payload"]["errors"][0]["errorType"]) == ("same", "DuplicatedOperationError")
    client.send({"type": "subscribe", "id": "x"})
    assert client.recv() == {"type": "error", "id": "x", "payload": {"errors": [
        {"errorType": "UnsupportedOperation", "message": "subscribe not supported through the realtime channel"}]}}


def test_start_before_connection_init_is_refused(server):
    client = Client(server)
    answer = client.start("subscription { onCreatePost { id } }")
    assert (answer["type"], answer["payload"]["errors"][0]["errorType"]) == ("error", "BadRequestException")
    client.close()


def test_http_still_refuses_subscriptions_and_names_the_endpoint(server):
    body = server.graphql("subscription { onCreatePost { id } }")
    assert body["errors"][0]["errorType"] == "UnsupportedOperation"
    assert "/graphql/realtime" in body["errors"][0]["message"]
