"""`gqlc list` paging against appsync-local, counting requests in the server's `--record-requests` file:
`--limit` never costs extra requests, a listing cut inside a page resumes exactly, included lists are
followed to their end, and `$filter` is declared only when a filter is sent.

AppSync (and appsync-local) reads `limit` items and only then filters them, so a selective filter gives
mostly empty pages; asking for fewer items per request only multiplies the requests.
"""

from __future__ import annotations

import base64
import json
import math

import pytest

from gqlc_runner import runner_for
from harness import start_server

MANY = 3000
NEEDLE_EVERY = 97  # comments by "needle": 31 of 3000, a few on each page of 250
LONE_NEEDLE = 2500  # the only comment whose content is "needle"
BIG_POST_COMMENTS = 150  # more than the server's default child page (100)


def comment_ids(indexes) -> list[str]:
    return [f"m{i:05d}" for i in indexes]


NEEDLES = comment_ids(i for i in range(MANY) if i % NEEDLE_EVERY == 5)


class Logged:
    """Runs gqlc against a server started with `--record-requests`, and reads which requests each run sent."""

    def __init__(self, server, schema, log):
        self.run = runner_for(schema, server.url)
        self.server = server
        self.log = log

    def __call__(self, *args, **options):
        """Runs gqlc; the requests it sent are in `.requests` of the returned run."""
        before = len(self._lines())
        run = self.run(*args, **options)
        run.requests = self._lines()[before:]
        return run

    def _lines(self) -> list[dict]:
        """Each recorded request as its document's first line (`query`) and its `variables`."""
        if not self.log.exists():
            return []
        bodies = [json.loads(json.loads(line)["body"]) for line in self.log.read_text().splitlines()]
        return [{"query": body["query"].strip().split("\n", 1)[0], "variables": body.get("variables")} for body in bodies]


@pytest.fixture(scope="module")
def comments(schema_examples_dir, tmp_path_factory):
    """3000 comments in scan order m00000…m02999: every 97th (from 5) by 'needle', one with content 'needle'."""
    folder = tmp_path_factory.mktemp("paging")
    rows = [{"id": f"m{i:05d}", "postId": f"post-{i % 3}", "author": "needle" if i % NEEDLE_EVERY == 5 else "hay",
             "content": "needle" if i == LONE_NEEDLE else f"comment {i} " + "lorem ipsum " * 5} for i in range(MANY)]
    big = [{"id": f"big-{i:04d}", "postId": "big", "content": f"c{i}"} for i in range(BIG_POST_COMMENTS)]
    seed = {"Blog": [{"id": "blog-big", "name": "Big"}],
            "Post": [{"id": "big", "title": "Big", "blogId": "blog-big"}, {"id": "small", "title": "Small",
                                                                          "blogId": "blog-big"}],
            "Comment": rows + big}
    (folder / "seed.json").write_text(json.dumps(seed))
    log = folder / "requests.jsonl"
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, seed=folder / "seed.json", args=("--record-requests", str(log))) as server:
        yield Logged(server, schema, log)


def ids(run) -> list[str]:
    return [item["id"] for item in (run.ndjson() if "ndjson" in run.args else run.json())]


def resume_token(run) -> str:
    last = run.stderr_lines[-1]
    assert last.startswith("next token: "), run
    return last.removeprefix("next token: ")


def shapes(requests) -> list[dict]:
    """The requests' variables, with each nextToken (encrypted afresh by the server every time) replaced by True."""
    return [{**r["variables"], **({"nextToken": True} if "nextToken" in r["variables"] else {})} for r in requests]


def limits(run) -> list[int]:
    return [request["variables"].get("limit") for request in run.requests]


def pages_until(index: int, page_size: int) -> int:
    """How many Scan pages a listing reads to reach the item at scan position `index` (0-based)."""
    return index // page_size + 1


# MARK: - --limit never costs extra requests

