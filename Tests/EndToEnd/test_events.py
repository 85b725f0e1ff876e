"""`gqlc events publish|subscribe` against appsync-local's AppSync Events API (whose protocol is checked on its own
by a client written from AWS's documentation, DevServers/AppSyncLocal/test_appsync_events.py)."""

from __future__ import annotations

import json

import pytest

from gqlc_runner import run_gqlc
from iam_support import AWS_VARIABLES, KEY_ID, PERMANENT, REGION, SECRET, SERVER_ARGS
from subscribe_support import background  # noqa: F401 - the fixture is used below

KEY = "da2-eventse2ekey0123456789ab"


@pytest.fixture
def server(start_appsync, schema_examples_dir):
    return start_appsync(schema_examples_dir / "blog.json", api_key=KEY, args=("--events-namespace", "default"))


def events_args(server, *args, key=KEY):
    return ["events", *args, "--events-endpoint", server.url.removesuffix("/graphql"), "--api-key", key]


def test_twelve_events_go_in_three_batches_and_a_wildcard_subscriber_hears_them_all(background, server):
    listener = background(*events_args(server, "subscribe", "/default/*", "--count", "12"))
    listener.stderr_line(lambda line: line == "subscribed: /default/*")
    events = [{"n": number} for number in range(12)]
    run = run_gqlc(events_args(server, "publish", "/default/room", *map(json.dumps, events)))
    assert run.code == 0, run
    answer = run.json()
    assert [entry["index"] for entry in answer["successful"]] == list(range(12)) and answer["failed"] == []
    assert server.stderr_text().count("appsync-local: events: published 5 to /default/room") == 2
    assert "appsync-local: events: published 2 to /default/room" in server.stderr_text()
    received = [listener.event() for _ in range(12)]
    assert received == [{"channel": "/default/*", "event": event} for event in events]
    assert listener.finish()[0] == 0


def test_publish_over_the_websocket_and_from_a_file(background, server, tmp_path):
    listener = background(*events_args(server, "subscribe", "/default/chat", "--count", "3"))
    listener.stderr_line(lambda line: line.startswith("subscribed:"))
    run = run_gqlc(events_args(server, "publish", "/default/chat", '{"via": "ws"}', "--ws"))
    assert run.code == 0, run
    assert len(run.json()["successful"]) == 1
    source = tmp_path / "events.ndjson"
    source.write_text('{"line": 1}\n\n{"line": 2}\n')
    run = run_gqlc(events_args(server, "publish", "default/chat", "--input", source))
    assert run.code == 0, run
    assert [listener.event()["event"] for _ in range(3)] == [{"via": "ws"}, {"line": 1}, {"line": 2}]


def test_an_oversized_event_is_refused_before_anything_is_sent(server, tmp_path):
    source = tmp_path / "events.ndjson"
    source.write_text('{"ok": 1}\n' + json.dumps({"big": "x" * 250_000}) + "\n")
    run = run_gqlc(events_args(server, "publish", "/default/room", "--input", source))
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == ("gqlc: event 2 is 250010 bytes; an AppSync event may be at most 240 KB (245760 bytes)\n")
    assert "published" not in server.stderr_text()


@pytest.mark.parametrize("args, message", [
    (("publish", "room"), "gqlc: 'events publish' needs at least one event: JSON arguments, or '--input FILE'\n"),
    (("publish", "/default/room", "{bad"), None),
    (("subscribe", "/default/bad channel"), None),
])
def test_bad_arguments_are_one_line_with_status_2(server, args, message):
    run = run_gqlc(events_args(server, *args))
    assert run.code == 2 and run.stdout == "" and run.stderr.count("\n") == 1, run
    if message:
        assert run.stderr == message


def test_a_wrong_key_is_refused_and_never_printed(server):
    wrong = "da2-wrongeventskey00000000000"
    run = run_gqlc(events_args(server, "publish", "/default/room", "{}", key=wrong) + ["--verbose"])
    assert run.code != 0, run
    assert "401" in run.stderr and wrong not in run.stderr + run.stdout


def test_iam_signs_the_publish_and_every_websocket_message(background, start_appsync, schema_examples_dir):
    server = start_appsync(schema_examples_dir / "blog.json", args=(*SERVER_ARGS, "--events-namespace", "default"))
    env = {**{name: "" for name in AWS_VARIABLES}, **PERMANENT}
    common = ["--events-endpoint", server.url.removesuffix("/graphql"), "--iam", "--region", REGION]
    listener = background("events", "subscribe", "/default/*", *common, "--count", "2", env=env)
    listener.stderr_line(lambda line: line.startswith("subscribed:"))
    for extra, event in (((), {"signed": "http"}), (("--ws",), {"signed": "ws"})):
        run = run_gqlc(["events", "publish", "/default/a", json.dumps(event), *extra, *common], env=env)
        assert run.code == 0, run
        assert SECRET not in run.stdout + run.stderr
    assert [listener.event()["event"] for _ in range(2)] == [{"signed": "http"}, {"signed": "ws"}]
    # A wrong secret is refused by the server, over HTTP and at the WebSocket's connection_init.
    wrong = {**env, "AWS_SECRET_ACCESS_KEY": "not" + SECRET}
    for extra in ((), ("--ws",)):
        run = run_gqlc(["events", "publish", "/default/a", "{}", *extra, *common], env=wrong)
        assert run.code == 5, run
        assert SECRET not in run.stdout + run.stderr


def test_custom_events_in_amplify_outputs_give_the_endpoint_and_key(background, server, tmp_path):
    outputs = tmp_path / "amplify_outputs.json"
    outputs.write_text(json.dumps({"version": "1.3", "data": {"url": server.url, "aws_region": "us-east-1",
                                                               "default_authorization_type": "API_KEY",
                                                               "api_key": "da2-graphqlkeynotforevents000"},
                                   "custom": {"events": {"url": server.url.removesuffix("/graphql") + "/event",
                                                         "aws_region": "us-east-1",
                                                         "default_authorization_type": "API_KEY",
                                                         "api_key": KEY}}}))
    run = run_gqlc(["events", "publish", "/default/room", "{}"], cwd=tmp_path)
    assert run.code == 0, run


def test_no_events_api_is_one_line(tmp_path):
    run = run_gqlc(["events", "publish", "/default/room", "{}"], cwd=tmp_path)
    assert run.code == 2
    assert run.stderr == ("gqlc: no Events API: pass --events-endpoint URL (or set GQLC_EVENTS_ENDPOINT), "
                          "or add custom.events to amplify_outputs.json\n")


def test_a_dropped_connection_subscribes_again(background, start_appsync, schema_examples_dir):
    server = start_appsync(schema_examples_dir / "blog.json", api_key=KEY,
                           args=("--events-namespace", "default", "--ws-drop-after", "1"))
    listener = background(*events_args(server, "subscribe", "/default/x", "--count", "2"))
    listener.stderr_line(lambda line: line == "subscribed: /default/x")
    assert run_gqlc(events_args(server, "publish", "/default/x", '{"n": 1}')).code == 0
    assert listener.event() == {"channel": "/default/x", "event": {"n": 1}}
    listener.stderr_line(lambda line: line.startswith("gqlc: subscribed again"))
    assert run_gqlc(events_args(server, "publish", "/default/x", '{"n": 2}')).code == 0
    assert listener.event() == {"channel": "/default/x", "event": {"n": 2}}
    assert listener.finish()[0] == 0
