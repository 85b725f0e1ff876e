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


# MARK: - A belongsTo in --input


def test_a_belongs_to_given_as_the_related_record_or_its_key_sets_the_foreign_key(blog):
    lines = [{"id": "n1", "title": "As a DataStore record", "blog": {"id": "b1", "__typename": "Blog"}},
             {"id": "n2", "title": "As a key", "blog": "b2"},
             {"id": "n3", "title": "With both", "blogId": "b1", "blog": {"id": "b1"}}]
    run = blog("create", "Post", "--input", "-", stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert run.code == 0, run
    assert [(r["id"], r["blogId"], r["blog"]["id"]) for r in run.ndjson()] == [("n1", "b1", "b1"), ("n2", "b2", "b2"),
                                                                               ("n3", "b1", "b1")]
    listed = blog("list", "Post", "--where", "blog=b1", "--output", "ndjson")
    assert {"n1", "n3"} <= {p["id"] for p in listed.ndjson()}, listed
    one = blog("update", "Post", "--input", "-", stdin=json.dumps({"id": "n2", "blog": {"id": "b1"}}))
    assert one.code == 0 and one.json()["blogId"] == "b1", one


def test_a_belongs_to_that_disagrees_with_its_foreign_key_is_refused(blog):
    run = blog("create", "Post", "--input", "-", stdin=json.dumps({"title": "x", "blogId": "b2", "blog": {"id": "b1"}}))
    assert run.code == 2 and run.stdout == "", run
    assert run.stderr_lines == ["gqlc: --input: 'blogId' is already set by 'blog' to another value; give it once"], run


def test_a_composite_belongs_to_takes_the_key_object(shared_fixtures_dir):
    schema = shared_fixtures_dir / "gen1-cpk-hasone-hasmany-manytomany.mis.json"
    with start_server(schema) as server:
        run_gqlc = runner_for(schema, server.url)
        assert run_gqlc("create", "Post3", "postId=p", "title=T").code == 0
        comment = {"commentId": "c1", "content": "hi", "post": {"postId": "p", "title": "T", "__typename": "Post3"}}
        run = run_gqlc("create", "Comment3", "--input", "-", stdin=json.dumps(comment))
        assert run.code == 0, run
        assert (run.json()["postId"], run.json()["postTitle"]) == ("p", "T")
        fetched = run_gqlc("get", "Post3", "--key", "postId=p", "--key", "title=T", "--include", "comments")
        assert [c["commentId"] for c in fetched.json()["comments"]["items"]] == ["c1"], fetched


def test_the_same_refusal_on_every_line_is_said_once_with_the_count(blog, tmp_path):
    rejects = tmp_path / "rejects.ndjson"
    line = json.dumps({"title": "x", "colour": "red"})
    run = blog("create", "Post", "--input", "-", "--rejects", rejects, stdin=(line + "\n") * 500)
    assert run.code == 1 and run.stdout == "", run
    refusal = "--input: unknown field 'colour' on Post"
    assert run.stderr_lines == [f"gqlc: <stdin>:1: {refusal}",
                                f"gqlc: <stdin>: the same error on 499 more lines (2-500): {refusal}",
                                run.stderr_lines[-1]], run
    assert run.stderr_lines[-1].startswith("0 created, 500 failed in ")
    assert rejects.read_text() == (line + "\n") * 500
    mixed = blog("--dry-run", "create", "Post", "--input", "-",
                 stdin="\n".join([line, json.dumps({"title": "ok"}), line, line, json.dumps({"title": "ok"}), line]))
    assert mixed.stderr_lines == [f"gqlc: <stdin>:1: {refusal}",
                                  f"gqlc: <stdin>: the same error on 3 more lines (3-4, 6): {refusal}"], mixed
