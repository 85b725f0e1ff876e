"""Issue 21 point 9: a listing asks for no more than it needs. Without a filter the server returns exactly the limit
asked for, so `--limit N` asks for pages of at most the N still needed (Amplify sends `limit: 10`); with a filter
(applied after DynamoDB's limit) whole pages stay. Included lists are followed in pages of 100, Amplify's default,
unless --page-size says otherwise. Every figure is read from the server's request log."""

from __future__ import annotations

import json

import pytest

from gqlc_runner import run_gqlc


@pytest.fixture
def server(start_appsync, schema_examples_dir):
    return start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                         record_requests=True)


def run(server, schema_examples_dir, *args, stdin=None):
    return run_gqlc(["--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, *args], stdin=stdin)


def sent(server, root):
    """The variables of each request whose document names ``root``, in order."""
    bodies = [json.loads(entry["body"]) for entry in server.requests() if entry["method"] == "POST"]
    return [body.get("variables", {}) for body in bodies if root in body["query"]]


def test_a_limit_without_a_filter_asks_for_what_it_still_needs(server, schema_examples_dir):
    result = run(server, schema_examples_dir, "list", "Comment", "--limit", "3", "--include", "post",
                 "--output", "ndjson")
    assert result.code == 0, result
    assert len(result.stdout.splitlines()) == 3
    assert [variables["limit"] for variables in sent(server, "listComments")] == [3]


def test_a_limit_across_pages_asks_for_the_rest_on_the_next(server, schema_examples_dir):
    result = run(server, schema_examples_dir, "list", "Comment", "--limit", "5", "--page-size", "3",
                 "--output", "ndjson")
    assert result.code == 0, result
    assert [variables["limit"] for variables in sent(server, "listComments")] == [3, 2]
    assert "next token:" in result.stderr


def test_a_limit_with_a_filter_keeps_whole_pages(server, schema_examples_dir):
    result = run(server, schema_examples_dir, "list", "Comment", "--limit", "1", "--where", "post=p1",
                 "--page-size", "4", "--output", "ndjson")
    assert result.code == 0, result
    assert {variables["limit"] for variables in sent(server, "listComments")} == {4}


def test_included_lists_are_followed_in_pages_of_100_unless_page_size_says(server, schema_examples_dir):
    lines = "".join(json.dumps({"id": f"x{i}", "content": "c", "postId": "p1"}) + "\n" for i in range(150))
    assert run(server, schema_examples_dir, "create", "Comment", "--input", "-", stdin=lines).code == 0
    result = run(server, schema_examples_dir, "get", "Post", "--id", "p1", "--include", "comments")
    assert result.code == 0, result
    assert len(result.json()["comments"]["items"]) > 150
    follow_ups = [variables for variables in sent(server, "getPost") if "nextToken" in variables]
    assert follow_ups and {variables["limit"] for variables in follow_ups} == {100}
    result = run(server, schema_examples_dir, "list", "Post", "--where", "id=p1", "--include", "comments",
                 "--page-size", "60", "--output", "ndjson")
    assert result.code == 0, result
    follow_ups = [variables for variables in sent(server, "getPost") if "nextToken" in variables][len(follow_ups):]
    assert follow_ups and {variables["limit"] for variables in follow_ups} == {60}
