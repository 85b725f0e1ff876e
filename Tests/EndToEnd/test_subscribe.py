"""`gqlc subscribe` (and `raw` with a subscription document) end to end, against appsync-local's real-time
endpoint: each test starts gqlc in the background, waits for `subscribed:` on its stderr, changes data with
`gqlc create/update/delete`, and reads the events gqlc prints. Every wait is for a line (gqlc's output or the
server's log); the time limits only keep a broken build from hanging the suite."""

from __future__ import annotations
import json
import signal
import pytest
from gqlc_runner import run_gqlc
from iam_support import AWS_VARIABLES, KEY_ID, PERMANENT, REGION, SECRET, SERVER_ARGS
from transport_support import PKI, pki  # noqa: F401 - the fixture is used by the wss test
from subscribe_support import (  # noqa: F401 - fixtures among them
    HANG_LIMIT,
    API_KEY,
    Background,
    background,
    wait_for_log,
    blog_schema,
    server,
    mutate,
    subscriber,
)


def test_create_update_and_delete_events_arrive_in_order_as_get_prints_the_record(background, server, blog_schema):
    watch = subscriber(background, server, blog_schema, "Post", "--on", "create", "--on", "update", "--on", "delete",
                       "--count", "3")
    watch.subscribed("onCreatePost", "onUpdatePost", "onDeletePost")
    created = mutate(server, blog_schema, "create", "Post", "id=s1", "title=Live", "rating:=3")
    first = watch.event()
    # The record as get prints it (same selection), fetched independently.
    assert first == mutate(server, blog_schema, "get", "Post", "--id", "s1") == created
    mutate(server, blog_schema, "update", "Post", "--id", "s1", "title=Live again")
    second = watch.event()
    assert (second["id"], second["title"], second["__typename"]) == ("s1", "Live again", "Post")
    mutate(server, blog_schema, "delete", "Post", "--id", "s1")
    third = watch.event()
    assert (third["id"], third["title"]) == ("s1", "Live again")
    code, rest, stderr = watch.finish()
    assert (code, rest) == (0, ""), stderr
    assert stderr.splitlines() == ["subscribed: onCreatePost", "subscribed: onUpdatePost", "subscribed: onDeletePost"]
    # The subscriptions were stopped before the connection closed.
    wait_for_log(server, "stopped", 3)


@pytest.mark.parametrize("event", ["create", "update", "delete"])
def test_each_on_alone_hears_only_its_event(background, server, blog_schema, event):
    watch = subscriber(background, server, blog_schema, "Comment", "--on", event, "--count", "1")
    watch.subscribed("on" + event.capitalize() + "Comment")
    # All three mutations happen; only the chosen one is printed, and it is the first event.
    mutate(server, blog_schema, "create", "Comment", "id=k1", "content=hello", "post=p1")
    mutate(server, blog_schema, "update", "Comment", "--id", "k1", "content=edited")
    mutate(server, blog_schema, "delete", "Comment", "--id", "k1")
    received = watch.event()
    expected = {"create": "hello", "update": "edited", "delete": "edited"}[event]
    assert (received["id"], received["content"], received["postId"]) == ("k1", expected, "p1")
    code, rest, stderr = watch.finish()
    assert (code, rest) == (0, ""), stderr


def test_where_filters_on_the_server_and_a_non_matching_change_prints_nothing(background, server, blog_schema):
    watch = subscriber(background, server, blog_schema, "Post", "--on", "create", "--where", "title^=Swift",
                       "--where", "rating>=4", "--count", "1")
    watch.subscribed("onCreatePost")
    mutate(server, blog_schema, "create", "Post", "id=n1", "title=Kotlin tips", "rating:=5")
    mutate(server, blog_schema, "create", "Post", "id=n2", "title=Swift tips", "rating:=2")
    mutate(server, blog_schema, "create", "Post", "id=m1", "title=Swift 6", "rating:=5")
    assert watch.event()["id"] == "m1"
    code, rest, stderr = watch.finish()
    assert (code, rest) == (0, ""), stderr
    # The filter went to the server as ModelSubscriptionPostFilterInput.
    assert "started" in server.stderr_text()


def test_where_on_a_belongs_to_association_filters_by_its_foreign_key(background, server, blog_schema):
    watch = subscriber(background, server, blog_schema, "Comment", "--on", "create", "--on", "delete",
                       "--where", "post=p2", "--count", "1")
    watch.subscribed("onCreateComment", "onDeleteComment")
    mutate(server, blog_schema, "create", "Comment", "id=x1", "content=elsewhere", "post=p1")
    mutate(server, blog_schema, "create", "Comment", "id=x2", "content=here", "post=p2")
    assert watch.event()["id"] == "x2"
    assert watch.finish()[0] == 0


