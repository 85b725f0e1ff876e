"""`gqlc list --watch` (Amplify's observeQuery off a terminal) and `subscribe --envelope` / `--raw-response`, end to
end against appsync-local: gqlc runs in the background, the test waits for its lines and changes data with other
gqlc processes meanwhile. The reference for the records is the server itself, listed directly."""

from __future__ import annotations

import json
import re

import pytest

from gqlc_runner import run_gqlc
from subscribe_support import API_KEY, Background, background, mutate  # noqa: F401 - the fixture is used below


@pytest.fixture
def slow_server(start_appsync, schema_examples_dir):
    """The seeded blog, answering each request after 150 ms, with its requests recorded."""
    return start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json", api_key=API_KEY,
                         args=("--latency-ms", "150"), record_requests=True)


@pytest.fixture
def server(start_appsync, schema_examples_dir):
    return start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json", api_key=API_KEY)


def gqlc_args(server, schema_examples_dir, *args):
    return ["--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, "--api-key", API_KEY, *args]


def server_records(server, schema, model, *where):
    run = run_gqlc(["--schema", schema, "--endpoint", server.url, "--api-key", API_KEY, "list", model,
                    "--output", "ndjson", *where])
    assert run.code == 0, run
    return {line["id"]: line for line in map(json.loads, run.stdout.splitlines())}


def replay(lines):
    """The records the watch's lines describe: items, then each change applied by id."""
    records = {}
    for line in lines:
        if line["event"] in ("item", "create", "update"):
            records[line["item"]["id"]] = line["item"]
        elif line["event"] == "delete":
            records.pop(line["item"]["id"], None)
    return records


def test_changes_made_while_the_listing_pages_are_replayed_none_lost_none_doubled(
        background, slow_server, schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    watch = background(*gqlc_args(slow_server, schema_examples_dir, "list", "Comment", "--watch", "--page-size", "1"))
    watch.stderr_line(lambda line: line.startswith("subscribed: onCreateComment"))
    # Made while the 12 one-record pages are read (each answered after 150 ms).
    mutate(slow_server, schema, "create", "Comment", "id=w1", "content=new", "post=p1")
    mutate(slow_server, schema, "update", "Comment", "--id", "c1", "content=edited")
    mutate(slow_server, schema, "delete", "Comment", "--id", "c2")
    lines = []
    while not lines or lines[-1]["event"] != "synced":
        lines.append(watch.event())
    items = [line for line in lines if line["event"] == "item"]
    assert lines[-1] == {"event": "synced", "count": len(items)}
    # What the listing missed comes after 'synced', each once.
    while replay(lines) != server_records(slow_server, schema, "Comment"):
        lines.append(watch.event())
    created = [line for line in lines if line["event"] in ("item", "create") and line["item"]["id"] == "w1"]
    assert len(created) == 1, lines
    # The test proved something only if a mutation reached the server while the listing still paged.
    log = [(entry["number"], json.loads(entry["body"])["query"]) for entry in slow_server.requests()
           if entry["method"] == "POST"]
    pages = [number for number, query in log if "listComments" in query]
    writes = [number for number, query in log if query.startswith("mutation")]
    assert any(pages[0] < number < pages[-1] for number in writes), (pages, writes)
    # A change after the listing is one line.
    mutate(slow_server, schema, "update", "Comment", "--id", "w1", "content=later")
    assert watch.event() == {"event": "update", "item": server_records(slow_server, schema, "Comment")["w1"]}
    watch.signal(2)
    code, rest, stderr = watch.finish()
    assert (code, rest) == (130, ""), stderr


def test_where_filters_the_listing_and_the_subscriptions(background, server, schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    watch = background(*gqlc_args(server, schema_examples_dir, "list", "Comment", "--watch", "--where", "post=p2"))
    watch.stderr_line(lambda line: line.startswith("subscribed:"))
    expected = server_records(server, schema, "Comment", "--where", "post=p2")
    lines = [watch.event() for _ in range(len(expected) + 1)]
    assert lines[-1] == {"event": "synced", "count": len(expected)}
    assert replay(lines) == expected
    mutate(server, schema, "create", "Comment", "id=z1", "content=elsewhere", "post=p1")
    mutate(server, schema, "create", "Comment", "id=z2", "content=here", "post=p2")
    event = watch.event()
    assert (event["event"], event["item"]["id"]) == ("create", "z2")


def test_a_filter_subscriptions_cannot_express_is_refused_and_polling_watches_it(background, server, schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    run = run_gqlc(gqlc_args(server, schema_examples_dir, "list", "Post", "--watch", "--where", "title?"))
    assert run.code == 2 and run.stdout == "", run
    assert run.stderr.startswith("gqlc: cannot watch Post through its subscriptions: "), run.stderr
    assert "--interval SECONDS watches it by listing again instead" in run.stderr
    assert "opened" not in server.stderr_text()

    watch = background(*gqlc_args(server, schema_examples_dir, "list", "Post", "--watch", "--where", "title?",
                                  "--interval", "0.2"))
    watch.stderr_line(lambda line: line == "gqlc: watching Post by listing it every 0.2 s")
    expected = server_records(server, schema, "Post")
    lines = [watch.event() for _ in range(len(expected) + 1)]
    assert lines[-1] == {"event": "synced", "count": len(expected)}
    mutate(server, schema, "create", "Post", "id=q1", "title=Polled", "rating:=3")
    event = watch.event()
    assert (event["event"], event["item"]["id"], event["item"]["title"]) == ("create", "q1", "Polled")
    mutate(server, schema, "delete", "Post", "--id", "q1")
    assert watch.event() == {"event": "delete", "item": event["item"]}
    watch.signal(15)
    assert watch.finish()[0] in (130, 143)


def test_after_a_lost_connection_watch_lists_again_and_reports_what_changed_meanwhile(
        background, start_appsync, schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    server = start_appsync(schema, seed=schema_examples_dir / "blog-seed.json", api_key=API_KEY,
                           args=("--ws-drop-after", "1"))
    watch = background(*gqlc_args(server, schema_examples_dir, "list", "Blog", "--watch"))
    lines = [watch.event() for _ in range(3)]
    assert lines[-1]["event"] == "synced"
    # The first event is delivered, then the server drops the connection.
    mutate(server, schema, "create", "Blog", "id=g1", "name=first")
    assert watch.event()["item"]["id"] == "g1"
    watch.stderr_line(lambda line: line.startswith("gqlc: connection lost"))
    watch.stderr_line(lambda line: line.startswith("gqlc: listed Blog again after the lost connection"))
    mutate(server, schema, "update", "Blog", "--id", "g1", "name=second")
    event = watch.event()
    assert (event["event"], event["item"]["name"]) == ("update", "second")


def test_watch_refuses_options_a_live_listing_cannot_take(server, schema_examples_dir):
    for extra, option in ((("--count",), "--count"), (("--limit", "3"), "--limit")):
        run = run_gqlc(gqlc_args(server, schema_examples_dir, "list", "Post", "--watch", *extra))
        assert run.code == 2, run
        assert run.stderr == (f"gqlc: option '--watch' cannot be used with '{option}': "
                              "a live listing shows every matching record\n")
    run = run_gqlc(gqlc_args(server, schema_examples_dir, "list", "Post", "--interval", "2"))
    assert (run.code, run.stderr) == (2, "gqlc: option '--interval' needs '--watch'\n")


def test_watch_ends_after_timeout_with_status_0(background, server, schema_examples_dir):
    watch = background(*gqlc_args(server, schema_examples_dir, "list", "Blog", "--watch", "--timeout", "3"))
    lines = [watch.event() for _ in range(3)]
    assert [line["event"] for line in lines] == ["item", "item", "synced"]
    code, rest, stderr = watch.finish()
    assert (code, rest) == (0, ""), stderr


# MARK: - subscribe --envelope and --raw-response


def test_subscribe_envelope_tells_a_create_from_a_delete_of_the_same_record(background, server, schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    watch = background(*gqlc_args(server, schema_examples_dir, "subscribe", "Post", "--on", "create", "--on", "update",
                                  "--on", "delete", "--envelope", "--count", "3"))
    watch.subscribed("onCreatePost", "onUpdatePost", "onDeletePost")
    created = mutate(server, schema, "create", "Post", "id=e1", "title=Enveloped", "rating:=3")
    assert watch.event() == {"event": "create", "item": created}
    updated = mutate(server, schema, "update", "Post", "--id", "e1", "title=Changed")
    assert watch.event() == {"event": "update", "item": updated}
    mutate(server, schema, "delete", "Post", "--id", "e1")
    assert watch.event() == {"event": "delete", "item": updated}
    assert watch.finish()[0] == 0


def test_subscribe_raw_response_prints_the_data_messages_as_they_came(background, server, schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    watch = background(*gqlc_args(server, schema_examples_dir, "subscribe", "Post", "--on", "create",
                                  "--raw-response", "--count", "1"))
    watch.subscribed("onCreatePost")
    created = mutate(server, schema, "create", "Post", "id=r1", "title=Raw", "rating:=3")
    assert watch.event() == {"data": {"onCreatePost": created}}
    assert watch.finish()[0] == 0


# MARK: - The live table on a terminal


def test_on_a_terminal_the_table_is_redrawn_in_place_marks_the_change_and_q_restores_the_screen(
        server, schema_examples_dir):
    from gqlc_runner import Terminal

    schema = schema_examples_dir / "blog.json"
    screen = Terminal(gqlc_args(server, schema_examples_dir, "list", "Post", "--watch", "--fields", "id,title",
                                "--sort", "-title"))
    screen.read_until(b"\x1b[?1049h")  # the alternate screen
    count = len(server_records(server, schema, "Post"))
    screen.read_until(f"Post: {count} records".encode())
    screen.read_until(b"synced")
    mutate(server, schema, "update", "Post", "--id", "p1", "title=ZZZ on top")
    # The changed row is drawn in reverse video, first by --sort -title, right under the header.
    screen.read_until(b"\x1b[7mp1  ZZZ on top")
    frame = screen.seen.rsplit(b"\x1b[H", 1)[-1]
    rows = [re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", line).strip(b"\r") for line in frame.split(b"\n")]
    assert rows[1].startswith(b"id"), rows
    assert b"ZZZ on top" in rows[2], rows
    screen.type("q")
    screen.read_until(b"\x1b[?25h\x1b[?1049l")  # cursor shown, screen restored
    assert screen.exit_code() == 0


def test_ctrl_c_on_the_live_table_restores_the_screen_and_exits_130(server, schema_examples_dir):
    from gqlc_runner import Terminal

    screen = Terminal(gqlc_args(server, schema_examples_dir, "list", "Blog", "--watch"))
    screen.read_until(b"synced")
    screen.type("\x03")
    screen.read_until(b"\x1b[?1049l")
    assert screen.exit_code() == 130
