"""`gqlc list MODEL --index QUERYFIELD` end to end against appsync-local: the same records as the scan with the
same --where, in sort-key order, key conditions, --sort desc, paging and resuming, --limit, fewer requests than
the scan, and usage errors that send nothing.

Servers are shared within the module and log every request (``--verbose``); no test here writes.
"""

from __future__ import annotations

import json
import random

import pytest

from gqlc_runner import runner_for
from harness import start_server

COMMENTS = 3000
RARE = 30  # comments on post "rare", scattered through the table
POSTS = 400  # posts in blog "big", inserted in shuffled title order


def served(server) -> int:
    """Requests the server has answered so far (it logs each one with --verbose)."""
    return sum(1 for line in server.stderr_text().splitlines() if '"POST /graphql' in line)


def resume_token(run) -> str:
    last = run.stderr_lines[-1]
    assert last.startswith("next token: "), run
    return last.removeprefix("next token: ")


def ids(items) -> list[str]:
    return [item["id"] for item in items]


@pytest.fixture(scope="module")
def blog(schema_examples_dir, tmp_path_factory):
    """3000 comments (30 on post 'rare', every 100th), 400 posts in blog 'big' with titles t0000…t0399 in shuffled
    order (every 10th 'DRAFT'), and a few posts in blog 'small'."""
    comments = [{"id": f"c{i:05d}", "postId": "rare" if i % 100 == 7 else f"post-{i % 3}", "author": f"a{i % 5}",
                 "likes": i % 50, "content": f"comment {i}"} for i in range(COMMENTS)]
    order = list(range(POSTS))
    random.Random(7).shuffle(order)
    posts = [{"id": f"p{i:04d}", "blogId": "big", "title": f"t{i:04d}", "rating": i % 5,
              "status": "DRAFT" if i % 10 == 0 else "PUBLISHED"} for i in order]
    posts += [{"id": f"s{i}", "blogId": "small", "title": f"t{i:04d}", "rating": 1, "status": "PUBLISHED"}
              for i in range(5)]
    path = tmp_path_factory.mktemp("index") / "seed.json"
    path.write_text(json.dumps({"Blog": [{"id": "big", "name": "Big"}, {"id": "small", "name": "Small"}],
                                "Post": posts, "Comment": comments}))
    with start_server(schema_examples_dir / "blog.json", seed=path, args=("--verbose",)) as server:
        run = runner_for(schema_examples_dir / "blog.json", server.url)
        run.server = server
        yield run


@pytest.fixture(scope="module")
def shipments(schema_examples_dir, tmp_path_factory):
    """Shipments with a composite sort key (region, day) whose values share prefixes: 'eu' and 'eu-west', days
    2025-01-01…2025-01-19."""
    items = []
    for i in range(240):
        items.append({"id": f"s{i:03d}", "carrier": ("ups", "dhl")[i % 2], "region": ("eu", "eu-west", "us")[i % 3],
                      "day": f"2025-01-{i % 19 + 1:02d}", "weight": i % 7, "priority": i % 4 == 0,
                      "status": ("PENDING", "SHIPPED", "DELIVERED")[i % 3 if i % 5 else 1]})
    path = tmp_path_factory.mktemp("shipments") / "seed.json"
    path.write_text(json.dumps({"Shipment": items}))
    with start_server(schema_examples_dir / "shipments.json", seed=path, args=("--verbose",)) as server:
        run = runner_for(schema_examples_dir / "shipments.json", server.url)
        run.server = server
        run.items = items
        yield run


def scan_and_index(run, model: str, index: str, *where: str, extra: tuple = ()) -> tuple[list, list]:
    wheres = [arg for clause in where for arg in ("--where", clause)]
    scan = run("list", model, *wheres, "--page-size", "500")
    query = run("list", model, "--index", index, *wheres, *extra)
    assert (scan.code, scan.stderr) == (0, ""), scan
    assert (query.code, query.stderr) == (0, ""), query
    return scan.json(), query.json()


# MARK: - Same records as the scan

@pytest.mark.parametrize("post", ["rare", "post-1"])
def test_index_without_sort_key_returns_what_the_scan_returns(blog, post):
    scan, query = scan_and_index(blog, "Comment", "commentsByPostId", f"post={post}")
    expected = [f"c{i:05d}" for i in range(COMMENTS)
                if (i % 100 == 7 and post == "rare") or (i % 100 != 7 and f"post-{i % 3}" == post)]
    assert sorted(ids(query)) == sorted(ids(scan)) == expected


def test_other_clauses_and_filter_apply_beside_the_key(blog):
    scan, query = scan_and_index(blog, "Comment", "commentsByPostId", "postId=post-2", "likes>=40", "author=a1")
    assert sorted(ids(query)) == sorted(ids(scan)) and len(scan) > 10
    with_json = blog("list", "Comment", "--index", "commentsByPostId", "--where", "postId=post-2",
                     "--filter", '{"likes": {"ge": 40}}', "--where", "author=a1")
    assert with_json.json() == query


