"""What create and update take as record values, end to end against appsync-local: a null for a required field is
refused before sending (AppSync's update input would store it, and every later read of the record would fail), and a
belongsTo given in ``--input`` as the related record or its key sets the foreign key, as ``blog=b1`` does.
"""

from __future__ import annotations

import json

import pytest

from gqlc_runner import runner_for
from harness import start_server

NULL_TITLE = ("gqlc: update Post: cannot set the required field 'title' (String!) to null (every read of the record "
              "would then fail); give it a value or leave it out")


@pytest.fixture
def blog(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, seed=schema_examples_dir / "blog-seed.json", record_requests=True) as server:
        run = runner_for(schema, server.url)
        run.server = server
        yield run


def mutations(server) -> list[dict]:
    return [json.loads(r["body"]) for r in server.requests() if "mutation" in json.loads(r["body"])["query"]]


# MARK: - Required fields cannot be set to null


@pytest.mark.parametrize("value", ["title=null", "title:=null"])
def test_update_refuses_to_null_a_required_field_before_sending(blog, value):
    run = blog("update", "Post", "--id", "p1", value)
    assert run.code == 2 and run.stdout == "", run
    assert run.stderr_lines == [NULL_TITLE], run
    assert mutations(blog.server) == []
    still = blog("get", "Post", "--id", "p1")
    assert still.code == 0 and still.json()["title"] == "A sourdough starter in seven days", still


def test_bulk_update_fails_the_null_line_and_applies_the_others(blog, tmp_path):
    rejects = tmp_path / "rejects.ndjson"
    lines = ['{"id":"p5","title":null}', '{"id":"p2","title":"Kept going"}']
    run = blog("update", "Post", "--input", "-", "--rejects", rejects, stdin="\n".join(lines) + "\n")
    assert run.code == 3, run
    assert [r["id"] for r in run.ndjson()] == ["p2"]
    assert run.stderr_lines[0] == "gqlc: <stdin>:1: " + NULL_TITLE.removeprefix("gqlc: "), run
    assert rejects.read_text() == lines[0] + "\n"
    assert [m["variables"]["input"]["id"] for m in mutations(blog.server)] == ["p2"]
    p5 = blog("get", "Post", "--id", "p5")
    assert p5.code == 0 and p5.json()["title"], p5  # still readable


def test_an_optional_field_can_still_be_cleared(blog):
    run = blog("update", "Post", "--id", "p1", "content=null")
    assert run.code == 0 and run.json()["content"] is None, run