def test_limit_1_with_a_selective_filter_sends_the_requests_of_the_listing_without_limit(comments):
    every = comments("list", "Comment", "--where", "content=needle")
    assert (every.code, every.stderr, ids(every)) == (0, "", ["m02500"]), every
    # 3 full pages of 1000 and the empty page after the last full one.
    assert limits(every) == [1000, 1000, 1000, 1000]

    one = comments("list", "Comment", "--where", "content=needle", "--limit", "1")
    assert (one.code, ids(one)) == (0, ["m02500"]), one
    # The match is on page 3; that page is cut after it, so the listing stops there.
    assert limits(one) == [1000, 1000, 1000]
    assert shapes(one.requests) == shapes(every.requests[:3])


@pytest.mark.parametrize("limit, page_size", [(5, 1000), (20, 250), (1, 40), (31, 250)])
def test_limit_asks_for_whole_pages_and_stops_at_the_page_of_the_last_item(comments, limit, page_size):
    run = comments("list", "Comment", "--where", "author=needle", "--limit", limit, "--page-size", page_size)
    assert run.code == 0, run
    assert ids(run) == NEEDLES[:limit]
    last_index = int(NEEDLES[limit - 1][1:])
    assert limits(run) == [page_size] * pages_until(last_index, page_size)
    unlimited = comments("list", "Comment", "--where", "author=needle", "--page-size", page_size)
    assert len(run.requests) <= len(unlimited.requests)
    assert shapes(run.requests) == shapes(unlimited.requests[:len(run.requests)])


# MARK: - Resuming inside a page

@pytest.mark.parametrize("output", ["json", "ndjson"])
@pytest.mark.parametrize("limit, page_size", [(5, 1000), (20, 250), (3, 5000)])
def test_a_listing_cut_inside_a_page_resumes_exactly(comments, output, limit, page_size):
    where = ("--where", "author=needle", "--page-size", page_size, "--output", output)
    first = comments("list", "Comment", *where, "--limit", limit)
    assert first.code == 0 and len(first.stderr_lines) == 1, first
    assert ids(first) == NEEDLES[:limit]
    token = resume_token(first)
    assert token.startswith("gqlc1:")

    rest = comments("list", "Comment", *where, "--next-token", token)
    assert (rest.code, rest.stderr) == (0, ""), rest
    assert ids(rest) == NEEDLES[limit:]
    # It reads the cut page again, with the page size that page was read with, and goes on from there.
    cut_page = pages_until(int(NEEDLES[limit - 1][1:]), page_size)
    assert len(rest.requests) == math.ceil(MANY / page_size) + (MANY % page_size == 0) - cut_page + 1
    assert rest.requests[0]["variables"] == first.requests[-1]["variables"]


def test_the_token_describes_the_cut_page(comments):
    first = comments("list", "Comment", "--where", "author=needle", "--page-size", "250", "--limit", "4")
    payload = resume_token(first).removeprefix("gqlc1:")
    decoded = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    # Needles 0-2 are on page 1 (positions 5, 102, 199), needle 3 (296) is the first of page 2.
    assert decoded["p"] == 250 and decoded["s"] == 1
    assert decoded["t"] == first.requests[-1]["variables"]["nextToken"]


def test_resuming_in_steps_of_a_few_items_walks_every_match_once(comments):
    seen: list[str] = []
    token = None
    for _ in range(40):
        run = comments("list", "Comment", "--where", "author=needle", "--page-size", "300", "--limit", "3",
                       "--output", "ndjson", *(["--next-token", token] if token else []))
        assert run.code == 0, run
        seen += ids(run)
        if not run.stderr:
            break
        token = resume_token(run)
    assert seen == NEEDLES


def test_first_page_cut_resumes_from_the_first_page(comments):
    first = comments("list", "Comment", "--limit", "2", "--output", "ndjson")
    # Without a filter the server returns exactly what is asked for, so --limit 2 asks for 2 (issue 21 point 9).
    assert ids(first) == ["m00000", "m00001"] and limits(first) == [2]
    rest = comments("list", "Comment", "--limit", "3", "--output", "ndjson", "--next-token", resume_token(first))
    assert ids(rest) == ["m00002", "m00003", "m00004"], rest
    # No page was cut, so the token is the server's own: the listing goes on from it, nothing read twice.
    assert "nextToken" in rest.requests[0]["variables"]