@pytest.mark.parametrize("clause, keep", [
    ("title=t0123", lambda t: t == "t0123"),
    ("title<t0010", lambda t: t < "t0010"),
    ("title<=t0010", lambda t: t <= "t0010"),
    ("title>t0390", lambda t: t > "t0390"),
    ("title>=t0390", lambda t: t >= "t0390"),
    ("title^=t02", lambda t: t.startswith("t02")),
    ("title=t0100..t0150", lambda t: "t0100" <= t <= "t0150"),
])
def test_sort_key_condition_returns_the_scan_matches_in_sort_key_order(blog, clause, keep):
    scan, query = scan_and_index(blog, "Post", "postsByBlogId", "blog=big", clause)
    expected = sorted(f"t{i:04d}" for i in range(POSTS) if keep(f"t{i:04d}"))
    assert [post["title"] for post in query] == expected
    assert sorted(ids(scan)) == sorted(ids(query))


def test_sort_desc_reverses_the_sort_key_order(blog):
    _, query = scan_and_index(blog, "Post", "postsByBlogId", "blogId=big", "title^=t01", "status=DRAFT",
                              extra=("--sort", "desc"))
    assert [post["title"] for post in query] == [f"t{i:04d}" for i in range(190, 99, -10)]


# MARK: - Paging, --limit, resuming, request counts

def test_paging_across_many_pages_then_resuming_from_the_printed_token(blog):
    everything = [f"t{i:04d}" for i in range(POSTS)]
    before = served(blog.server)
    whole = blog("list", "Post", "--index", "postsByBlogId", "--where", "blog=big", "--page-size", "7",
                 "--output", "ndjson")
    assert (whole.code, whole.stderr) == (0, ""), whole
    assert [post["title"] for post in whole.ndjson()] == everything
    assert served(blog.server) - before == POSTS // 7 + 1
    first = blog("list", "Post", "--index", "postsByBlogId", "--where", "blog=big", "--page-size", "7",
                 "--limit", "45", "--output", "ndjson")
    assert first.code == 0 and len(first.stderr_lines) == 1, first
    assert [post["title"] for post in first.ndjson()] == everything[:45]
    rest = blog("list", "Post", "--index", "postsByBlogId", "--where", "blog=big", "--page-size", "7",
                "--next-token", resume_token(first), "--output", "ndjson")
    assert (rest.code, rest.stderr) == (0, ""), rest
    assert [post["title"] for post in rest.ndjson()] == everything[45:]


def test_limit_stops_early_and_desc_resumes_in_the_same_order(blog):
    args = ("list", "Post", "--index", "postsByBlogId", "--where", "blog=big", "--sort", "desc", "--page-size", "50")
    first = blog(*args, "--limit", "3")
    assert first.code == 0 and [p["title"] for p in first.json()] == ["t0399", "t0398", "t0397"], first
    rest = blog(*args, "--limit", "2", "--next-token", resume_token(first))
    assert [p["title"] for p in rest.json()] == ["t0396", "t0395"], rest


