"""Paging like AppSync on DynamoDB: read `limit` items, then filter; opaque, tamper-proof tokens."""

from __future__ import annotations

import base64

import pytest

from appsync_local.errors import INVALID_ARGUMENTS, INVALID_TOKEN
from local_app import EXAMPLES, make_app

LIST_POSTS = """query($filter: ModelPostFilterInput, $limit: Int, $nextToken: String) {
  listPosts(filter: $filter, limit: $limit, nextToken: $nextToken) { items { id } nextToken } }"""


def page(app, limit=None, token=None, post_filter=None) -> tuple[list[str], str | None]:
    data = app.data(LIST_POSTS, {"limit": limit, "nextToken": token, "filter": post_filter})["listPosts"]
    return [item["id"] for item in data["items"]], data["nextToken"]


def all_pages(app, limit, post_filter=None) -> list[list[str]]:
    pages, token = [], None
    while True:
        items, token = page(app, limit, token, post_filter)
        pages.append(items)
        if token is None:
            return pages


def test_filter_applies_after_the_read_so_pages_can_be_empty_with_a_token(blog_app):
    items, token = page(blog_app, limit=2, post_filter={"status": {"eq": "ARCHIVED"}})
    assert items == [] and token is not None
    assert all_pages(blog_app, 2, {"status": {"eq": "ARCHIVED"}}) == [[], [], ["p5"]]
    assert all_pages(blog_app, 2, {"status": {"eq": "PUBLISHED"}}) == [
        ["p1", "p2"], ["p4"], []]


def test_a_full_last_page_carries_a_token_that_yields_nothing(blog_app):
    items, token = page(blog_app, limit=5)
    assert len(items) == 5 and token is not None
    assert page(blog_app, limit=5, token=token) == ([], None)
    assert page(blog_app, limit=6)[1] is None
    assert all_pages(blog_app, 1) == [[i] for i in ["p1", "p2", "p3", "p4",
                                                    "p5"]] + [[]]


def test_default_limit_is_100(blog_app):
    store = blog_app.app.store
    for number in range(101):
        store.insert("Comment", [f"bulk-{number}"], {"id": f"bulk-{number}", "content": "x"})
    data = blog_app.data("{ listComments { items { id } nextToken } }")["listComments"]
    assert len(data["items"]) == 100 and data["nextToken"] is not None


def test_tokens_are_opaque(blog_app):
    _, token = page(blog_app, limit=2)
    decoded = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    assert not token.isdigit() and b"scan" not in decoded and b"Post" not in decoded and b'{"s"' not in decoded
    _, again = page(blog_app, limit=2)
    assert again != token  # fresh nonce: equal positions do not give equal, guessable tokens


def flip_last_byte(token: str) -> str:
    raw = bytearray(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    raw[-1] ^= 0x01
    return base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")


def every_other_last_character(token: str) -> list[str]:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    return [token[:-1] + c for c in alphabet if c != token[-1]]


@pytest.mark.parametrize("tamper", [
    lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),
    flip_last_byte,
    lambda t: t[:10] + ("x" if t[10] != "x" else "y") + t[11:],
    lambda t: t[:-4],
    lambda t: "2",
    lambda t: "not base64 at all!",
    lambda t: base64.urlsafe_b64encode(b'{"offset": 2}').decode(),
])
def test_tampered_tokens_are_errors(blog_app, tamper):
    _, token = page(blog_app, limit=2)
    response = blog_app.run(LIST_POSTS, {"limit": 2, "nextToken": tamper(token)})
    assert response["data"] == {"listPosts": None}
    error, = response["errors"]
    assert error["errorType"] == INVALID_TOKEN and "Invalid pagination token" in error["message"]
    assert error["path"] == ["listPosts"] and error["locations"][0]["sourceName"] is None


def test_every_other_spelling_of_the_last_character_is_refused(blog_app):
    # The last base64 character carries spare bits that decoders ignore; the token's text is what counts.
    for _ in range(5):
        _, token = page(blog_app, limit=2)
        for tampered in every_other_last_character(token):
            error, = blog_app.run(LIST_POSTS, {"limit": 2, "nextToken": tampered})["errors"]
            assert error["errorType"] == INVALID_TOKEN


def test_tokens_from_another_server_or_query_are_rejected(blog_app):
    _, token = page(blog_app, limit=2)
    other_server = make_app(EXAMPLES / "blog.json", EXAMPLES / "blog-seed.json")
    assert other_server.run(LIST_POSTS, {"nextToken": token})["errors"][0]["errorType"] == INVALID_TOKEN
    other_list = blog_app.run("query($t: String) { listComments(nextToken: $t) { items { id } } }", {"t": token})
    assert other_list["errors"][0]["errorType"] == INVALID_TOKEN
    index = "query($t: String, $b: ID!) { postsByBlogId(blogId: $b, limit: 1, nextToken: $t) { nextToken } }"
    kitchen_token = blog_app.data(index, {"b": "b1"})["postsByBlogId"]["nextToken"]
    assert blog_app.run(index, {"b": "b2", "t": kitchen_token})["errors"][0]["errorType"] == INVALID_TOKEN


