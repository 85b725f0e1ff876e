"""Bulk jobs for people: the progress line of bulk create/update/delete, `delete --where` and `--cascade` on a real
pseudo-terminal (never on a pipe), and `--fields` / `--output table|tsv|raw` on the records they print.
"""

from __future__ import annotations

import json
import re

import pytest

from gqlc_runner import Terminal, on_terminal, runner_for
from harness import start_server

ERASE = "\r\x1b[K"
SGR = re.compile(r"\x1b\[[0-9;]*m")
SUMMARY = re.compile(r"(\d+) (created|updated|deleted), (\d+) failed in \d+\.\d\d s\n")


def comment(i: int, post: str = "p1") -> dict:
    return {"id": f"k{i:04d}", "author": "bulk", "content": f"comment {i}", "likes": i, "postId": post}


@pytest.fixture
def blog(schema_examples_dir):
    """A seeded blog server: the fixed arguments for on_terminal, and a runner."""
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, seed=schema_examples_dir / "blog-seed.json") as server:
        args = ["--schema", schema, "--endpoint", server.url]
        yield args, runner_for(schema, server.url)


def write_input(tmp_path, lines: list[str]):
    path = tmp_path / "input.ndjson"
    path.write_text("".join(line + "\n" for line in lines))
    return path


# MARK: - Progress


def test_bulk_create_draws_progress_with_failures_then_erases_it_before_the_summary(blog, tmp_path):
    args, _ = blog
    path = write_input(tmp_path, [json.dumps(comment(0)), "{not json", *(json.dumps(comment(i)) for i in range(1, 30))])
    code, out, err = on_terminal([*args, "create", "Comment", "--input", path], stdout_tty=False, stderr_tty=True, stdout_file=True)
    assert code == 3, err
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["k0000", *(f"k{i:04d}" for i in range(1, 30))]
    assert f"{ERASE}1 item, " in err  # the first result draws the line
    # The failure's message is printed on a line of its own, and the line drawn again under it counts it.
    assert f"{ERASE}gqlc: {path}:2: invalid JSON" in err
    after = err.split(f"{path}:2: invalid JSON", 1)[1]
    assert re.search(r"\r\x1b\[K2 items, 1 failed, ", after), err
    summary = SUMMARY.search(err)
    assert summary and summary.groups() == ("30", "created", "1") and err.endswith(summary.group(0)), err
    assert err[: summary.start()].endswith(ERASE), err  # erased before the summary


def test_records_printed_to_the_same_terminal_go_above_the_line(blog, tmp_path):
    args, _ = blog
    path = write_input(tmp_path, [json.dumps({"id": f"c{i}", "likes": 100 + i}) for i in range(1, 6)])
    code, text, _ = on_terminal([*args, "update", "Comment", "--input", path], stdout_tty=True, stderr_tty=True)
    assert code == 0, text
    records = [SGR.sub("", line.split(ERASE)[-1]) for line in text.split("\n") if "\"likes\"" in line]
    assert [json.loads(record)["likes"] for record in records] == [101, 102, 103, 104, 105], text
    assert "1 item, " in text and "5 updated, 0 failed" in text


# MARK: - Colour


def test_bulk_records_are_coloured_on_a_terminal_as_list_colours_them(blog, tmp_path):
    args, _ = blog
    path = write_input(tmp_path, [json.dumps({"id": f"c{i}", "likes": 40 + i, "author": None}) for i in (1, 2)])
    code, out, err = on_terminal([*args, "update", "Comment", "--input", path, "--fields", "likes,author"])
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 2, out
    # Keys bold blue, numbers cyan, null grey, as `list` and `get` colour them (compact: no space after the colon).
    assert f'\x1b[1;34m"likes"\x1b[0m:\x1b[36m41\x1b[0m' in lines[0], out
    assert f'\x1b[1;34m"author"\x1b[0m:\x1b[90mnull\x1b[0m' in lines[0], out
    assert [json.loads(SGR.sub("", line))["likes"] for line in lines] == [41, 42]


@pytest.mark.parametrize("args, env", [(["--color", "never"], None), ([], {"NO_COLOR": "1"})])
def test_bulk_records_are_not_coloured_when_colour_is_off(blog, tmp_path, args, env):
    fixed, _ = blog
    path = write_input(tmp_path, ['{"id":"c1","likes":51}', '{"id":"c2","likes":52}'])
    code, out, err = on_terminal([*fixed, *args, "update", "Comment", "--input", path], env=env)
    assert code == 0 and "\x1b[" not in out, out
    assert [json.loads(line)["likes"] for line in out.splitlines()] == [51, 52]


def test_bulk_records_on_a_pipe_are_plain_unless_colour_is_always(blog, tmp_path):
    _, run_gqlc = blog
    path = write_input(tmp_path, ['"c1"', '"c2"'])
    piped = run_gqlc("delete", "Comment", "--input", path)
    assert piped.code == 0 and "\x1b[" not in piped.stdout and len(piped.ndjson()) == 2, piped
    path = write_input(tmp_path, ['"c3"', '"c4"'])
    forced = run_gqlc("--color", "always", "delete", "Comment", "--input", path)
    assert forced.code == 0 and '\x1b[1;34m"id"\x1b[0m:\x1b[32m"c3"\x1b[0m' in forced.stdout, forced