def test_an_operator_the_subscription_filter_lacks_is_refused_before_connecting(background, server, blog_schema):
    run = run_gqlc(["--schema", blog_schema, "--endpoint", server.url, "subscribe", "Post", "--on", "create",
                    "--where", "title?"])
    assert run.code == 2, run
    assert run.stderr == ("gqlc: --where 'title?': operator '?' is not in AppSync's subscription filters (they have no "
                          "attributeExists); use = != < <= > >= =LOW..HIGH ^= *= !*=\n")
    assert "opened" not in server.stderr_text()


def test_include_adds_the_association_to_each_event(background, server, blog_schema):
    watch = subscriber(background, server, blog_schema, "Comment", "--on", "create", "--include", "post", "--count", "1")
    watch.subscribed("onCreateComment")
    mutate(server, blog_schema, "create", "Comment", "id=i1", "content=with post", "post=p1")
    received = watch.event()
    p1 = mutate(server, blog_schema, "get", "Post", "--id", "p1")
    assert received["post"]["id"] == "p1" and received["post"]["title"] == p1["title"]
    assert watch.finish()[0] == 0


def test_output_json_prints_one_array_closed_at_the_end(background, server, blog_schema):
    watch = background("--schema", blog_schema, "--endpoint", server.url, "--api-key", API_KEY, "--output", "json",
                       "subscribe", "Post", "--on", "create", "--count", "2")
    watch.subscribed("onCreatePost")
    mutate(server, blog_schema, "create", "Post", "id=j1", "title=one")
    mutate(server, blog_schema, "create", "Post", "id=j2", "title=two")
    code, stdout, stderr = watch.finish()
    assert code == 0, stderr
    assert [post["id"] for post in json.loads(stdout)] == ["j1", "j2"]


def test_timeout_ends_a_quiet_subscription_with_status_0(server, blog_schema):
    # The timeout also bounds the set-up: long enough for a busy machine to connect and be acknowledged.
    run = run_gqlc(["--schema", blog_schema, "--endpoint", server.url, "--api-key", API_KEY, "--output", "json",
                    "subscribe", "Post", "--on", "create", "--timeout", "3"])
    assert (run.code, run.stdout, run.stderr) == (0, "[]\n", "subscribed: onCreatePost\n")
    wait_for_log(server, "stopped")


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_stop_the_subscription_and_exit_130_or_143(background, server, blog_schema, number):
    watch = subscriber(background, server, blog_schema, "Post", "--on", "update")
    watch.subscribed("onUpdatePost")
    watch.signal(number)
    code, rest, stderr = watch.finish()
    assert (code, rest) == (128 + number, ""), stderr
    # stop was sent (the server logs it as the subscription's end) and the connection closed cleanly.
    wait_for_log(server, "stopped")
    wait_for_log(server, "closed")
    assert "dropped" not in server.stderr_text()


def test_twenty_subscribers_at_once_each_get_the_event(background, server, blog_schema):
    watchers = [subscriber(background, server, blog_schema, "Post", "--on", "create", "--count", "1")
                for _ in range(20)]
    for watch in watchers:
        watch.subscribed("onCreatePost")
    mutate(server, blog_schema, "create", "Post", "id=t20", "title=to all")
    for watch in watchers:
        assert watch.event()["id"] == "t20"
        assert watch.finish()[0] == 0


def test_a_wrong_api_key_is_refused_with_status_5_and_appsyncs_error(server, blog_schema):
    run = run_gqlc(["--schema", blog_schema, "--endpoint", server.url, "--api-key", "da2-wrong", "subscribe", "Post",
                    "--on", "create"])
    assert run.code == 5, run
    assert run.stderr == ("gqlc: the real-time server refused the connection: UnauthorizedException: "
                          "You are not authorized to make this call. (401)\n")
    assert "da2-wrong" not in run.stderr


def test_iam_signs_the_connection_and_each_start(background, start_appsync, blog_schema, schema_examples_dir, tmp_path):
    iam_server = start_appsync(blog_schema, seed=schema_examples_dir / "blog-seed.json", args=SERVER_ARGS)
    env = {name: "" for name in AWS_VARIABLES} | {"HOME": str(tmp_path), **PERMANENT, "AWS_REGION": REGION}
    watch = background("--schema", blog_schema, "--endpoint", iam_server.url, "--iam", "subscribe", "Post",
                       "--on", "create", "--count", "1", env=env)
    watch.subscribed("onCreatePost")
    run = run_gqlc(["--schema", blog_schema, "--endpoint", iam_server.url, "--iam", "create", "Post", "id=iam1",
                    "title=signed"], env=env)
    assert run.code == 0, run
    assert watch.event()["id"] == "iam1"
    code, _, stderr = watch.finish()
    assert code == 0 and SECRET not in stderr
    # Wrong credentials are refused on connect.
    bad = env | {"AWS_SECRET_ACCESS_KEY": "not-the-secret"}
    refused = run_gqlc(["--schema", blog_schema, "--endpoint", iam_server.url, "--iam", "subscribe", "Post", "--on",
                        "create"], env=bad)
    assert refused.code == 5, refused
    assert refused.stderr.startswith("gqlc: the real-time server refused the connection: ")
    assert KEY_ID in iam_server.stderr_text() or "refused" in iam_server.stderr_text()


