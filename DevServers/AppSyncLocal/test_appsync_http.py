"""The HTTP layer, run as a real process: URL line, status codes, auth, keep-alive and fault injection."""

from __future__ import annotations

import http.client
import json
import re
import signal
import socket
import subprocess
import sys
import time
from urllib.parse import quote

import pytest

from appsync_local.server import GraphQLHandler
from harness import SERVER_PATH, clean_env
from local_app import EXAMPLES

QUERY = {"query": '{ getPost(id: "p2") { title } }'}
KNIFE = {"data": {"getPost": {"title": "Choosing a first chef's knife"}}}
BLOG, SEED = EXAMPLES / "blog.json", EXAMPLES / "blog-seed.json"


def test_first_stdout_line_is_the_url_on_a_free_port(blog_server):
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/graphql", blog_server.url)
    assert blog_server.port != 0
    assert blog_server.post(QUERY) == (200, KNIFE)


def test_api_key_is_required_when_configured(start_appsync):
    server = start_appsync(BLOG, seed=SEED, api_key="da2-secret")
    assert server.post(QUERY) == (200, KNIFE)
    status, body = server.post(QUERY, headers={"x-api-key": ""})
    assert status == 401 and body["errors"][0]["errorType"] == "UnauthorizedException"
    status, body = server.post(QUERY, headers={"x-api-key": "da2-wrong"})
    assert status == 401 and body == {"errors": [{"errorType": "UnauthorizedException",
                                                  "message": "You are not authorized to make this call."}]}
    assert server.post(QUERY, headers={"X-Api-Key": "da2-secret"}) == (200, KNIFE)


def test_malformed_bodies_are_400(blog_server):
    for raw, message in ((b"", "Request body is empty."), (b"meow", "Unable to parse GraphQL query."),
                         (b"{}", "Unable to parse GraphQL query."), (b"[]", "Unable to parse GraphQL query."),
                         (b'{"query": "{ x }", "variables": [1]}', "Unable to parse GraphQL query.")):
        assert blog_server.post(None, raw=raw) == (400, {"errors": [
            {"errorType": "MalformedHttpRequestException", "message": message}]})


def test_validation_errors_are_200_with_null_data(blog_server):
    status, body = blog_server.post({"query": "{ badfield }"})
    assert status == 200 and body["data"] is None
    error, = body["errors"]
    assert error["path"] is None and error["locations"] == [{"line": 1, "column": 3, "sourceName": None}]
    assert error["message"].startswith("Validation error of type FieldUndefined:")
    status, body = blog_server.post({"query": "{ getPost(id: "})
    assert status == 200 and body["data"] is None and body["errors"][0]["message"].startswith("Invalid Syntax")