def test_bulk_progress_never_goes_to_a_pipe_and_quiet_turns_it_off(blog, tmp_path):
    args, run_gqlc = blog
    path = write_input(tmp_path, ['"c1"', '"c2"'])
    piped = run_gqlc("delete", "Comment", "--input", path)
    assert piped.code == 0 and SUMMARY.fullmatch(piped.stderr), piped
    path = write_input(tmp_path, ['"c3"', '"c4"'])
    code, _, err = on_terminal([*args, "--quiet", "delete", "Comment", "--input", path], stdout_tty=False, stderr_tty=True)
    assert code == 0 and SUMMARY.fullmatch(err), err


def test_delete_where_shows_the_listing_then_the_deletes(blog):
    args, run_gqlc = blog
    code, out, err = on_terminal([*args, "delete", "Comment", "--where", "postId=p1", "--yes"],
                                 stdout_tty=False, stderr_tty=True, stdout_file=True)
    deleted = len(out.splitlines())
    assert code == 0 and deleted > 1, err
    assert f"{ERASE}{deleted} items, 1 page, " in err  # the listing
    assert f"{ERASE}1 item, " in err  # the deletes, counted from 1
    assert err.endswith(f"{ERASE}{deleted} deleted, 0 failed" + err.rsplit("0 failed", 1)[1]), err
    assert run_gqlc("list", "Comment", "--where", "postId=p1", "--count").stdout == "0\n"


def test_cascade_counts_the_deletes_on_the_line(blog):
    args, _ = blog
    code, out, err = on_terminal([*args, "delete", "Post", "--id", "p1", "--cascade", "--yes"],
                                 stdout_tty=False, stderr_tty=True, stdout_file=True)
    assert code == 0 and json.loads(out)["id"] == "p1", err
    assert f"{ERASE}1 item, " in err
    done = re.search(r"\r\x1b\[Kdeleted (\d+) records: \d+ Comment, 1 Post\n$", err)
    assert done and int(done.group(1)) > 1, err


# MARK: - Asking on a terminal


def test_delete_where_on_a_terminal_shows_the_count_and_asks_first(blog):
    args, run_gqlc = blog
    terminal = Terminal([*args, "delete", "Comment", "--where", "postId=p1"])
    terminal.read_until(b"delete 4 Comment records? [y/N] ")
    terminal.type("n\n")
    terminal.read_until(b"gqlc: nothing was deleted")
    assert terminal.exit_code() == 1, terminal.seen
    assert len([c for c in run_gqlc("list", "Comment", "-o", "ndjson").ndjson() if c["postId"] == "p1"]) == 4

    terminal = Terminal([*args, "delete", "Comment", "--where", "postId=p1"])
    terminal.read_until(b"delete 4 Comment records? [y/N] ")
    terminal.type("y\n")
    terminal.read_until(b"4 deleted, 0 failed")
    assert terminal.exit_code() == 0, terminal.seen
    assert not any(c["postId"] == "p1" for c in run_gqlc("list", "Comment", "-o", "ndjson").ndjson())


def test_cascade_on_a_terminal_asks_before_deleting_what_is_under_the_record(blog):
    args, run_gqlc = blog
    terminal = Terminal([*args, "delete", "Post", "--id", "p1", "--cascade"])
    terminal.read_until(b"delete Post id=p1 and the 4 records under it? [y/N] ")
    terminal.type("\n")  # the default is no
    terminal.read_until(b"gqlc: nothing was deleted")
    assert terminal.exit_code() == 1, terminal.seen
    assert run_gqlc("get", "Post", "--id", "p1").code == 0

    terminal = Terminal([*args, "delete", "Post", "--id", "p1", "--cascade"])
    terminal.read_until(b"[y/N] ")
    terminal.type("yes\n")
    terminal.read_until(b"deleted 5 records: 4 Comment, 1 Post")
    assert terminal.exit_code() == 0, terminal.seen
    assert run_gqlc("get", "Post", "--id", "p1").code == 4


@pytest.mark.parametrize("command", [["delete", "Comment", "--where", "postId=p1"],
                                     ["delete", "Post", "--id", "p1", "--cascade"]])
def test_ctrl_c_at_the_question_stops_and_deletes_nothing(blog, command):
    args, run_gqlc = blog
    before = run_gqlc("list", "Comment", "-o", "ndjson").ndjson()
    terminal = Terminal([*args, *command])
    terminal.read_until(b"[y/N] ")
    terminal.type("\x03")
    terminal.read_until(b"gqlc: interrupted; nothing was deleted")
    assert terminal.exit_code() == 130, terminal.seen
    assert run_gqlc("list", "Comment", "-o", "ndjson").ndjson() == before


# MARK: - --fields and --output on the records printed


