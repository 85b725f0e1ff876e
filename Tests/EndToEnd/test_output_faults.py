"""Output that cannot be written, and output for people: the built binary against appsync-local.

A closed pipe ends gqlc by SIGPIPE (141 in the shell) with nothing more printed; any other write error (a full disk,
shown by /dev/full; a closed stdout) is one line naming the file, status 7, and a bulk job accounts for every record
(done, or in --rejects). A listing that received nothing prints nothing; tables align by display width and cut
nothing without a width; TSV escapes control characters.
"""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import unicodedata

import pytest

from gqlc_runner import GQLC_BIN, closed_port_url, gqlc_env, on_terminal, runner_for
from harness import start_server

SUMMARY = re.compile(r"(\d+) created, (\d+) failed(?:, (\d+) not sent)? in \d+\.\d\d s")
ERASE = "\r\x1b[K"
# Each bulk output line is about 4 KB, so that 100 of them cannot all sit in a pipe's 64 KB buffer: gqlc must
# still be writing when the reader goes away, whatever the timing.
BIG = "x" * 4000


@pytest.fixture
def blog(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, seed=schema_examples_dir / "blog-seed.json") as server:
        run = runner_for(schema, server.url)
        run.args = ["--schema", str(schema), "--endpoint", server.url]
        yield run


def wait_for_log(server, fragment: str) -> None:
    """Waits until the server's log holds a line with ``fragment`` (it logs a connection's end after gqlc is gone)."""
    server.wait_for_log(fragment)


