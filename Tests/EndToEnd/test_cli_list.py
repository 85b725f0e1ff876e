"""`gqlc list` end to end: output formats, paging, --limit and resuming, --where and --filter.

Servers are shared within the module; no test here writes.
"""

from __future__ import annotations

import json
import math
import re
import signal
import subprocess

import pytest

from gqlc_runner import GQLC_BIN, gqlc_env, runner_for
from harness import start_server

MANY = 3000
NEEDLE_EVERY = 97  # comments by "needle": a selective filter that matches on few pages


def many_comment_ids() -> list[str]:
    return [f"m{i:05d}" for i in range(MANY)]


def needle_ids() -> list[str]:
    return [f"m{i:05d}" for i in range(MANY) if i % NEEDLE_EVERY == 5]


@pytest.fixture(scope="module")
def blog(schema_examples_dir):
    with start_server(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json") as server:
        yield runner_for(schema_examples_dir / "blog.json", server.url)


@pytest.fixture(scope="module")
def blog_seed(schema_examples_dir) -> dict:
    return json.loads((schema_examples_dir / "blog-seed.json").read_text())


@pytest.fixture(scope="module")
def many(schema_examples_dir, tmp_path_factory):
    """3000 comments with some bulk, in scan order m00000…m02999; every 97th (from 5) by 'needle'."""
    comments = [{"id": f"m{i:05d}", "postId": f"post-{i % 3}", "author": "needle" if i % NEEDLE_EVERY == 5 else "hay",
                 "likes": i % 50, "content": f"comment {i} " + "lorem ipsum " * 15} for i in range(MANY)]
    path = tmp_path_factory.mktemp("many") / "seed.json"
    path.write_text(json.dumps({"Comment": comments}))
    with start_server(schema_examples_dir / "blog.json", seed=path) as server:
        run = runner_for(schema_examples_dir / "blog.json", server.url)
        run.url = server.url
        run.server = server
        run.schema = schema_examples_dir / "blog.json"
        yield run


def ids(run) -> list[str]:
    return [item["id"] for item in run.json()]


def trace_pages(stderr: str) -> list[str]:
    """The `* page N: …` lines of a --verbose trace."""
    return [line for line in stderr.splitlines() if re.match(r"\* page \d+:", line)]


def resume_token(run) -> str:
    """The token of the last stderr line, `next token: T`."""
    last = run.stderr_lines[-1]
    assert last.startswith("next token: "), run
    return last.removeprefix("next token: ")


# MARK: - Output formats

def test_default_output_is_one_json_array_even_when_large(many):
    run = many("list", "Comment")
    assert (run.code, run.stderr) == (0, ""), run
    assert len(run.stdout) > 500_000
    assert ids(run) == many_comment_ids()


def test_ndjson_prints_one_compact_record_per_line(many):
    run = many("list", "Comment", "--output", "ndjson", "--page-size", "700")
    assert (run.code, run.stderr) == (0, ""), run
    lines = run.stdout.splitlines()
    assert len(lines) == MANY and all(line.startswith('{"id":"m') for line in lines)
    assert [json.loads(line)["id"] for line in lines] == many_comment_ids()


def test_compact_and_pretty_print_the_same_items(blog):
    compact = blog("list", "Post", "--compact")
    pretty = blog("list", "Post", "--pretty")
    assert compact.code == pretty.code == 0
    assert compact.stdout.count("\n") == 1
    assert pretty.stdout.startswith("[\n  {\n    \"id\": \"p1\",") and pretty.stdout.endswith("\n]\n")
    assert json.loads(pretty.stdout) == compact.json()
    assert [p["id"] for p in compact.json()] == ["p1", "p2", "p3", "p4", "p5"]


def test_an_empty_listing_is_an_empty_array(blog):
    for layout in ("--compact", "--pretty"):
        run = blog("list", "Post", "--where", "title=No such title", layout)
        assert (run.code, run.json(), run.stderr) == (0, [], "")
    ndjson = blog("list", "Post", "--where", "title=No such title", "--output", "ndjson")
    assert (ndjson.code, ndjson.stdout) == (0, "")


@pytest.mark.parametrize("args, message", [
    (["--pretty", "--compact"], "gqlc: options '--pretty' and '--compact' cannot be used together\n"),
    (["--pretty", "--output", "ndjson"],
     "gqlc: option '--pretty' applies to '--output json' only, not '--output ndjson'\n"),
])
def test_conflicting_layouts_are_usage_errors(blog, args, message):
    run = blog("list", "Post", *args)
    assert (run.code, run.stdout, run.stderr) == (2, "", message)


def test_unknown_output_format_is_a_usage_error(blog):
    run = blog("list", "Post", "--output", "yaml")
    assert (run.code, run.stdout) == (2, "") and "json, ndjson, table, tsv or raw" in run.stderr, run


# MARK: - Paging, --limit and resuming

def test_list_follows_every_page(many):
    run = many("list", "Comment", "--page-size", "250", "--verbose")
    assert run.code == 0
    assert ids(run) == many_comment_ids()
    pages = trace_pages(run.stderr)
    # 12 full pages; the 12th fills its limit, so it carries a token whose page (the 13th) is empty.
    assert len(pages) == 13 and pages[-1] == "* page 13: 0 items, last page"


@pytest.mark.parametrize("limit, page_size", [(250, 100), (7, 1000), (1000, 1000), (999, 333)])
def test_limit_prints_exactly_n_then_the_token_resumes_without_loss_or_repeat(many, limit, page_size):
    first = many("list", "Comment", "--limit", limit, "--page-size", page_size, "--output", "ndjson")
    assert first.code == 0, first
    assert [item["id"] for item in first.ndjson()] == many_comment_ids()[:limit]
    assert len(first.stderr_lines) == 1
    rest = many("list", "Comment", "--next-token", resume_token(first), "--page-size", page_size, "--output", "ndjson")
    assert (rest.code, rest.stderr) == (0, ""), rest
    assert [item["id"] for item in rest.ndjson()] == many_comment_ids()[limit:]


def test_resuming_in_steps_walks_the_whole_list(many):
    seen: list[str] = []
    token = None
    for _ in range(20):
        args = ["list", "Comment", "--limit", "400", "--page-size", "150", "--output", "ndjson"]
        run = many(*args, *(["--next-token", token] if token else []))
        assert run.code == 0, run
        seen += [item["id"] for item in run.ndjson()]
        if not run.stderr:
            break
        token = resume_token(run)
    assert seen == many_comment_ids()


def test_limit_that_covers_the_whole_list_prints_no_token(blog):
    run = blog("list", "Post", "--limit", "50")
    assert (run.code, run.stderr) == (0, ""), run
    assert len(run.json()) == 5


def test_selective_where_over_many_small_pages_returns_exactly_the_matches(many):
    run = many("list", "Comment", "--where", "author=needle", "--page-size", "40", "--verbose")
    assert run.code == 0, run
    assert ids(run) == needle_ids()
    pages = trace_pages(run.stderr)
    # AppSync filters after reading `limit` items: every page is read, most come back empty with a token.
    assert len(pages) == math.ceil(MANY / 40) + 1
    assert sum(1 for line in pages if ": 0 items, more to come" in line) > 40


def test_selective_where_with_limit_resumes_exactly(many):
    first = many("list", "Comment", "--where", "author=needle", "--page-size", "25", "--limit", "10", "--output", "ndjson")
    assert first.code == 0, first
    assert [item["id"] for item in first.ndjson()] == needle_ids()[:10]
    rest = many("list", "Comment", "--where", "author=needle", "--page-size", "25", "--output", "ndjson",
                "--next-token", resume_token(first))
    assert (rest.code, rest.stderr) == (0, "")
    assert [item["id"] for item in rest.ndjson()] == needle_ids()[10:]


def test_printed_token_that_starts_with_a_dash_is_accepted_as_the_value(many):
    """Tokens are base64url, so one in 64 starts with '-'; pasting it after --next-token must work."""
    query = "query($t: String) { listComments(limit: 3, nextToken: $t) { items { id } nextToken } }"
    token = None
    for _ in range(3000):
        page = many.server.graphql(query, {"t": None})["data"]["listComments"]
        if page["nextToken"].startswith("-"):
            token = page["nextToken"]
            break
    assert token, "no token starting with '-' in 3000 tries"
    run = many("list", "Comment", "--next-token", token, "--limit", "2")
    assert (run.code, ids(run)) == (0, ["m00003", "m00004"]), run


def test_foreign_next_token_is_a_graphql_error(many):
    run = many("list", "Comment", "--next-token", "not-a-real-token")
    assert run.code == 1, run
    assert "DynamoDB:UserIllegalArgumentException" in run.stderr and "Invalid pagination token" in run.stderr
    assert run.stdout == ""  # the first page was refused: nothing, not a valid "no records"


def test_raw_response_prints_one_page_with_its_token(many):
    run = many("--raw-response", "list", "Comment", "--page-size", "3")
    assert run.code == 0, run
    page = run.json()["data"]["listComments"]
    assert [c["id"] for c in page["items"]] == ["m00000", "m00001", "m00002"] and page["nextToken"]
    rest = many("list", "Comment", "--limit", "2", "--next-token", page["nextToken"])
    assert ids(rest) == ["m00003", "m00004"]


@pytest.mark.parametrize("args, option", [
    (["--limit", "0"], "--limit"), (["--limit", "x"], "--limit"), (["--page-size", "-3"], "--page-size"),
    (["--next-token", ""], "--next-token"),
])
def test_bad_paging_options_are_usage_errors(blog, args, option):
    run = blog("list", "Post", *args)
    assert (run.code, run.stdout) == (2, "") and option in run.stderr, run


# MARK: - --where, --filter

def rating(post):
    return post.get("rating")


WHERE_CASES = [
    ("status=PUBLISHED", lambda p: p.get("status") == "PUBLISHED"),
    ("status!=PUBLISHED", lambda p: p.get("status") != "PUBLISHED"),
    ("views<1000", lambda p: p.get("views") is not None and p["views"] < 1000),
    ("views<=920", lambda p: p.get("views") is not None and p["views"] <= 920),
    ("rating>4", lambda p: rating(p) is not None and rating(p) > 4),
    ("rating>=4", lambda p: rating(p) is not None and rating(p) >= 4),
    ("title^=A", lambda p: p["title"].startswith("A")),
    ("title*=in", lambda p: "in" in p["title"]),
    ("title!*=in", lambda p: "in" not in p["title"]),
    ("tags*=alps", lambda p: "alps" in p.get("tags", [])),
    ("score=4.0..4.85", lambda p: p.get("score") is not None and 4.0 <= p["score"] <= 4.85),
    ("publishedOn=2025-02-01..2025-02-28", lambda p: "2025-02-01" <= p.get("publishedOn", "") <= "2025-02-28"),
    ("featured=true", lambda p: p.get("featured") is True),
    ("rating?", lambda p: "rating" in p),
    ("rating!?", lambda p: "rating" not in p),
    ("blog=b2", lambda p: p.get("blogId") == "b2"),
]


@pytest.mark.parametrize("expression, predicate", WHERE_CASES, ids=[case[0] for case in WHERE_CASES])
def test_where_operator(blog, blog_seed, expression, predicate):
    expected = [post["id"] for post in blog_seed["Post"] if predicate(post)]
    run = blog("list", "Post", "--where", expression)
    assert (run.code, run.stderr) == (0, ""), run
    assert expected and ids(run) == expected


def test_several_wheres_are_anded(blog):
    run = blog("list", "Post", "--where", "status=PUBLISHED", "--where", "rating>=5", "--output", "ndjson")
    assert [p["title"] for p in run.ndjson()] == ["A sourdough starter in seven days", "Around the Matterhorn in five days"]


def test_where_on_a_belongs_to_association_matches_its_foreign_key(blog):
    run = blog("list", "Comment", "--where", "post=p4")
    assert run.code == 0, run
    assert ids(run) == ["c7", "c8", "c9", "c10"]
    assert ids(blog("list", "Comment", "--where", "postId=p4")) == ids(run)


def test_list_with_include_follows_each_records_children(blog):
    run = blog("list", "Post", "--where", "blog=b2", "--include", "comments")
    assert run.code == 0, run
    assert {p["id"]: [c["id"] for c in p["comments"]["items"]] for p in run.json()} == {
        "p4": ["c7", "c8", "c9", "c10"], "p5": ["c11"]}


def test_filter_json_inline_from_a_file_and_from_stdin(blog, tmp_path):
    text = '{"or": [{"rating": {"eq": 3}}, {"title": {"beginsWith": "Weeknight"}}]}'
    (tmp_path / "filter.json").write_text(text)
    inline = blog("list", "Post", "--filter", text)
    from_file = blog("list", "Post", "--filter", f"@{tmp_path / 'filter.json'}")
    from_stdin = blog("list", "Post", "--filter", "@-", stdin=text)
    for run in (inline, from_file, from_stdin):
        assert (run.code, run.stderr) == (0, ""), run
        assert ids(run) == ["p3", "p5"]


def test_filter_is_anded_with_where(blog):
    run = blog("list", "Post", "--filter", '{"rating": {"ge": 4}}', "--where", "blog=b1")
    assert ids(run) == ["p1", "p2"]


@pytest.mark.parametrize("args, fragments", [
    (["--where", "ratng>=4"], ["unknown field 'ratng' on Post; did you mean 'rating'?"]),
    (["--where", "rating>=four"], ["rating>=four", "Int"]),
    (["--where", "status=DRAFTED"], ["DRAFTED"]),
    (["--where", "rating"], ["rating"]),
    (["--where", "rating^=4"], ["operator '^=' does not apply to Int field 'rating'"]),
    (["--where", "status>DRAFT"], ["operator '>' does not apply to PostStatus field 'status'; use = !="]),
    (["--filter", "{not json"], ["invalid JSON for '--filter'"]),
    (["--filter", "[1]"], ["expected a JSON object"]),
    (["--filter", "@/nonexistent/filter.json"], ["/nonexistent/filter.json"]),
    (["--filter", "@"], ["needs a file name after '@'"]),
])
def test_bad_where_and_filter_are_usage_errors(blog, args, fragments):
    run = blog("list", "Post", *args)
    assert (run.code, run.stdout) == (2, ""), run
    assert len(run.stderr_lines) == 1 and run.stderr.startswith("gqlc: ")
    for fragment in fragments:
        assert fragment in run.stderr, run


def test_unknown_model_suggests_the_closest(blog):
    run = blog("list", "Coment")
    assert (run.code, run.stdout, run.stderr) == (2, "", "gqlc: unknown model 'Coment'; did you mean 'Comment'?\n")


# MARK: - Pipes

@pytest.mark.parametrize("output", ["ndjson", "json"])
def test_reader_that_stops_early_ends_gqlc_cleanly(many, output):
    """`gqlc list … | head -1`: gqlc ends at once by SIGPIPE, as jq and gh do, and prints nothing more: a `next token`
    would resume after what gqlc wrote, not after what the reader consumed."""
    command = [str(GQLC_BIN), "--schema", str(many.schema), "--endpoint", many.url, "list", "Comment",
               "--page-size", "100", "--output", output]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=gqlc_env())
    first = process.stdout.read(200)
    process.stdout.close()
    try:
        code = process.wait(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    stderr = process.stderr.read().decode()
    process.stderr.close()
    assert first.startswith(b'{"id":"m00000"' if output == "ndjson" else b'[{"id":"m00000"')
    assert code == -signal.SIGPIPE, stderr
    assert stderr == ""


def test_shell_pipeline_into_head(many):
    command = (f"'{GQLC_BIN}' --schema '{many.schema}' --endpoint {many.url} list Comment --output ndjson | head -1;"
               " echo \"status=${PIPESTATUS[0]}\"")  # 3000 comments: more than a pipe holds, so gqlc meets the close
    completed = subprocess.run(["bash", "-c", command], capture_output=True, env=gqlc_env(), timeout=30)
    lines = completed.stdout.decode().splitlines()
    assert json.loads(lines[0])["id"] == "m00000"
    assert lines[-1] == "status=141", completed.stderr.decode()
    assert completed.stderr == b""