def test_bulk_create_fields_asks_the_server_for_them_and_prints_only_them(blog, tmp_path):
    _, run_gqlc = blog
    path = write_input(tmp_path, [json.dumps(comment(i)) for i in range(3)])
    run = run_gqlc("create", "Comment", "--input", path, "--fields", "content,likes")
    assert run.code == 0, run
    assert run.ndjson() == [{"id": f"k{i:04d}", "content": f"comment {i}", "likes": i, "__typename": "Comment"}
                            for i in range(3)]
    # The mutation itself is narrowed (as --dry-run shows), not just the printing.
    plan = run_gqlc("--dry-run", "create", "Comment", "--input", path, "--fields", "content")
    queries = {json.loads(line)["query"] for line in plan.stdout.splitlines()}
    assert len(queries) == 1 and " ".join(queries.pop().split()).endswith(
        "createComment(input: $input) { id content __typename } }"), plan


def test_bulk_update_prints_a_tsv_and_a_table_of_the_fields(blog, tmp_path):
    _, run_gqlc = blog
    path = write_input(tmp_path, [json.dumps({"id": f"c{i}", "likes": 10 * i}) for i in (1, 2, 3)])
    run = run_gqlc("update", "Comment", "--input", path, "--fields", "author,likes", "--output", "tsv")
    assert run.code == 0, run
    assert run.stdout == "author\tlikes\nana\t10\nben\t20\nchloe\t30\n"
    run = run_gqlc("update", "Comment", "--input", path, "--fields", "likes", "--output", "table")
    assert run.code == 0 and run.stdout.splitlines() == ["likes", "10", "20", "30"], run
    assert SUMMARY.fullmatch(run.stderr), run


def test_bulk_delete_raw_prints_one_value_per_record(blog, tmp_path):
    _, run_gqlc = blog
    path = write_input(tmp_path, ['"c1"', '"c2"'])
    run = run_gqlc("delete", "Comment", "--input", path, "--fields", "author", "-o", "raw")
    assert (run.code, run.stdout) == (0, "ana\nben\n"), run


def test_delete_where_prints_the_deleted_records_as_asked_and_lists_keys_only(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, seed=schema_examples_dir / "blog-seed.json", record_requests=True) as server:
        run_gqlc = runner_for(schema, server.url)
        run = run_gqlc("delete", "Comment", "--where", "author=ana", "--yes", "--fields", "content", "-o", "tsv")
        assert run.code == 0, run
        lines = run.stdout.splitlines()
        assert lines[0] == "content" and len(lines) > 2 and "Mine finally doubled on day six!" in lines, run
        listing = [json.loads(r["body"])["query"] for r in server.requests() if "listComments" in r["body"]]
        assert listing and all(" ".join(q.split()).endswith("items { id __typename } nextToken } }") for q in listing), listing


def test_a_single_update_and_delete_take_fields_too(blog):
    _, run_gqlc = blog
    run = run_gqlc("update", "Comment", "--id", "c1", "likes=7", "--fields", "likes")
    assert (run.code, run.json()) == (0, {"id": "c1", "likes": 7, "__typename": "Comment"}), run
    run = run_gqlc("delete", "Comment", "--id", "c1", "--fields", "author", "-o", "raw")
    assert (run.code, run.stdout) == (0, "ana\n"), run


def test_cascade_prints_the_deleted_record_with_its_fields(blog):
    _, run_gqlc = blog
    run = run_gqlc("delete", "Post", "--id", "p2", "--cascade", "--yes", "--fields", "title", "-o", "table")
    assert run.code == 0, run
    assert [line.rstrip() for line in run.stdout.splitlines()] == ["title", "Choosing a first chef's knife"], run


@pytest.mark.parametrize("args, message", [
    (["create", "Comment", "--input", "-", "--fields", "post.title"],
     "gqlc: --fields 'post.title': 'title' on Post is not returned: a create, update or delete "
     "returns only the record's own fields and the keys of the records it belongs to"),
    (["update", "Comment", "--input", "-", "--fields", "likez"],
     "gqlc: --fields 'likez': unknown field 'likez' on Comment; did you mean 'likes'?"),
    (["delete", "Comment", "--where", "author=ana", "--yes", "-o", "raw"],
     "gqlc: '--output raw' prints one field per line; name it with --fields FIELD"),
    (["delete", "Post", "--id", "p1", "--cascade", "--yes", "--fields", "comments.content"],
     "gqlc: --fields 'comments.content': 'comments' on Post is not returned: a create, update or "
     "delete returns only the record's own fields and the keys of the records it belongs to"),
])
def test_fields_that_cannot_apply_are_refused_before_anything_is_sent(blog, args, message):
    _, run_gqlc = blog
    before = run_gqlc("list", "Comment", "--count").stdout
    run = run_gqlc("--verbose", *args, stdin='{"id": "c1", "likes": 1, "postId": "p1"}\n{"id": "c2", "likes": 2, "postId": "p1"}\n')
    assert (run.code, run.stdout, run.stderr_lines[-1:]) == (2, "", [message]), run
    assert not any(line.startswith("> ") for line in run.stderr_lines), run  # nothing was sent
    assert run_gqlc("list", "Comment", "--count").stdout == before