def test_responses_have_exact_content_length_and_request_ids(blog_server):
    connection = http.client.HTTPConnection(blog_server.host, blog_server.port, timeout=30)
    body = json.dumps({"query": 'mutation { createBlog(input: {name: "Café ☕ 日本"}) { name } }'})
    connection.request("POST", "/graphql", body=body.encode(), headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    assert int(response.getheader("Content-Length")) == len(data)
    assert json.loads(data) == {"data": {"createBlog": {"name": "Café ☕ 日本"}}}
    assert response.getheader("Content-Type").startswith("application/json")
    assert re.fullmatch(r"[0-9a-f-]{36}", response.getheader("x-amzn-RequestId"))
    connection.close()


def test_get_requests_and_unknown_paths(blog_server):
    connection = http.client.HTTPConnection(blog_server.host, blog_server.port, timeout=30)
    connection.request("GET", "/graphql?query=" + quote(QUERY["query"]))
    response = connection.getresponse()
    assert response.status == 200 and json.loads(response.read()) == KNIFE
    connection.request("POST", "/other", body=b"{}")
    response = connection.getresponse()
    assert response.status == 404 and response.read()
    connection.close()


def read_response(sock_file) -> tuple[str, bytes]:
    status = sock_file.readline().decode()
    length = 0
    while (line := sock_file.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return status, sock_file.read(length)


def test_keep_alive_serves_many_requests_on_one_socket(blog_server):
    assert GraphQLHandler.disable_nagle_algorithm is True and GraphQLHandler.protocol_version == "HTTP/1.1"
    body = json.dumps(QUERY).encode()
    request = (f"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    with socket.create_connection((blog_server.host, blog_server.port), timeout=30) as sock:
        sock_file = sock.makefile("rb")
        sock.sendall(request * 2)  # pipelined
        for _ in range(2):
            status, payload = read_response(sock_file)
            assert status.startswith("HTTP/1.1 200") and json.loads(payload) == KNIFE
        sock.sendall(request)
        assert json.loads(read_response(sock_file)[1]) == KNIFE


def test_a_burst_of_connections_waits_in_the_accept_backlog(blog_server):
    """A client that opens many connections at once (gqlc's bulk workers) must find them all queued by the kernel,
    not some SYNs dropped: with socketserver's backlog of 5 the seventh waited a second for a SYN retransmit."""
    burst = 32
    blog_server.process.send_signal(signal.SIGSTOP)  # nothing is accepted: the listen queue alone holds them
    sockets = []
    try:
        for _ in range(burst):
            sock = socket.socket()
            sock.settimeout(30)  # a dropped SYN is a connect that cannot complete while the server is stopped
            sockets.append(sock)
            sock.connect((blog_server.host, blog_server.port))
    finally:
        blog_server.process.send_signal(signal.SIGCONT)
    body = json.dumps(QUERY).encode()
    request = (f"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
    for sock in sockets:
        with sock:
            sock.sendall(request)
            status, payload = read_response(sock.makefile("rb"))
            assert status.startswith("HTTP/1.1 200") and json.loads(payload) == KNIFE


def statuses(server, count: int) -> list[object]:
    results = []
    for _ in range(count):
        try:
            results.append(server.post(QUERY)[0])
        except (http.client.RemoteDisconnected, ConnectionError):
            results.append("dropped")
    return results


def test_fail_every_answers_500(start_appsync):
    server = start_appsync(BLOG, seed=SEED, args=["--fail-every", "3"])
    assert statuses(server, 6) == [200, 200, 500, 200, 200, 500]
    status, body = server.post({"query": "{ badfield }"}, raw=None)
    assert status == 200  # request 7: faults count every request, whatever its content
    assert server.post(QUERY) == (200, KNIFE) and server.post(QUERY)[1]["errors"][0]["errorType"] == "InternalFailure"


def test_throttle_every_answers_429_with_retry_after(start_appsync):
    server = start_appsync(BLOG, seed=SEED, args=["--throttle-every", "2", "--retry-after", "3"])
    connection = http.client.HTTPConnection(server.host, server.port, timeout=30)
    seen = []
    for _ in range(4):
        connection.request("POST", "/graphql", body=json.dumps(QUERY).encode())
        response = connection.getresponse()
        seen.append((response.status, response.getheader("Retry-After"), json.loads(response.read())))
    connection.close()
    assert [s[0] for s in seen] == [200, 429, 200, 429]
    assert seen[1][1] == "3" and seen[0][1] is None
    assert seen[1][2]["errors"][0]["errorType"] == "TooManyRequestsException"


def test_drop_every_closes_without_an_answer(start_appsync):
    server = start_appsync(BLOG, seed=SEED, args=["--drop-every", "2"])
    with socket.create_connection((server.host, server.port), timeout=30) as sock:
        body = json.dumps(QUERY).encode()
        request = f"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body
        sock_file = sock.makefile("rb")
        sock.sendall(request)
        assert read_response(sock_file)[0].startswith("HTTP/1.1 200")
        sock.sendall(request)
        assert sock_file.read() == b""  # closed, nothing written
    assert statuses(server, 2) == [200, "dropped"]


def raw_post(server, body: bytes = b"{}") -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection(server.host, server.port, timeout=30)
    try:
        connection.request("POST", "/graphql", body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_lose_answer_every_applies_the_request_then_closes_without_an_answer(start_appsync):
    server = start_appsync(BLOG, seed=SEED, args=["--lose-answer-every", "2"])
    create = {"query": 'mutation { createComment(input: {id: "lost", content: "x", postId: "p1"}) { id } }'}
    assert statuses(server, 1) == [200]
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
        server.post(create)  # request 2: carried out, answer lost
    status, body = server.post({"query": '{ getComment(id: "lost") { content } }'})
    assert (status, body) == (200, {"data": {"getComment": {"content": "x"}}})


def test_reply_body_status_type_and_headers_are_sent_as_given(start_appsync, tmp_path):
    page = "<html><head><title>Sign in – Proxy</title></head><body>¡hola!</body></html>".encode()
    (tmp_path / "page.html").write_bytes(page)
    server = start_appsync(BLOG, seed=SEED, args=["--reply-status", "502", "--reply-body", str(tmp_path / "page.html"),
                                                 "--reply-content-type", "text/html; charset=utf-8",
                                                 "--reply-header", "Retry-After: 7", "--reply-header", "X-Echo: a:b"])
    for _ in range(2):  # every request
        status, headers, body = raw_post(server, json.dumps(QUERY).encode())
        assert (status, body) == (502, page)
        assert headers["content-type"] == "text/html; charset=utf-8" and headers["content-length"] == str(len(page))
        assert headers["retry-after"] == "7" and headers["x-echo"] == "a:b"


def test_reply_can_echo_the_request_headers(start_appsync, tmp_path):
    (tmp_path / "echo.html").write_text("<title>Denied ${headers}</title>")
    server = start_appsync(BLOG, args=["--reply-status", "403", "--reply-body", str(tmp_path / "echo.html"),
                                       "--reply-header", "X-Seen: ${headers}"])
    connection = http.client.HTTPConnection(server.host, server.port, timeout=30)
    connection.request("POST", "/graphql", body=b"{}", headers={"x-api-key": "da2-echoed"})
    response = connection.getresponse()
    body = response.read().decode()
    connection.close()
    assert response.status == 403 and "da2-echoed" in body and body.startswith("<title>Denied ")
    assert "da2-echoed" in response.getheader("X-Seen")


def test_reply_status_alone_sends_appsync_error_body(start_appsync):
    server = start_appsync(BLOG, seed=SEED, args=["--reply-status", "503"])
    status, body = server.post(QUERY)
    assert status == 503 and body["errors"][0]["errorType"] == "InjectedReply"


def test_reply_first_answers_then_serves(start_appsync, tmp_path):
    (tmp_path / "null.json").write_text('{"data":{"getPost":null}}')
    server = start_appsync(BLOG, seed=SEED, args=["--reply-body", str(tmp_path / "null.json"), "--reply-first", "2"])
    assert [server.post(QUERY) for _ in range(3)] == [(200, {"data": {"getPost": None}})] * 2 + [(200, KNIFE)]


def test_faults_come_before_canned_replies(start_appsync):
    server = start_appsync(BLOG, seed=SEED, args=["--fail-every", "2", "--reply-status", "418"])
    assert statuses(server, 3) == [418, 500, 418]


@pytest.mark.parametrize("flags, message", [
    (["--reply-status", "99"], "expected an HTTP status from 100 to 599, got 99"),
    (["--reply-header", "no colon"], "expected 'NAME: VALUE', got 'no colon'"),
    (["--reply-body", "/nonexistent/page.html"], "--reply-body: /nonexistent/page.html: No such file or directory"),
])
def test_bad_reply_options_are_one_line_errors(flags, message):
    completed = subprocess.run([sys.executable, str(SERVER_PATH), "--schema", str(BLOG), "--port", "0", *flags],
                               capture_output=True, text=True, timeout=60, env=clean_env())
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.splitlines()[-1].endswith(message), completed.stderr


def test_record_requests_keeps_every_request_with_its_headers(start_appsync):
    server = start_appsync(BLOG, seed=SEED, args=["--drop-every", "2"], record_requests=True)
    assert server.post(QUERY, headers={"X-Trace": "t-1", "x-api-key": "da2-k"}) == (200, KNIFE)
    assert statuses(server, 1) == ["dropped"]
    first, second = server.requests()
    assert (first["number"], first["method"], first["path"]) == (1, "POST", "/graphql")
    assert json.loads(first["body"]) == QUERY
    assert server.headers(0)["x-trace"] == "t-1" and server.headers(0)["x-api-key"] == "da2-k"
    assert second["number"] == 2  # a dropped request is recorded too


def test_latency_delays_each_request(start_appsync):
    server = start_appsync(BLOG, seed=SEED, args=["--latency-ms", "150"])
    started = time.monotonic()
    assert server.post(QUERY) == (200, KNIFE)
    assert time.monotonic() - started >= 0.15


def test_persistent_database_survives_a_restart(start_appsync, tmp_path):
    database = tmp_path / "blog.sqlite"
    first = start_appsync(BLOG, args=["--db", str(database)])
    first.graphql('mutation { createBlog(input: {id: "kept", name: "Kept"}) { id } }')
    first.stop()
    second = start_appsync(BLOG, args=["--db", str(database)])
    assert second.graphql('{ getBlog(id: "kept") { name } }') == {"data": {"getBlog": {"name": "Kept"}}}


def test_sigterm_stops_the_server(blog_server):
    blog_server.process.send_signal(signal.SIGTERM)
    assert blog_server.process.wait(timeout=30) == 0


def test_harness_reports_startup_failures(tmp_path):
    from harness import start_server

    with pytest.raises(RuntimeError, match="no such file"):
        start_server(tmp_path / "missing.json")
