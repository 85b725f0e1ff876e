"""`subscribe` against a server that answers neither `stop` nor the close frame (appsync-local's
``--ws-ignore-goodbyes``, which also holds the TCP connection open): gqlc waits about a second for the goodbyes,
then drops the connection, whatever ended the run (Ctrl-C, SIGTERM, --count, --timeout), and a second Ctrl-C exits at
once. Issue 22: it took 35 s (5 s for the completes, then the request timeout for the close frame).

The runs use `--timeout 300`, which is also the connection timeout the old waits were bounded by: a gqlc that waited
for the server's goodbyes would outlast the tests' hang limit (60 s) and fail them, with no test timing anything."""

from __future__ import annotations

import signal

import pytest

from subscribe_support import API_KEY, Background, background, blog_schema, mutate, wait_for_log  # noqa: F401 - fixtures


@pytest.fixture
def deaf_server(start_appsync, blog_schema, schema_examples_dir):  # noqa: F811 - the fixture above
    return start_appsync(blog_schema, seed=schema_examples_dir / "blog-seed.json", api_key=API_KEY,
                         args=["--ws-ignore-goodbyes"])


def deaf_subscriber(background, server, schema, *args):  # noqa: F811
    return background("--schema", schema, "--endpoint", server.url, "--api-key", API_KEY, "--verbose",
                      "subscribe", "Post", "--on", "update", "--timeout", "300", *args)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_run_though_the_server_never_says_goodbye(background, deaf_server, blog_schema, number):  # noqa: F811
    watch = deaf_subscriber(background, deaf_server, blog_schema)
    watch.subscribed("onUpdatePost")
    watch.signal(number)
    code, rest, stderr = watch.finish()
    assert (code, rest) == (128 + number, ""), stderr
    assert "* realtime: closed" in stderr.splitlines()
    wait_for_log(deaf_server, "ignored stop")
    wait_for_log(deaf_server, "closed")  # gqlc dropped the connection the server held open


def test_count_ends_the_run_though_the_server_never_says_goodbye(background, deaf_server, blog_schema):  # noqa: F811
    watch = deaf_subscriber(background, deaf_server, blog_schema, "--count", "1")
    watch.subscribed("onUpdatePost")
    mutate(deaf_server, blog_schema, "update", "Post", "--id", "p1", "title=once")
    assert watch.event()["title"] == "once"
    code, rest, stderr = watch.finish()
    assert (code, rest) == (0, ""), stderr
    wait_for_log(deaf_server, "ignored stop")


def test_a_second_ctrl_c_exits_at_once(background, deaf_server, blog_schema):  # noqa: F811
    watch = deaf_subscriber(background, deaf_server, blog_schema)
    watch.subscribed("onUpdatePost")
    watch.signal(signal.SIGINT)
    watch.stderr_line(lambda line: line.startswith("* realtime: > stop "))
    watch.signal(signal.SIGINT)
    code, rest, stderr = watch.finish()
    assert (code, rest) == (130, ""), stderr
    # Gone before the goodbyes were over: no closing handshake was finished or given up on.
    assert "* realtime: closed" not in stderr.splitlines(), stderr
