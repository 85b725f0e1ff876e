"""`gqlc raw` end to end against appsync-local on the blog example (blog.json, seeded from blog-seed.json).

raw needs no model schema: these runs give only ``--endpoint``. The documents are the examples in
schema-examples/queries/, which docs/custom-operations-and-raw.md quotes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
QUERIES = REPO_ROOT / "schema-examples" / "queries"


def compact(value) -> str:
    """What gqlc prints for ``value`` when stdout is not a terminal."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"


@pytest.fixture
def raw(gqlc, blog_server, tmp_path):
    """``raw(*args)`` runs ``gqlc --endpoint URL raw *args`` against a fresh blog server, from an empty
    directory (so that no ./amplify_outputs.json is picked up)."""
    def run(*args, stdin=None):
        return gqlc("--endpoint", blog_server.url, "raw", *args, stdin=stdin, cwd=tmp_path)
    run.server = blog_server
    return run


def test_a_custom_document_gets_exactly_the_fields_it_selects(raw):
    run = raw("--query", "query ($id: ID!) { getPost(id: $id) { title status tags } }", "--var", "id=p1")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout == compact({"getPost": {"title": "A sourdough starter in seven days", "status": "PUBLISHED",
                                              "tags": ["bread", "fermentation"]}})


def test_nested_data_to_a_chosen_depth(raw):
    run = raw(QUERIES / "post-with-comments.graphql", "--vars", QUERIES / "post-with-comments.vars.json")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout == compact({"getPost": {
        "title": "Choosing a first chef's knife",
        "status": "PUBLISHED",
        "comments": {"items": [
            {"author": "ana", "content": "Santoku or gyuto for a beginner?"},
            {"author": "emil", "content": "Great point about the handle."},
        ]},
    }})


def test_ndjson_prints_an_array_result_one_element_per_line(raw):
    query = "query ($limit: Int) { listPosts(limit: $limit) { items { id title } nextToken } }"
    run = raw("--query", query, "--var", "limit:=3", "--decode-path", "listPosts.items", "--output", "ndjson")
    assert (run.code, run.stderr) == (0, ""), run
    assert [json.loads(line)["id"] for line in run.stdout.splitlines()] == ["p1", "p2", "p3"]
    # An object result stays one line; an empty array prints nothing.
    whole = raw("--query", query, "--var", "limit:=1", "--output", "ndjson")
    assert whole.stdout.count("\n") == 1 and json.loads(whole.stdout)["listPosts"]["items"][0]["id"] == "p1"
    none = raw("--query", '{ listPosts(filter: {title: {eq: "nothing"}}) { items { id } } }',
               "--decode-path", "listPosts.items", "--output", "ndjson")
    assert (none.code, none.stdout, none.stderr) == (0, "", ""), none


def test_a_variable_default_applies_on_appsync_too(raw):
    # $comments defaults to 10; --var comments:=1 overrides it (as a JSON number, as Int needs).
    run = raw(QUERIES / "post-with-comments.graphql", "--vars", QUERIES / "post-with-comments.vars.json",
              "--var", "comments:=1", "--decode-path", "getPost.comments.items")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == [{"author": "ana", "content": "Santoku or gyuto for a beginner?"}]


def test_two_root_fields_in_one_request_print_the_whole_data_object(raw):
    run = raw(QUERIES / "post-and-comments.graphql", "--var", "id=p2")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout == compact({
        "getPost": {"title": "Choosing a first chef's knife", "views": 920},
        "listComments": {"items": [{"author": "ana", "likes": 2}, {"author": "emil", "likes": 5}]},
    })


def test_a_create_mutation_with_a_vars_file_writes_the_record(raw):
    run = raw(QUERIES / "create-post.graphql", "--vars", QUERIES / "create-post.vars.json")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout == compact({"createPost": {"id": "post-focaccia", "title": "Focaccia without a mixer",
                                                 "status": "DRAFT", "tags": ["bread"], "blogId": "b1"}})
    stored = raw("--query", 'query { getPost(id: "post-focaccia") { title blog { name } } }',
                 "--decode-path", "getPost")
    assert stored.json() == {"title": "Focaccia without a mixer", "blog": {"name": "Kitchen Notes"}}


def test_a_failed_mutation_prints_the_appsync_error_and_exits_1(raw):
    assert raw(QUERIES / "create-post.graphql", "--vars", QUERIES / "create-post.vars.json").code == 0
    run = raw(QUERIES / "create-post.graphql", "--vars", QUERIES / "create-post.vars.json")
    assert (run.code, run.stdout) == (1, ""), run
    assert run.stderr.startswith("gqlc: DynamoDB:ConditionalCheckFailedException: The conditional request failed")
    assert run.stderr.endswith("(path: createPost)\n")


def test_decode_path_prints_the_list_items(raw):
    run = raw(QUERIES / "published-posts.graphql", "--decode-path", "listPosts.items")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout == compact([
        {"id": "p1", "title": "A sourdough starter in seven days", "views": 1840},
        {"id": "p2", "title": "Choosing a first chef's knife", "views": 920},
        {"id": "p4", "title": "Around the Matterhorn in five days", "views": 3120},
    ])


def test_raw_does_not_follow_next_token(raw):
    # raw prints one response; paging is the list command's job. Ask for 2 of the 3 published posts.
    run = raw(QUERIES / "published-posts.graphql", "--var", "limit:=2", "--decode-path", "listPosts")
    assert run.code == 0, run
    page = run.json()
    assert [item["id"] for item in page["items"]] == ["p1", "p2"]
    assert isinstance(page["nextToken"], str) and page["nextToken"]


def test_the_document_and_its_variables_can_come_from_standard_input(raw):
    run = raw("-", "--var", "id=p3", "--decode-path", "getPost.status",
              stdin="query Status($id: ID!) {\n  getPost(id: $id) { status }\n}\n")
    assert (run.code, run.stdout, run.stderr) == (0, '"DRAFT"\n', ""), run


def test_a_validation_error_from_appsync_exits_1(raw):
    run = raw("--query", "{ listPosts { items { titel } } }")
    assert (run.code, run.stdout) == (1, ""), run
    assert run.stderr == ("gqlc: Validation error of type FieldUndefined: Cannot query field 'titel' on type 'Post'. "
                          "Did you mean 'title'? (at 1:23)\n")


def test_the_schema_file_may_still_be_given(gqlc, blog_server, schema_examples_dir, tmp_path):
    # A model schema is allowed beside raw (it can supply the endpoint); the blog MIS has none, so
    # --endpoint is still needed, and the document is not checked against the models.
    run = gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", blog_server.url, "raw",
               "--query", '{ getBlog(id: "b2") { name } }', cwd=tmp_path)
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == {"getBlog": {"name": "Trail Journal"}}