def test_a_limit_that_ends_on_a_page_boundary_prints_the_servers_own_token(comments):
    first = comments("list", "Comment", "--limit", "500", "--page-size", "250", "--output", "ndjson")
    token = resume_token(first)
    assert not token.startswith("gqlc1:") and len(first.requests) == 2
    rest = comments("list", "Comment", "--limit", "1", "--page-size", "7", "--next-token", token)
    assert ids(rest) == ["m00500"] and limits(rest) == [1]


def test_the_token_keeps_the_page_size_it_was_cut_with(comments):
    first = comments("list", "Comment", "--where", "author=needle", "--page-size", "250", "--limit", "4")
    rest = comments("list", "Comment", "--where", "author=needle", "--page-size", "1000", "--next-token",
                    resume_token(first))
    assert (rest.code, ids(rest)) == (0, NEEDLES[4:]), rest
    # The cut page is read again as it was (250 items); the pages after it take --page-size.
    assert limits(rest)[:2] == [250, 1000]


@pytest.mark.parametrize("other", [
    ("list", "Comment", "--where", "author=hay"),
    ("list", "Comment"),
    ("list", "Comment", "--index", "commentsByPostId", "--where", "post=post-1"),
])
def test_a_token_from_inside_a_page_refuses_another_listing(comments, other):
    first = comments("list", "Comment", "--where", "author=needle", "--limit", "2")
    run = comments(*other, "--next-token", resume_token(first))
    assert (run.code, run.stdout, run.requests) == (2, "", []), run
    assert run.stderr == ("gqlc: invalid value for '--next-token': the token resumes a different listing "
                          "(another model, index or filter); it only resumes the listing that printed it\n")


def test_a_damaged_token_is_a_usage_error_and_sends_nothing(comments):
    first = comments("list", "Comment", "--where", "author=needle", "--limit", "2")
    run = comments("list", "Comment", "--where", "author=needle", "--next-token", resume_token(first)[:-6])
    assert (run.code, run.stdout, run.requests) == (2, "", []), run
    assert "'--next-token'" in run.stderr and "not one gqlc printed" in run.stderr
    assert resume_token(first)[:-6] not in run.stderr


def test_dry_run_of_a_token_from_inside_a_page_shows_the_page_it_reads_again(comments):
    first = comments("list", "Comment", "--where", "author=needle", "--page-size", "250", "--limit", "4")
    run = comments("--dry-run", "list", "Comment", "--where", "author=needle", "--next-token", resume_token(first))
    assert run.code == 0, run
    assert run.json()["variables"] == first.requests[-1]["variables"]


def test_a_failure_on_the_page_read_again_prints_the_same_token(schema_examples_dir, tmp_path):
    """Request 2 fails: the resume that hit it must hand back the same point inside the page, not lose it."""
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps({"Comment": [{"id": f"x{i:03d}", "postId": "p", "content": "c"} for i in range(30)]}))
    with start_server(schema_examples_dir / "blog.json", seed=seed, args=("--fail-every", "2")) as server:
        run = runner_for(schema_examples_dir / "blog.json", server.url)
        first = run("list", "Comment", "--limit", "4", "--page-size", "10", "--output", "ndjson")  # request 1
        token = resume_token(first)
        failed = run("--retries", "0", "list", "Comment", "--page-size", "10", "--output", "ndjson",
                     "--next-token", token)  # request 2: HTTP 500
        assert (failed.code, failed.stdout) == (5, ""), failed
        assert resume_token(failed) == token
        # Requests 3, 4, …: every second one fails and is retried.
        rest = run("list", "Comment", "--page-size", "10", "--output", "ndjson", "--next-token", token)
        assert rest.code == 0, rest
        assert [c["id"] for c in first.ndjson() + rest.ndjson()] == [f"x{i:03d}" for i in range(30)]


# MARK: - Included lists are followed for list as for get