def test_wss_with_a_private_ca(background, start_appsync, blog_schema, schema_examples_dir, pki: PKI):  # noqa: F811
    tls = start_appsync(blog_schema, seed=schema_examples_dir / "blog-seed.json", api_key=API_KEY,
                        args=("--tls-cert", pki.cert, "--tls-key", pki.key))
    assert tls.url.startswith("https://")
    watch = background("--schema", blog_schema, "--endpoint", tls.url, "--api-key", API_KEY, "--cacert", pki.ca,
                       "--verbose", "subscribe", "Post", "--on", "create", "--count", "1",
                       env={"CURL_CA_BUNDLE": "", "SSL_CERT_FILE": ""})
    watch.subscribed("onCreatePost")
    assert [line for line in watch.stderr_seen if line.startswith("* realtime: ")][:3] == [
        f"* realtime: connecting to wss://127.0.0.1:{tls.port}/graphql/realtime (subprotocols graphql-ws, header-…)",
        "* realtime: > connection_init", "* realtime: < connection_ack (connectionTimeoutMs 300000)"]
    run = run_gqlc(["--schema", blog_schema, "--endpoint", tls.url, "--api-key", API_KEY, "--cacert", pki.ca,
                    "create", "Post", "id=w1", "title=over tls"], env={"CURL_CA_BUNDLE": "", "SSL_CERT_FILE": ""})
    assert run.code == 0, run
    assert watch.event()["id"] == "w1"
    code, _, stderr = watch.finish()
    assert code == 0, stderr
    # The trace names each protocol step, never the key (which travels in the subprotocol and the start).
    assert "> start " in stderr and "< start_ack " in stderr and "< data " in stderr and "> stop " in stderr
    assert API_KEY not in stderr


def test_the_realtime_endpoint_can_be_given_by_flag_or_environment(background, server, blog_schema):
    # An endpoint whose derived real-time URL does not exist: the override is what makes it work.
    elsewhere = server.url.replace("/graphql", "/api/graphql")
    missing = run_gqlc(["--schema", blog_schema, "--endpoint", elsewhere, "--api-key", API_KEY, "subscribe", "Post",
                        "--on", "create"])
    assert missing.code == 5 and "HTTP 404" in missing.stderr, missing
    for args, env in ((["--realtime-endpoint", server.realtime_url], None),
                      ([], {"GQLC_REALTIME_ENDPOINT": server.realtime_url})):
        watch = background("--schema", blog_schema, "--endpoint", elsewhere, "--api-key", API_KEY, "subscribe", "Post",
                           "--on", "create", *args, env=env)
        watch.subscribed("onCreatePost")  # the event, not a short --timeout that a busy machine could outlast
        watch.signal(signal.SIGINT)
        assert watch.finish()[0] == 130
        assert watch.stderr_seen == ["subscribed: onCreatePost"]
    bad = run_gqlc(["--schema", blog_schema, "--endpoint", server.url, "subscribe", "Post", "--on", "create",
                    "--realtime-endpoint", "http://x/graphql"])
    assert bad.code == 2 and bad.stderr.startswith("gqlc: --realtime-endpoint: invalid WebSocket URL 'http://x/graphql'"), bad


def test_a_dropped_connection_is_made_again_and_events_resume(background, start_appsync, blog_schema,
                                                              schema_examples_dir):
    flaky = start_appsync(blog_schema, seed=schema_examples_dir / "blog-seed.json", api_key=API_KEY,
                          args=("--ws-drop-after", "1"))
    watch = subscriber(background, flaky, blog_schema, "Post", "--on", "create", "--count", "2")
    watch.subscribed("onCreatePost")
    mutate(flaky, blog_schema, "create", "Post", "id=d1", "title=before")
    assert watch.event()["id"] == "d1"
    lost = watch.stderr_line(lambda line: line.startswith("gqlc: connection lost: "))
    assert "connecting again in" in lost and "(attempt 1)" in lost
    watch.subscribed("onCreatePost")
    gap = watch.stderr_line(lambda line: "may have been missed" in line)
    assert gap.startswith("gqlc: subscribed again; events between ")
    mutate(flaky, blog_schema, "create", "Post", "id=d2", "title=after")
    assert watch.event()["id"] == "d2"
    assert watch.finish()[0] == 0
    wait_for_log(flaky, "opened", 2)