def test_index_needs_far_fewer_requests_than_the_scan(blog):
    before = served(blog.server)
    scan = blog("list", "Comment", "--where", "post=rare", "--page-size", "100")
    scanned = served(blog.server) - before
    before = served(blog.server)
    query = blog("list", "Comment", "--index", "commentsByPostId", "--where", "post=rare", "--page-size", "100")
    queried = served(blog.server) - before
    assert sorted(ids(query.json())) == sorted(ids(scan.json())) and len(query.json()) == RARE
    # The scan reads all 3000 comments 100 at a time; the Query reads only the 30 in the partition.
    assert (scanned, queried) == (COMMENTS // 100 + 1, 1)


def test_dry_run_prints_the_first_page_and_sends_nothing(blog):
    before = served(blog.server)
    run = blog("--dry-run", "list", "Post", "--index", "byBlog", "--where", "blog=big", "--where", "title^=t1",
               "--sort", "desc", "--page-size", "10")
    assert (run.code, run.stderr) == (0, ""), run
    body = run.json()
    # No $filter: every --where went into the key arguments.
    assert body["query"].startswith("query PostsByBlogId($blogId: ID!, $limit: Int, "
                                    "$sortDirection: ModelSortDirection, $title: ModelStringKeyConditionInput) {")
    assert body["variables"] == {"blogId": "big", "limit": 10, "sortDirection": "DESC", "title": {"beginsWith": "t1"}}
    assert served(blog.server) == before


def test_raw_response_prints_one_page_envelope(blog):
    run = blog("--raw-response", "list", "Comment", "--index", "commentsByPostId", "--where", "postId=rare",
               "--page-size", "4")
    assert run.code == 0, run
    page = run.json()["data"]["commentsByPostId"]
    assert len(page["items"]) == 4 and page["nextToken"]


# MARK: - Composite sort keys, enum partition keys, Boolean sort keys

@pytest.mark.parametrize("where", [
    ("carrier=ups",),
    ("carrier=ups", "region=eu"),
    ("carrier=dhl", "region=eu", "day=2025-01-05"),
    ("carrier=ups", "region=eu-west", "day>=2025-01-15"),
    ("carrier=ups", "day=2025-01-04"),
])
def test_composite_sort_key_returns_exactly_the_scan_matches(shipments, where):
    scan, query = scan_and_index(shipments, "Shipment", "shipmentsByCarrier", *where)
    assert sorted(ids(query)) == sorted(ids(scan)) and len(scan) > 0
    # 'eu' is a prefix of 'eu-west' on the joined key: the filter keeps the result exact.
    if "region=eu" in where:
        assert {item["region"] for item in query} == {"eu"}


def test_composite_leading_equality_narrows_the_query_read(shipments):
    """ups in 'us' is 40 of ups's 120 shipments: with the key condition the Query reads 40 (4 full pages and the
    empty one after), not 120."""
    before = served(shipments.server)
    run = shipments("list", "Shipment", "--index", "shipmentsByCarrier", "--where", "carrier=ups", "--where",
                    "region=us", "--page-size", "10")
    assert len(run.json()) == 40 and served(shipments.server) - before == 5, run


def test_composite_sort_key_orders_by_the_joined_key_and_desc_reverses_it(shipments):
    asc = shipments("list", "Shipment", "--index", "shipmentsByCarrier", "--where", "carrier=ups").json()
    desc = shipments("list", "Shipment", "--index", "shipmentsByCarrier", "--where", "carrier=ups",
                     "--sort", "desc").json()
    keys = [f"{item['region']}#{item['day']}" for item in asc]
    assert keys == sorted(keys) and [f"{i['region']}#{i['day']}" for i in desc] == sorted(keys, reverse=True)


def test_enum_partition_key_with_a_day_range(shipments):
    _, query = scan_and_index(shipments, "Shipment", "shipmentsByStatus", "status=SHIPPED",
                              "day=2025-01-03..2025-01-06", extra=("--sort", "desc"))
    expected = [s for s in shipments.items if s["status"] == "SHIPPED" and "2025-01-03" <= s["day"] <= "2025-01-06"]
    assert sorted(ids(query)) == sorted(ids(expected)) and len(expected) > 0
    assert [s["day"] for s in query] == sorted((s["day"] for s in expected), reverse=True)


def test_boolean_sort_key_clause_filters(shipments):
    scan, query = scan_and_index(shipments, "Shipment", "shipmentsByRegionAndPriority", "region=us", "priority=true")
    assert sorted(ids(query)) == sorted(ids(scan)) and len(scan) > 0


# MARK: - Usage errors: exit 2, one line, nothing sent

@pytest.mark.parametrize("args, message", [
    (["Comment", "--index", "commentsByPost", "--where", "post=p1"],
     "gqlc: unknown index 'commentsByPost' on Comment; did you mean 'commentsByPostId'? "
     "(queryable indexes: commentsByPostId)\n"),
    (["Blog", "--index", "blogsByName"], "gqlc: unknown index 'blogsByName' on Blog; Blog has no queryable indexes\n"),
    (["Comment", "--index", "commentsByPostId"], "gqlc: --index commentsByPostId needs --where postId=VALUE\n"),
    (["Comment", "--index", "commentsByPostId", "--where", "postId!=p1"],
     "gqlc: --index commentsByPostId needs --where postId=VALUE\n"),
    (["Post", "--index", "postsByBlogId", "--where", "blog=b1", "--where", "rating^=1"],
     "gqlc: --where 'rating^=1': operator '^=' does not apply to Int field 'rating'; use = != < <= > >= =LOW..HIGH ? !?\n"),
    (["Post", "--sort", "desc"], "gqlc: option '--sort' needs '--index': only an index query is ordered by a sort key\n"),
    (["Post", "--index", "postsByBlogId", "--where", "blog=b1", "--sort", "up"],
     "gqlc: invalid value 'up' for '--sort': expected asc or desc\n"),
])
def test_index_usage_errors_send_nothing(blog, args, message):
    before = served(blog.server)
    run = blog("list", *args)
    assert (run.code, run.stdout, run.stderr) == (2, "", message)
    assert served(blog.server) == before


def test_index_without_query_field_is_an_error(shipments):
    run = shipments("list", "Shipment", "--index", "byDay", "--where", "day=2025-01-01")
    assert (run.code, run.stdout) == (2, "")
    assert run.stderr == ("gqlc: index 'byDay' on Shipment has no queryField, so the server has no query for it "
                          "(queryable indexes: shipmentsByCarrier, shipmentsByStatus, shipmentsByRegionAndPriority)\n")