def test_list_follows_each_records_included_list_to_its_end(comments):
    run = comments("list", "Post", "--where", "id=big", "--include", "comments")
    assert run.code == 0, run
    [post] = run.json()
    assert [c["id"] for c in post["comments"]["items"]] == [f"big-{i:04d}" for i in range(BIG_POST_COMMENTS)]
    assert post["comments"]["nextToken"] is None
    # The listing, then one follow-up page of the post's comments through getPost, with no $filter.
    assert [r["query"] for r in run.requests] == [
        "query ListPosts($filter: ModelPostFilterInput, $limit: Int) {",
        "query GetPost($id: ID!, $limit: Int, $nextToken: String) {",
    ]
    assert run.requests[1]["variables"]["limit"] == 100 and run.requests[1]["variables"]["id"] == "big"


def test_list_follows_nested_included_lists(comments):
    run = comments("list", "Blog", "--include", "posts.comments")
    assert run.code == 0, run
    [blog] = run.json()
    posts = {p["id"]: p for p in blog["posts"]["items"]}
    assert len(posts["big"]["comments"]["items"]) == BIG_POST_COMMENTS
    assert posts["big"]["comments"]["nextToken"] is None and posts["small"]["comments"]["items"] == []


def test_list_no_follow_keeps_the_servers_first_page_and_its_token(comments):
    run = comments("list", "Post", "--where", "id=big", "--include", "comments", "--no-follow")
    assert run.code == 0, run
    [post] = run.json()
    assert len(post["comments"]["items"]) == 100 and post["comments"]["nextToken"]
    assert len(run.requests) == 1


def test_a_failure_while_following_an_included_list_prints_nothing_of_that_page_and_resumes_at_it(
        schema_examples_dir, tmp_path):
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps({
        "Post": [{"id": "a", "title": "A"}, {"id": "big", "title": "Big"}],
        "Comment": [{"id": f"c{i:03d}", "postId": "big", "content": "c"} for i in range(BIG_POST_COMMENTS)]}))
    with start_server(schema_examples_dir / "blog.json", seed=seed, args=("--fail-every", "3")) as server:
        run = runner_for(schema_examples_dir / "blog.json", server.url)
        listing = ("list", "Post", "--include", "comments", "--page-size", "1", "--output", "ndjson")
        # Request 1: page 1 (post a); request 2: page 2 (post big, 100 comments and a token); request 3: HTTP 500.
        failed = run("--retries", "0", *listing)
        assert failed.code == 3, failed
        assert [p["id"] for p in failed.ndjson()] == ["a"]
        assert failed.stderr_lines[0].startswith("gqlc: following an included list failed: HTTP 500"), failed
        assert len(failed.stderr_lines) == 2
        rest = run(*listing, "--next-token", resume_token(failed))
        assert rest.code == 0, rest
        [big] = rest.ndjson()
        assert big["id"] == "big" and len(big["comments"]["items"]) == BIG_POST_COMMENTS


def test_list_help_says_included_lists_are_followed(comments):
    run = comments("list", "--help")
    text = " ".join(run.stdout.split())
    assert "--no-follow" in text and "Included lists are followed page by page to their end" in text


# MARK: - $filter is declared only with a filter (as Amplify Swift)

def test_list_without_a_filter_declares_no_filter(comments):
    run = comments("list", "Post", "--limit", "1")
    assert run.code == 0, run
    assert run.requests == [{"query": "query ListPosts($limit: Int) {",
                             "variables": {"limit": 1}}]
    dry = comments("--dry-run", "list", "Post")
    assert dry.json()["query"].startswith("query ListPosts($limit: Int) {\n  listPosts(limit: $limit) {\n")
    assert dry.json()["variables"] == {"limit": 1000}


def test_index_listing_without_a_filter_declares_no_filter(comments):
    run = comments("list", "Comment", "--index", "commentsByPostId", "--where", "post=big", "--limit", "1")
    assert (run.code, ids(run)) == (0, ["big-0000"]), run
    assert [r["query"] for r in run.requests] == ["query CommentsByPostId($limit: Int, $postId: ID!) {"]
