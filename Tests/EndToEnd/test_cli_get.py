"""`gqlc get` end to end: keys, includes, following included lists, not found, bad inputs.

Servers are shared within the module; no test here writes.
"""

from __future__ import annotations

import json
import re

import pytest

from gqlc_runner import runner_for
from harness import start_server

BIG_POST_COMMENTS = 2500
NESTED_POST_COMMENTS = 150


@pytest.fixture(scope="module")
def blog(schema_examples_dir):
    with start_server(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json") as server:
        yield runner_for(schema_examples_dir / "blog.json", server.url)


@pytest.fixture(scope="module")
def inventory(schema_examples_dir):
    with start_server(schema_examples_dir / "inventory.json", seed=schema_examples_dir / "inventory-seed.json") as server:
        yield runner_for(schema_examples_dir / "inventory.json", server.url)


@pytest.fixture(scope="module")
def big(schema_examples_dir, tmp_path_factory):
    """A post with 2500 comments, another post's comments mixed in, and a blog whose post has 150."""
    comments = []
    for index in range(BIG_POST_COMMENTS):
        comments.append({"id": f"big-{index:05d}", "postId": "big", "content": f"comment {index}"})
        if index % 10 == 0:
            comments.append({"id": f"other-{index:05d}", "postId": "other", "content": "elsewhere"})
    comments += [{"id": f"nested-{i:04d}", "postId": "nested", "content": f"n{i}"} for i in range(NESTED_POST_COMMENTS)]
    seed = {
        "Blog": [{"id": "big-blog", "name": "Big"}],
        "Post": [{"id": "big", "title": "Big"}, {"id": "other", "title": "Other"},
                 {"id": "nested", "title": "Nested", "blogId": "big-blog"},
                 {"id": "small", "title": "Small", "blogId": "big-blog"}],
        "Comment": comments,
    }
    path = tmp_path_factory.mktemp("big") / "seed.json"
    path.write_text(json.dumps(seed))
    with start_server(schema_examples_dir / "blog.json", seed=path) as server:
        yield runner_for(schema_examples_dir / "blog.json", server.url)


# MARK: - Reading by key

def test_get_by_id_prints_the_record_with_every_scalar_field_and_nothing_on_stderr(blog):
    run = blog("get", "Post", "--id", "p1")
    assert (run.code, run.stderr) == (0, ""), run
    post = run.json()
    assert post["id"] == "p1" and post["title"] == "A sourdough starter in seven days"
    assert post["tags"] == ["bread", "fermentation"] and post["rating"] == 5 and post["score"] == 4.8
    assert post["metadata"]["source"] == {"label": "Original notes", "url": "https://example.com/sourdough",
                                          "__typename": "Source"}
    # A belongs-to association is selected by its key only, as Amplify does; has-many lists are not.
    assert post["blog"] == {"id": "b1", "__typename": "Blog"}
    assert "comments" not in post and post["__typename"] == "Post"
    assert run.stdout.count("\n") == 1, "not a terminal: one compact line"


def test_get_pretty_prints_the_same_record(blog):
    compact, pretty = blog("get", "Post", "--id", "p2"), blog("get", "Post", "--id", "p2", "--pretty")
    assert pretty.code == 0 and pretty.stdout.startswith("{\n  \"id\": \"p2\",")
    assert json.loads(pretty.stdout) == compact.json()


def test_get_by_composite_key_with_an_int_sort_key(inventory):
    run = inventory("get", "InventoryItem", "--key", "sku=SKU-100", "--key", "warehouseId=wh-berlin", "--key", "bin=12")
    assert run.code == 0, run
    item = run.json()
    assert (item["sku"], item["warehouseId"], item["bin"], item["quantity"]) == ("SKU-100", "wh-berlin", 12, 15)


def test_composite_key_fields_may_come_in_any_order(inventory):
    run = inventory("get", "InventoryItem", "--key", "bin=3", "--key", "sku=SKU-100", "--key", "warehouseId=wh-berlin")
    assert run.code == 0 and run.json()["quantity"] == 40, run


def test_composite_key_with_no_such_item_is_not_found(inventory):
    run = inventory("get", "InventoryItem", "--key", "sku=SKU-100", "--key", "warehouseId=wh-berlin", "--key", "bin=4")
    assert (run.code, run.stdout) == (4, ""), run
    assert run.stderr == "gqlc: no InventoryItem with key sku=SKU-100, warehouseId=wh-berlin, bin=4\n"


@pytest.mark.parametrize("keys, message", [
    (["sku=SKU-100", "warehouseId=wh-berlin"], "bin"),
    (["sku=SKU-100", "warehouseId=wh-berlin", "bin=twelve"], "twelve"),
    (["sku=SKU-100", "warehouseId=wh-berlin", "bin=3", "colour=red"], "colour"),
])
def test_bad_composite_keys_are_usage_errors(inventory, keys, message):
    args = [arg for key in keys for arg in ("--key", key)]
    run = inventory("get", "InventoryItem", *args)
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr.startswith("gqlc: ") and message in run.stderr and len(run.stderr_lines) == 1


def test_id_on_a_composite_key_model_is_a_usage_error(inventory):
    run = inventory("get", "InventoryItem", "--id", "SKU-100")
    assert run.code == 2 and "--key" in run.stderr, run


def test_get_warehouse_includes_its_items_in_key_order(inventory):
    run = inventory("get", "Warehouse", "--id", "wh-berlin", "--include", "items")
    assert run.code == 0, run
    items = run.json()["items"]
    # The composite sort key compares as Amplify's joined string: "wh-berlin#12" < "wh-berlin#3".
    assert sorted((i["sku"], i["bin"]) for i in items["items"]) == [("SKU-100", 3), ("SKU-100", 12), ("SKU-200", 7)]
    assert items["nextToken"] is None


# MARK: - Includes

def test_include_comments_returns_the_posts_comments_only(blog):
    run = blog("get", "Post", "--id", "p1", "--include", "comments")
    assert (run.code, run.stderr) == (0, ""), run
    comments = run.json()["comments"]
    assert [c["id"] for c in comments["items"]] == ["c1", "c2", "c3", "c4"]
    assert comments["nextToken"] is None
    assert all(c["postId"] == "p1" and c["post"] == {"id": "p1", "__typename": "Post"} for c in comments["items"])


def test_include_blog_fetches_the_whole_parent(blog):
    post = blog("get", "Post", "--id", "p4", "--include", "blog").json()
    assert post["blog"]["name"] == "Trail Journal" and post["blog"]["description"] == "Hiking reports from the Alps"
    assert "posts" not in post["blog"]


def test_include_comments_post_goes_two_levels_deep(blog):
    run = blog("get", "Post", "--id", "p2", "--include", "comments.post", "--include", "blog")
    assert run.code == 0, run
    post = run.json()
    assert post["blog"]["name"] == "Kitchen Notes"
    assert [c["id"] for c in post["comments"]["items"]] == ["c5", "c6"]
    assert {c["post"]["title"] for c in post["comments"]["items"]} == {"Choosing a first chef's knife"}


def test_include_from_the_child_side(blog):
    comment = blog("get", "Comment", "--id", "c7", "--include", "post.blog").json()
    assert comment["post"]["id"] == "p4" and comment["post"]["blog"]["name"] == "Trail Journal"


def test_unknown_include_suggests_the_field(blog):
    run = blog("get", "Post", "--id", "p1", "--include", "coments")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == "gqlc: --include 'coments': unknown field 'coments' on Post; did you mean 'comments'?\n"


def test_include_of_a_scalar_field_is_a_usage_error(blog):
    run = blog("get", "Post", "--id", "p1", "--include", "title")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == ["gqlc: --include 'title': 'title' on Post is not a relationship; --include takes "
                                "belongsTo, hasOne and hasMany fields; Post's associations: blog, comments"]


@pytest.mark.parametrize("command", [("get", "Comment", "--id", "c7"), ("list", "Comment", "--limit", "1")])
def test_an_unknown_association_lists_the_valid_ones(blog, command):
    run = blog(*command, "--include", "post.author")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == ["gqlc: --include 'post.author': unknown field 'author' on Post; "
                                "Post's associations: blog, comments"]
    typo = blog(*command, "--include", "post.coments")
    assert typo.stderr_lines == ["gqlc: --include 'post.coments': unknown field 'coments' on Post; did you mean 'comments'?"]


# MARK: - Following included lists

def page_limits(stderr: str) -> list[int | None]:
    """The `limit` variable of every request in a --verbose trace (None when not sent)."""
    limits = []
    for line in stderr.splitlines():
        match = re.match(r"\* variables: (.*)$", line)
        if match:
            limits.append(json.loads(match.group(1)).get("limit"))
    return limits


def test_include_follows_the_child_list_to_its_end(big):
    run = big("get", "Post", "--id", "big", "--include", "comments", "--verbose")
    assert run.code == 0, run
    comments = run.json()["comments"]
    assert [c["id"] for c in comments["items"]] == [f"big-{i:05d}" for i in range(BIG_POST_COMMENTS)]
    assert comments["nextToken"] is None
    # The get's own connection takes the server's default page (100); follow-ups ask for 1000 at a time.
    # Included lists are followed in pages of 100, Amplify's default (issue 21 point 9).
    assert page_limits(run.stderr) == [None] + [100] * 25


def test_no_follow_keeps_only_the_first_page_and_its_token(big):
    run = big("get", "Post", "--id", "big", "--include", "comments", "--no-follow", "--verbose")
    assert run.code == 0, run
    comments = run.json()["comments"]
    assert [c["id"] for c in comments["items"]] == [f"big-{i:05d}" for i in range(100)]
    assert isinstance(comments["nextToken"], str) and comments["nextToken"]
    assert page_limits(run.stderr) == [None]


def test_nested_lists_are_followed_for_every_parent(big):
    run = big("get", "Blog", "--id", "big-blog", "--include", "posts.comments")
    assert run.code == 0, run
    posts = {p["id"]: p for p in run.json()["posts"]["items"]}
    assert set(posts) == {"nested", "small"}
    assert [c["id"] for c in posts["nested"]["comments"]["items"]] == [f"nested-{i:04d}" for i in range(NESTED_POST_COMMENTS)]
    assert posts["nested"]["comments"]["nextToken"] is None
    assert posts["small"]["comments"] == {"items": [], "nextToken": None}


def test_list_follows_included_lists_as_get_does(big):
    """One rule for get and list: included lists are followed to their end; --no-follow keeps the first page."""
    run = big("list", "Post", "--where", "id=big", "--include", "comments", "--verbose")
    assert run.code == 0, run
    [post] = run.json()
    assert [c["id"] for c in post["comments"]["items"]] == [f"big-{i:05d}" for i in range(BIG_POST_COMMENTS)]
    assert post["comments"]["nextToken"] is None
    assert page_limits(run.stderr) == [1000] + [100] * 25
    first = big("list", "Post", "--where", "id=big", "--include", "comments", "--no-follow")
    [post] = first.json()
    assert len(post["comments"]["items"]) == 100 and post["comments"]["nextToken"]


# MARK: - Not found and bad inputs

def test_missing_record_exits_4_with_nothing_on_stdout(blog):
    run = blog("get", "Post", "--id", "nope")
    assert (run.code, run.stdout, run.stderr) == (4, "", "gqlc: no Post with key 'nope'\n")


def test_missing_record_with_raw_response_prints_the_envelope_and_exits_4(blog):
    run = blog("get", "Post", "--id", "nope", "--raw-response")
    assert (run.code, run.json(), run.stderr) == (4, {"data": {"getPost": None}}, "")


def test_raw_response_prints_the_whole_envelope(blog):
    run = blog("--raw-response", "get", "Comment", "--id", "c12")
    assert run.code == 0, run
    assert list(run.json()) == ["data"] and run.json()["data"]["getComment"]["author"] is not None


@pytest.mark.parametrize("args, message", [
    (["get", "Psot", "--id", "p1"], "gqlc: unknown model 'Psot'; did you mean 'Post'?\n"),
    (["get", "Post"], "gqlc: 'get' needs --id VALUE or --key FIELD=VALUE to pick the record\n"),
    (["get", "Post", "--id", ""], "gqlc: option '--id' needs a non-empty value\n"),
])
def test_get_usage_errors(blog, args, message):
    run = blog(*args)
    assert (run.code, run.stdout, run.stderr) == (2, "", message), run


def test_id_and_key_together_are_a_usage_error(blog):
    run = blog("get", "Post", "--id", "p1", "--key", "id=p1")
    assert (run.code, run.stdout) == (2, "") and "--id" in run.stderr and "--key" in run.stderr, run


def test_unknown_get_option_suggests_the_right_one(blog):
    run = blog("get", "Post", "--id", "p1", "--includ", "comments")
    assert run.code == 2 and "did you mean '--include'" in run.stderr, run