def test_no_reconnect_exits_6_when_the_connection_drops(background, start_appsync, blog_schema, schema_examples_dir):
    flaky = start_appsync(blog_schema, seed=schema_examples_dir / "blog-seed.json", api_key=API_KEY,
                          args=("--ws-drop-after", "1"))
    watch = subscriber(background, flaky, blog_schema, "Post", "--on", "create", "--no-reconnect")
    watch.subscribed("onCreatePost")
    mutate(flaky, blog_schema, "create", "Post", "id=e1", "title=only")
    assert watch.event()["id"] == "e1"
    code, rest, stderr = watch.finish()
    assert (code, rest) == (6, ""), stderr
    assert stderr.splitlines()[-1].startswith("gqlc: "), stderr
    assert "connecting again" not in stderr


def test_missing_keep_alives_are_detected_and_the_connection_is_made_again(background, start_appsync, blog_schema,
                                                                            schema_examples_dir):
    silent = start_appsync(blog_schema, seed=schema_examples_dir / "blog-seed.json", api_key=API_KEY,
                           args=("--ws-no-ka", "--ws-connection-timeout-ms", "300"))
    watch = subscriber(background, silent, blog_schema, "Post", "--on", "create")
    watch.subscribed("onCreatePost")
    lost = watch.stderr_line(lambda line: line.startswith("gqlc: connection lost: "))
    assert "no keep-alive from the real-time server within 300 ms" in lost
    watch.subscribed("onCreatePost")
    watch.signal(signal.SIGINT)
    assert watch.finish()[0] == 130


def test_the_server_unreachable_at_the_start_is_status_6(server, blog_schema):
    from gqlc_runner import closed_port_url
    run = run_gqlc(["--schema", blog_schema, "--endpoint", closed_port_url(), "subscribe", "Post", "--on", "create"])
    assert run.code == 6, run
    assert run.stderr.startswith("gqlc: WebSocket connection failed: "), run


def test_raw_streams_a_subscription_documents_events(background, server, blog_schema):
    document = "subscription Watch($filter: ModelSubscriptionPostFilterInput) { onCreatePost(filter: $filter) { id title } }"
    watch = background("--endpoint", server.url, "--api-key", API_KEY, "raw", "--query", document,
                       "--var", 'filter:={"title": {"eq": "raw"}}')
    watch.subscribed("onCreatePost")
    mutate(server, blog_schema, "create", "Post", "id=r0", "title=not raw")
    mutate(server, blog_schema, "create", "Post", "id=r1", "title=raw")
    assert watch.event() == {"onCreatePost": {"id": "r1", "title": "raw"}}
    watch.signal(signal.SIGTERM)
    assert watch.finish()[:2] == (143, "")


def test_raw_subscription_the_server_refuses_is_status_1(server):
    run = run_gqlc(["--endpoint", server.url, "--api-key", API_KEY, "raw", "--query",
                    "subscription { onCreateNothing { id } }"])
    assert run.code == 1, run
    assert run.stderr.startswith("gqlc: subscription onCreateNothing failed: "), run


@pytest.mark.parametrize("args, message", [
    (["Post"], "gqlc: 'subscribe' needs --on create, --on update or --on delete (repeatable); usage: gqlc subscribe MODEL"),
    (["Post", "--on", "insert"], "gqlc: invalid value 'insert' for '--on': expected create, update or delete"),
    (["Post", "--on", "create", "--count", "0"], "gqlc: invalid value '0' for '--count': expected a whole number of at least 1"),
    (["Postt", "--on", "create"], "gqlc: unknown model 'Postt'"),
])
def test_usage_errors(server, blog_schema, args, message):
    run = run_gqlc(["--schema", blog_schema, "--endpoint", server.url, "subscribe", *args])
    assert run.code == 2, run
    assert run.stderr.startswith(message), run


def test_an_event_with_errors_prints_them_and_ends_with_status_3(background, server, blog_schema):
    # A createPost that selects only id: AppSync (and appsync-local) fill the other fields with null, so the
    # subscription's non-null fields fail and the event carries errors instead of the record.
    watch = subscriber(background, server, blog_schema, "Post", "--on", "create", "--count", "1")
    watch.subscribed("onCreatePost")
    server.graphql('mutation { createPost(input: {id: "z1", title: "thin"}) { id } }')
    code, stdout, stderr = watch.finish()
    assert (code, stdout) == (3, ""), stderr
    errors = stderr.splitlines()[1:]
    assert errors and all(line.startswith("gqlc: ") and "onCreatePost" in line for line in errors), stderr