def shell(command: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", command], capture_output=True, env=gqlc_env(), timeout=timeout)


def quoted(args) -> str:
    return " ".join(f"'{a}'" for a in [GQLC_BIN, *args])


def comments(count: int, content: str = BIG) -> list[str]:
    return [json.dumps({"id": f"n{i:04d}", "postId": "p1", "content": content}) for i in range(count)]


def seed_input(blog, model: str, records: list[dict]):
    """Creates `records` in order with one bulk create (concurrency 1 keeps the server's scan order)."""
    run = blog("create", model, "--input", "-", "--concurrency", "1", "-o", "ndjson",
               stdin="".join(json.dumps(record) + "\n" for record in records))
    assert run.code == 0, run


def server_count(blog) -> int:
    run = blog("list", "Comment", "--where", "postId=p1", "--count")
    assert run.code == 0, run
    return int(run.stdout)


SEEDED_ON_P1 = 4  # comments of p1 in blog-seed.json


# MARK: - A closed pipe (issue 21 point 6)


def test_a_listing_whose_reader_goes_away_ends_by_sigpipe_and_prints_nothing_more(blog):
    """`set -o pipefail; gqlc list | head -c 1`: status 141 as for jq, no `next token`, no message."""
    seed_input(blog, "Post", [{"title": f"t{i}", "content": BIG} for i in range(40)])
    completed = shell(f"set -o pipefail; {quoted([*blog.args, 'list', 'Post', '--page-size', '5'])} | head -c 1;"
                      " echo \" status=$?\"")
    assert completed.stdout.decode().endswith(" status=141\n"), completed
    assert completed.stderr == b"", completed.stderr


def test_a_bulk_job_whose_reader_goes_away_stops_and_puts_the_rest_in_rejects(blog, tmp_path):
    source = tmp_path / "in.ndjson"
    lines = comments(100)
    source.write_text("\n".join(lines) + "\n")
    rejects = tmp_path / "rejects.ndjson"
    process = subprocess.Popen([str(GQLC_BIN), *blog.args, "create", "Comment", "--input", str(source),
                                "--rejects", str(rejects), "--concurrency", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=gqlc_env())
    first = process.stdout.readline()
    process.stdout.close()  # the reader goes away after one record
    stderr = process.stderr.read().decode()
    code = process.wait(timeout=60)
    assert json.loads(first)["id"] == "n0000"
    assert code == -signal.SIGPIPE, stderr
    messages = stderr.splitlines()
    assert messages[0] == f"gqlc: standard output was closed; stopped starting records; the records not sent are in {rejects}"
    summary = SUMMARY.fullmatch(messages[1])
    assert summary and len(messages) == 2, stderr
    done, failed, not_sent = int(summary[1]), int(summary[2]), int(summary[3] or 0)
    assert failed == 0 and not_sent > 0 and done + not_sent == 100, stderr
    rejected = rejects.read_text().splitlines()
    assert len(rejected) == not_sent
    assert [json.loads(line)["id"] for line in rejected] == [f"n{i:04d}" for i in range(done, 100)]
    assert server_count(blog) == SEEDED_ON_P1 + done


def test_a_subscription_whose_reader_goes_away_unsubscribes_and_ends_by_sigpipe(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    key = "da2-outputfaultskey0123456789"
    with start_server(schema, api_key=key) as server:
        process = subprocess.Popen([str(GQLC_BIN), "--schema", str(schema), "--endpoint", server.url, "--api-key", key,
                                    "subscribe", "Post", "--on", "create"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=gqlc_env())
        assert process.stderr.readline() == b"subscribed: onCreatePost\n"
        process.stdout.close()
        created = runner_for(schema, server.url, "--api-key", key)("create", "Post", "title=t")
        assert created.code == 0, created
        rest = process.stderr.read()
        assert process.wait(timeout=60) == -signal.SIGPIPE, rest
        assert rest == b""
        wait_for_log(server, "stopped")  # stop sent and the connection closed, as after --count
        wait_for_log(server, "closed")


# MARK: - Write errors (issue 22 point 2)


@pytest.mark.parametrize("args", [["get", "Post", "--id", "p1"], ["list", "Comment", "--page-size", "2"],
                                  ["list", "Comment", "-o", "table"], ["models"]])
def test_stdout_on_a_full_disk_is_one_line_and_status_7(blog, args):
    completed = shell(f"{quoted([*blog.args, *args])} > /dev/full")
    assert completed.returncode == 7, completed
    assert completed.stderr.decode() == "gqlc: cannot write standard output: No space left on device\n"


def test_a_subscription_on_a_full_disk_says_so_once_and_exits_7(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    key = "da2-outputfaultskey0123456789"
    with start_server(schema, api_key=key) as server, open("/dev/full", "wb") as full:
        process = subprocess.Popen([str(GQLC_BIN), "--schema", str(schema), "--endpoint", server.url, "--api-key", key,
                                    "subscribe", "Post", "--on", "create", "--count", "1"],
                                   stdout=full, stderr=subprocess.PIPE, env=gqlc_env())
        assert process.stderr.readline() == b"subscribed: onCreatePost\n"
        created = runner_for(schema, server.url, "--api-key", key)("create", "Post", "title=t")
        assert created.code == 0, created
        rest = process.stderr.read()
        assert process.wait(timeout=60) == 7, rest
        assert rest == b"gqlc: cannot write standard output: No space left on device\n"


def test_a_closed_stdout_is_an_error_not_silence(blog):
    completed = shell(f"{quoted([*blog.args, 'get', 'Post', '--id', 'p1'])} >&-")
    assert completed.returncode == 7, completed
    assert completed.stderr.decode() == "gqlc: cannot write standard output: Bad file descriptor\n"


def test_bulk_create_to_a_full_disk_stops_and_accounts_for_every_record(blog, tmp_path):
    source = tmp_path / "in.ndjson"
    source.write_text("\n".join(comments(60, "short")) + "\n")
    rejects = tmp_path / "rejects.ndjson"
    completed = shell(f"{quoted([*blog.args, 'create', 'Comment', '--input', source, '--rejects', rejects])} > /dev/full")
    assert completed.returncode == 7, completed
    messages = completed.stderr.decode().splitlines()
    assert messages[0] == ("gqlc: cannot write standard output: No space left on device; stopped starting records; "
                           f"the records not sent are in {rejects}"), messages
    summary = SUMMARY.fullmatch(messages[1])
    assert summary, messages
    done, not_sent = int(summary[1]), int(summary[3] or 0)
    assert not_sent > 0 and done + not_sent == 60
    assert len(rejects.read_text().splitlines()) == not_sent
    assert server_count(blog) == SEEDED_ON_P1 + done


def test_rejects_on_a_full_disk_is_said_and_stops_the_job(blog, tmp_path):
    source = tmp_path / "in.ndjson"
    source.write_text("\n".join(['{"id":"bad1","nope":1}', *comments(30, "short")]) + "\n")
    run = blog("create", "Comment", "--input", source, "--rejects", "/dev/full")
    assert run.code == 7, run
    said = [line for line in run.stderr_lines if "--rejects" in line]
    assert len(said) == 1 and re.fullmatch(
        r"gqlc: cannot write --rejects file /dev/full: No space left on device; \d+ failed or unsent records? (is|are) "
        r"not in it, from input line 1 on", said[0]), run
    summary = SUMMARY.search(run.stderr)
    assert summary and int(summary[1]) + int(summary[2]) + int(summary[3] or 0) == 31, run


def test_rejects_files_are_created_readable_by_their_owner_only(blog, tmp_path):
    source = tmp_path / "in.ndjson"
    source.write_text('{"id":"r1","nope":1}\n{"id":"r2","nope":2}\n')
    rejects = tmp_path / "rejects.ndjson"
    run = blog("create", "Comment", "--input", source, "--rejects", rejects)
    assert run.code == 1, run
    assert stat.S_IMODE(rejects.stat().st_mode) == 0o600
    assert rejects.read_text() == source.read_text()


# MARK: - A listing that received nothing (issue 21 point 8)


@pytest.mark.parametrize("output", ["json", "table", "tsv"])
def test_a_listing_whose_first_request_fails_prints_nothing(schema_examples_dir, output):
    run = runner_for(schema_examples_dir / "blog.json", closed_port_url())("list", "Post", "-o", output)
    assert (run.code, run.stdout) == (6, ""), run


def test_a_listing_refused_by_the_server_prints_nothing(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, api_key="da2-right") as server:
        run = runner_for(schema, server.url, "--api-key", "da2-wrong")("list", "Post")
    assert run.code == 5 and run.stdout == "", run


def test_a_listing_that_fails_after_printing_records_still_closes_its_array(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, seed=schema_examples_dir / "blog-seed.json",
                      args=["--fail-every", "2", "--fail-status", "403"]) as server:
        run = runner_for(schema, server.url)("list", "Comment", "--page-size", "3")
    assert run.code == 5, run
    assert [c["id"] for c in run.json()] == ["c1", "c2", "c3"]  # the first page, as valid JSON
    assert any(line.startswith("next token: ") for line in run.stderr_lines), run


def test_an_empty_listing_still_prints_an_empty_array(blog):
    run = blog("list", "Post", "--where", "title=nothing-has-this")
    assert (run.code, run.stdout) == (0, "[]\n"), run


# MARK: - Progress and a pipe that shares the terminal (issue 21 point 7)


def test_no_progress_when_stdout_is_a_pipe_whose_reader_shares_the_terminal(blog):
    code, out, err = on_terminal([*blog.args, "list", "Comment", "--page-size", "2", "-o", "ndjson"],
                                 stdout_tty=False, stderr_tty=True)
    assert code == 0 and len(out.splitlines()) == 12
    assert err == "", err  # `gqlc list | jq` on a terminal: nothing drawn that jq's output could run into


def test_progress_when_stdout_is_a_file(blog):
    code, out, err = on_terminal([*blog.args, "list", "Comment", "--page-size", "2", "-o", "ndjson"],
                                 stdout_tty=False, stderr_tty=True, stdout_file=True)
    assert code == 0 and len(out.splitlines()) == 12
    assert f"{ERASE}2 items, 1 page, " in err and err.endswith(ERASE), err


# MARK: - Tables (issue 21 points 11, 12, 13) and TSV (issue 22 point 13)


def long_comments(blog, count: int, short_first: int = 2):
    """`count` comments on p9 in scan order: the first `short_first` short, the rest 70 characters or more."""
    seed_input(blog, "Comment", [
        {"id": f"w{i:03d}", "postId": "p9",
         "content": "short" if i < short_first else f"a much longer comment number {i}, " + "with words " * 4}
        for i in range(count)])


def test_a_table_without_a_width_cuts_nothing(blog):
    long_comments(blog, 6)
    run = blog("list", "Comment", "--where", "postId=p9", "--page-size", "2", "--fields", "id,content", "-o", "table")
    assert run.code == 0, run
    assert "…" not in run.stdout, run.stdout
    rows = run.stdout.splitlines()[1:]
    assert [row.split(None, 1)[1] for row in rows[2:]] == [
        f"a much longer comment number {i}, " + "with words " * 4 for i in range(2, 6)]


def test_a_table_with_a_width_is_sized_from_more_than_the_first_page(blog):
    long_comments(blog, 6)
    run = blog("list", "Comment", "--where", "postId=p9", "--page-size", "2", "--fields", "content,id", "-o", "table",
               env={"COLUMNS": "120"})
    assert run.code == 0, run
    assert "…" not in run.stdout, run.stdout
    lines = run.stdout.splitlines()
    assert len({line.rindex(" ") for line in lines}) == 1, lines  # the id column lines up under its header


def test_the_last_column_takes_the_free_space_of_the_line(blog):
    long_comments(blog, 60, short_first=55)
    run = blog("list", "Comment", "--where", "postId=p9", "--page-size", "20", "--fields", "id,content", "-o", "table",
               env={"COLUMNS": "100"})
    assert run.code == 0, run
    assert "…" not in run.stdout and "comment number 59" in run.stdout, run.stdout


def display_width(text: str) -> int:
    """An independent reference: Python's Unicode database (East Asian Width W/F = 2, combining marks 0)."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


@pytest.mark.parametrize("env", [{}, {"COLUMNS": "200"}])
def test_table_columns_line_up_by_display_width(blog, env):
    titles = ["plain", "日本語のタイトル", "한국어 제목", "ｆｕｌｌｗｉｄｔｈ", "cafe\u0301 combining", "emoji 🎉🙂 party"]
    seed_input(blog, "Post", [{"id": f"u{i}", "title": title, "blogId": "b3", "rating": 4} for i, title in enumerate(titles)])
    run = blog("list", "Post", "--where", "blogId=b3", "--fields", "title,rating", "-o", "table", env=env)
    assert run.code == 0, run
    lines = run.stdout.splitlines()
    starts = {display_width(line[:line.rindex(" ") + 1]) for line in lines}
    assert len(starts) == 1, lines
    assert sorted(line.split("  ")[0].rstrip() for line in lines[1:]) == sorted(titles)


def test_cutting_a_wide_value_keeps_whole_characters_within_the_width(blog):
    title = "東京の天気予報と週末の山歩きの計画について" * 2
    assert blog("create", "Post", "id=u9", f"title={title}", "blog=b3").code == 0
    run = blog("get", "Post", "--id", "u9", "--fields", "id,title", "-o", "table", env={"COLUMNS": "30"})
    assert run.code == 0, run
    row = run.stdout.splitlines()[1]
    assert row.endswith("…") and display_width(row) <= 30 and display_width(row) >= 29, row


@pytest.mark.parametrize("output", ["table", "tsv"])
def test_the_short_form_of_an_included_lists_field_fills_its_column(blog, output):
    run = blog("get", "Post", "--id", "p3", "--include", "comments", "--fields", "title,comments.content", "-o", output)
    assert run.code == 0, run
    header, row = run.stdout.splitlines()
    assert header.split()[:2] == ["title", "comments.content"] if output == "table" else header == "title\tcomments.content"
    expected = blog("get", "Post", "--id", "p3", "--include", "comments", "--fields", "comments.items.content",
                    "-o", "ndjson").json()
    contents = [c["content"] for c in expected["comments"]["items"]]
    assert contents, expected
    assert json.dumps(contents, separators=(",", ":"), ensure_ascii=False)[:20] in row, row


def test_tsv_escapes_every_control_character(blog):
    run = blog("create", "Post", 'title:="red \\u001b[31m bell \\u0007 nul \\u0000 del \\u007f c1 \\u009b"', "blog=b1",
               "--fields", "title", "-o", "tsv")
    assert run.code == 0, run
    assert run.stdout.splitlines()[1] == "red \\x1b[31m bell \\x07 nul \\x00 del \\x7f c1 \\x9b"
    assert not any(ord(c) < 0x20 and c != "\n" for c in run.stdout), repr(run.stdout)


def test_a_longer_later_value_in_a_middle_column_takes_the_free_space_of_its_line(blog):
    """Widths come from the first 50 records; a later, longer value in a column that is not the last used to be cut
    although the line had room. It takes the line's free space now (pushing only its own row's next cells), and is
    cut only past the width."""
    long_comments(blog, 100, short_first=90)  # the widths are fitted to the first 60 (3 pages)
    run = blog("list", "Comment", "--where", "postId=p9", "--page-size", "20", "--fields", "content,id", "-o", "table",
               env={"COLUMNS": "100"})
    assert run.code == 0, run
    lines = run.stdout.splitlines()
    assert "…" not in run.stdout, run.stdout
    assert all(len(line) <= 100 for line in lines), lines
    assert lines[-1] == f"a much longer comment number 99, {'with words ' * 4}  w099"
    assert lines[1].split() == ["short", "w000"] and lines[1].index("w000") == lines[0].index("id")
    narrow = blog("list", "Comment", "--where", "postId=p9", "--page-size", "20", "--fields", "content,id", "-o", "table",
                  env={"COLUMNS": "40"})
    assert all(len(line) <= 40 for line in narrow.stdout.splitlines()), narrow.stdout
    assert narrow.stdout.splitlines()[-1].endswith("…  w099"), narrow.stdout
