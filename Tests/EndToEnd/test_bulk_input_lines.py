"""Line-oriented bulk input (NDJSON), end to end against appsync-local: a bad line fails as a whole, once, with its
true line:column; nothing of it is applied, and it goes to ``--rejects`` unchanged. A line over the size limit is one
failed line and the lines after it go on. Pretty-printed values, several values on a line and arrays stay accepted.
"""

from __future__ import annotations

import json

import pytest

from gqlc_runner import runner_for
from harness import start_server

from bulk_support import summary

LIMIT = 64 << 20  # BulkInputItem.maximumSize, as docs/bulk-input.md documents it


@pytest.fixture
def blog_empty(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, record_requests=True) as server:
        run = runner_for(schema, server.url)
        run.server = server
        yield run


def record(i: int) -> str:
    return json.dumps({"id": f"k{i}", "content": f"comment {i}", "postId": "p1"})


def stored_ids(run_gqlc) -> list[str]:
    listing = run_gqlc("list", "Comment", "--output", "ndjson")
    assert listing.code == 0, listing
    return sorted(r["id"] for r in listing.ndjson())


def mutations_sent(server) -> int:
    return sum(1 for r in server.requests() if json.loads(r["body"])["query"].startswith("mutation"))


def test_a_bad_line_fails_once_whole_with_its_true_column_and_goes_to_rejects_unchanged(blog_empty, tmp_path):
    lines = [record(1), "not json", record(2) + " trailing", "  " + record(3) + " " + record(4), record(5)]
    source = tmp_path / "in.ndjson"
    source.write_text("\n".join(lines) + "\n")
    rejects = tmp_path / "rejects.ndjson"
    run = blog_empty("create", "Comment", "--input", source, "--rejects", rejects)
    assert run.code == 3, run
    assert [r["id"] for r in run.ndjson()] == ["k1", "k3", "k4", "k5"]
    column = len(record(2)) + 2
    assert run.stderr_lines[:-1] == [
        f"gqlc: {source}:2: invalid JSON at 2:2: unexpected character 'o'; expected 'null'",
        f"gqlc: {source}:3: invalid JSON at 3:{column}: unexpected character 't'; "
        "expected the end of the input after the JSON value"], run
    assert summary(run) == (4, "created", 2)
    assert rejects.read_text() == lines[1] + "\n" + lines[2] + "\n"
    assert stored_ids(blog_empty) == ["k1", "k3", "k4", "k5"]  # nothing of line 3 was applied
    assert mutations_sent(blog_empty.server) == 4


def test_garbage_and_binary_lines_are_one_failure_each(blog_empty, tmp_path):
    garbage = [b"\x00\x01\xff\xfe{ \"half [", b"\x1b[31m}}}", b"\xc3\x28 ,,, ]"]
    source = tmp_path / "in.ndjson"
    source.write_bytes(record(1).encode() + b"\n" + b"\n".join(garbage) + b"\n" + record(2).encode() + b"\n")
    rejects = tmp_path / "rejects.ndjson"
    run = blog_empty("create", "Comment", "--input", source, "--rejects", rejects)
    assert run.code == 3, run
    assert summary(run) == (2, "created", 3), run
    assert [line.split(":")[2] for line in run.stderr_lines[:-1]] == ["2", "3", "4"], run
    assert rejects.read_bytes() == b"\n".join(garbage) + b"\n"
    assert stored_ids(blog_empty) == ["k1", "k2"]


def test_a_line_over_the_size_limit_is_one_failure_and_the_lines_after_it_go_on(blog_empty, tmp_path):
    source = tmp_path / "big.ndjson"
    with source.open("w") as file:
        file.write(record(1) + "\n")
        file.write('{"id": "k2", "postId": "p1", "content": "' + "x" * LIMIT + '"}\n')
        file.write(record(3) + "\n")
    rejects = tmp_path / "rejects.ndjson"
    run = blog_empty("create", "Comment", "--input", source, "--rejects", rejects, timeout=300)
    assert run.code == 3, run
    assert [r["id"] for r in run.ndjson()] == ["k1", "k3"]
    assert run.stderr_lines[0] == (
        f"gqlc: {source}:2: larger than 64 MiB, the most gqlc reads as one record; it was read past and not sent "
        "(nor copied to --rejects)"), run
    assert summary(run) == (2, "created", 1)
    assert rejects.read_text() == ""


def test_pretty_values_several_values_on_a_line_and_arrays_stay_accepted(blog_empty, tmp_path):
    pretty = tmp_path / "pretty.json"
    pretty.write_text("\n".join(json.dumps(json.loads(record(i)), indent=2) for i in (1, 2)) + "\n")
    run = blog_empty("create", "Comment", "--input", pretty)
    assert run.code == 0 and [r["id"] for r in run.ndjson()] == ["k1", "k2"], run
    run = blog_empty("create", "Comment", "--input", "-", stdin=record(3) + record(4) + " " + record(5) + "\n")
    assert run.code == 0 and [r["id"] for r in run.ndjson()] == ["k3", "k4", "k5"], run
    array = "[\n" + ",\n".join(record(i) for i in (6, 7)) + "\n]\n"
    run = blog_empty("create", "Comment", "--input", "-", stdin=array)
    assert run.code == 0 and [r["id"] for r in run.ndjson()] == ["k6", "k7"], run