def test_cursor_is_a_position_so_writes_between_pages_skip_nothing(blog_app):
    first, token = page(blog_app, limit=2)
    blog_app.data('mutation { deletePost(input: {id: "p1"}) { id } }')
    blog_app.data('mutation { createPost(input: {id: "post-new", title: "New"}) { id } }')
    rest = []
    while token:
        items, token = page(blog_app, limit=2, token=token)
        rest += items
    assert first == ["p1", "p2"]
    assert rest == ["p3", "p4", "p5", "post-new"]


def test_limit_must_be_positive(blog_app):
    response = blog_app.run(LIST_POSTS, {"limit": 0})
    assert response["data"] == {"listPosts": None} and "limit" in response["errors"][0]["message"]


def test_index_query_orders_by_sort_key_in_both_directions(blog_app):
    query = """query($dir: ModelSortDirection, $t: String, $title: ModelStringKeyConditionInput) {
      postsByBlogId(blogId: "b1", title: $title, sortDirection: $dir, limit: 2, nextToken: $t) {
        items { title } nextToken } }"""

    def walk(direction, title=None):
        titles, token = [], None
        while True:
            data = blog_app.data(query, {"dir": direction, "t": token, "title": title})["postsByBlogId"]
            titles += [item["title"] for item in data["items"]]
            token = data["nextToken"]
            if token is None:
                return titles

    ascending = walk("ASC")
    assert ascending == ["A sourdough starter in seven days", "Choosing a first chef's knife", "Weeknight ramen broth"]
    assert walk("DESC") == list(reversed(ascending))
    assert walk("ASC", {"beginsWith": "Ch"}) == ["Choosing a first chef's knife"]
    assert walk("DESC", {"between": ["B", "X"]}) == ["Weeknight ramen broth", "Choosing a first chef's knife"]
    assert walk(None, {"gt": "Weeknight"}) == ["Weeknight ramen broth"]


def test_composite_sort_key_orders_by_the_joined_string(inventory_app):
    query = """query($sku: String, $sk: ModelInventoryItemPrimaryCompositeKeyConditionInput, $dir: ModelSortDirection) {
      listInventoryItems(sku: $sku, warehouseIdBin: $sk, sortDirection: $dir) { items { warehouseId bin } } }"""

    def keys(sku, condition=None, direction=None):
        data = inventory_app.data(query, {"sku": sku, "sk": condition, "dir": direction})
        return [(item["warehouseId"], item["bin"]) for item in data["listInventoryItems"]["items"]]

    # "wh-berlin#12" sorts before "wh-berlin#3": DynamoDB compares the composite attribute as a string.
    assert keys("SKU-100") == [("wh-berlin", 12), ("wh-berlin", 3), ("wh-lyon", 1)]
    assert keys("SKU-100", direction="DESC") == [("wh-lyon", 1), ("wh-berlin", 3), ("wh-berlin", 12)]
    assert keys("SKU-100", {"beginsWith": {"warehouseId": "wh-berlin"}}) == [("wh-berlin", 12), ("wh-berlin", 3)]
    assert keys("SKU-100", {"eq": {"warehouseId": "wh-berlin", "bin": 3}}) == [("wh-berlin", 3)]
    assert keys("SKU-100", {"ge": {"warehouseId": "wh-l"}}) == [("wh-lyon", 1)]
    assert keys("SKU-999") == []
    scan = inventory_app.data("{ listInventoryItems { items { sku bin } } }")["listInventoryItems"]["items"]
    assert len(scan) == 6


def test_numeric_index_sort_key(inventory_app):
    data = inventory_app.data('{ itemsByWarehouse(warehouseId: "wh-berlin", quantity: {ge: 5}) { items { quantity } } }')
    assert [item["quantity"] for item in data["itemsByWarehouse"]["items"]] == [5, 15, 40]


def test_key_arguments_need_the_partition_key(inventory_app):
    for arguments in ('warehouseIdBin: {eq: {warehouseId: "wh-lyon"}}', "sortDirection: DESC"):
        response = inventory_app.run(f"{{ listInventoryItems({arguments}) {{ items {{ sku }} }} }}")
        assert response["data"] == {"listInventoryItems": None}
        assert response["errors"][0]["errorType"] == INVALID_ARGUMENTS


def test_nested_has_many_pages_carry_their_own_token(blog_app):
    query = """query($t: String) { getPost(id: "p4") {
      comments(limit: 3, nextToken: $t, sortDirection: DESC) { items { id } nextToken } } }"""
    first = blog_app.data(query)["getPost"]["comments"]
    second = blog_app.data(query, {"t": first["nextToken"]})["getPost"]["comments"]
    assert [c["id"] for c in first["items"]] == ["c10", "c9", "c8"]
    assert second == {"items": [{"id": "c7"}], "nextToken": None}
