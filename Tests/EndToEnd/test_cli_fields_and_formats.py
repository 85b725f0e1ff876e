"""`--fields`, `list --count`, `--output table|tsv|raw` and colour: the built binary against the seeded blog server.

Terminal behaviour (colour by default, the table's width, progress on stderr) is tested on a real
pseudo-terminal from Python's pty module, never by faking isatty.
"""

from __future__ import annotations

import json

import pytest

from gqlc_runner import on_terminal

SEED_POSTS = 5
SEED_COMMENTS = 12
ESC = "\x1b["


@pytest.fixture
def recorded(start_appsync, schema_examples_dir, gqlc):
    """gqlc against a seeded blog server that records what it receives."""
    server = start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                           record_requests=True)

    def run(*args, env=None):
        return gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, *args, env=env)
    run.server = server
    return run


def sent_queries(server) -> list[str]:
    return [json.loads(request["body"])["query"] for request in server.requests()]


def flat(query: str) -> str:
    return " ".join(line.strip() for line in query.splitlines())


# --fields


def test_fields_asks_for_the_named_fields_and_the_key(recorded):
    run = recorded("get", "Post", "--id", "p1", "--fields", "title,rating")
    assert run.code == 0, run
    assert run.json() == {"id": "p1", "rating": 5, "title": "A sourdough starter in seven days", "__typename": "Post"}
    assert flat(sent_queries(recorded.server)[-1]) == \
        "query GetPost($id: ID!) { getPost(id: $id) { id rating title __typename } }"


def test_fields_reach_into_included_lists(recorded):
    run = recorded("list", "Post", "--where", "blogId=b1", "--include", "comments",
                   "--fields", "title", "--fields", "comments.items.author", "--output", "ndjson")
    assert run.code == 0, run
    records = run.ndjson()
    assert [r["id"] for r in records] == ["p1", "p2", "p3"]
    assert set(records[0]) == {"id", "title", "comments", "__typename"}
    assert {c["author"] for c in records[0]["comments"]["items"]} == {"ana", "ben", "chloe", "dev"}
    assert all(set(c) == {"id", "author", "__typename"} for c in records[0]["comments"]["items"])


def test_unknown_fields_get_did_you_mean_and_send_nothing(recorded):
    run = recorded("list", "Post", "--fields", "title,ratng")
    assert run.code == 2
    assert run.stderr_lines == ["gqlc: --fields 'ratng': unknown field 'ratng' on Post; did you mean 'rating'?"]
    run = recorded("get", "Post", "--id", "p1", "--fields", "comments.content")
    assert run.code == 2
    assert "add --include comments" in run.stderr
    assert recorded.server.requests() == []


# --count


def test_count_prints_the_number_of_matches_paging_with_the_key_only(recorded):
    run = recorded("list", "Comment", "--count", "--page-size", "5")
    assert (run.code, run.stdout, run.stderr) == (0, f"{SEED_COMMENTS}\n", "")
    queries = sent_queries(recorded.server)
    assert len(queries) == 3  # 5 + 5 + 2
    assert "items { id __typename } nextToken" in flat(queries[0])
    run = recorded("list", "Comment", "--count", "--where", "post=p1")
    assert (run.code, run.stdout) == (0, "4\n")
    listed = recorded("list", "Comment", "--where", "post=p1")
    assert len(listed.json()) == 4


def test_count_refuses_options_about_records(recorded):
    run = recorded("list", "Post", "--count", "--fields", "title")
    assert run.code == 2
    assert run.stderr == "gqlc: option '--count' cannot be used with '--fields': it prints a number, not records\n"


# --output tsv, raw, table


def test_tsv_has_a_header_and_escapes_tabs_and_line_breaks(blog):
    created = blog("create", "Post", "title=tab\there\nnext\\line", "blog=b1", "--output", "tsv")
    assert created.code == 0, created
    lines = created.stdout.splitlines()
    assert lines[0].split("\t")[:3] == ["id", "title", "content"]
    row = lines[1].split("\t")
    assert row[1] == "tab\\there\\nnext\\\\line"
    assert len(row) == len(lines[0].split("\t"))
    run = blog("list", "Post", "--where", "blogId=b2", "--fields", "title,rating,tags", "--output", "tsv")
    assert run.stdout.splitlines() == [
        "title\trating\ttags",
        "Around the Matterhorn in five days\t5\t[\"alps\",\"multi-day\",\"huts\"]",
        "Winter gear checklist\t3\t[\"gear\",\"winter\"]",
    ]


def test_raw_prints_one_scalar_per_line_like_jq_r(blog):
    run = blog("list", "Post", "--where", "blogId=b2", "--fields", "title", "--output", "raw")
    assert (run.code, run.stdout) == (0, "Around the Matterhorn in five days\nWinter gear checklist\n")
    run = blog("get", "Post", "--id", "p3", "--fields", "rating", "-o", "raw")
    assert (run.code, run.stdout) == (0, "null\n")


@pytest.mark.parametrize("args, message", [
    (["list", "Post", "-o", "raw"], "gqlc: '--output raw' prints one field per line; name it with --fields FIELD"),
    (["list", "Post", "-o", "raw", "--fields", "title,rating"],
     "gqlc: '--output raw' prints one field per line; name it with --fields FIELD"),
    (["list", "Post", "-o", "raw", "--fields", "metadata"],
     "gqlc: '--output raw' prints a single scalar field; 'metadata' is an embedded object: use --output ndjson and jq"),
    (["list", "Post", "-o", "raw", "--fields", "tags"],
     "gqlc: '--output raw' prints a single scalar field; 'tags' is a list: use --output ndjson and jq"),
    (["models", "-o", "table"],
     "gqlc: '--output table' prints records (get, list, create, update, delete, query, mutate, raw); 'models' prints JSON: use --output json or ndjson"),
    (["list", "Post", "-o", "tsv", "--pretty"], "gqlc: option '--pretty' applies to '--output json' only, not '--output tsv'"),
])
def test_record_formats_refuse_what_they_cannot_print(blog, args, message):
    run = blog(*args)
    assert (run.code, run.stdout, run.stderr_lines) == (2, "", [message])


def test_table_fits_the_width_and_shortens_with_an_ellipsis(blog):
    run = blog("list", "Post", "--output", "table", env={"COLUMNS": "60"})
    assert run.code == 0, run
    lines = run.stdout.splitlines()
    assert len(lines) == 1 + SEED_POSTS
    # Columns that do not fit at 8 characters are left out from the right; the others share the width.
    assert lines[0].split() == ["id", "title", "content", "status", "rating", "views", "score"]
    assert lines[1].startswith("p1  A sourdou…  Flour, wat…  PUBLISHED  5")
    assert all(len(line) <= 60 for line in lines), lines
    assert "…" in run.stdout
    assert ESC not in run.stdout  # not a terminal: no colour


def test_table_columns_are_the_depth_0_scalars_in_schema_order(blog):
    run = blog("get", "Post", "--id", "p1", "--output", "table")
    header = run.stdout.splitlines()[0].split()
    assert header == ["id", "title", "content", "status", "rating", "views", "score", "featured", "publishedOn",
                      "tags", "blogId", "createdAt", "updatedAt"]
    run = blog("get", "Post", "--id", "p1", "--output", "table", "--fields", "metadata,title")
    first, second = run.stdout.splitlines()
    assert first.split() == ["metadata", "title"]
    assert second.startswith('{"readingTime":6.5,"source":{"')  # no width: nothing is cut
    assert "…" not in second and json.loads(second.split("}  ", 1)[0] + "}")["readingTime"] == 6.5
    run = blog("get", "Post", "--id", "p1", "--output", "table", "--fields", "metadata,title", env={"COLUMNS": "80"})
    assert run.stdout.splitlines()[1].startswith('{"readingTime":6.5,"source":{…  A sourdough')


# Colour and progress on a real terminal


@pytest.fixture
def blog_args(blog_server, schema_examples_dir):
    return ["--schema", schema_examples_dir / "blog.json", "--endpoint", blog_server.url]


def test_json_is_coloured_on_a_terminal_as_jq_colours_it(blog_args):
    code, out, _ = on_terminal([*blog_args, "get", "Post", "--id", "p3", "--fields", "title,rating"])
    assert code == 0
    assert f'{ESC}1;34m"title"{ESC}0m: {ESC}32m"Weeknight ramen broth"{ESC}0m' in out
    assert f'{ESC}90mnull{ESC}0m' in out


@pytest.mark.parametrize("args, env", [(["--color", "never"], None), ([], {"NO_COLOR": "1"}), ([], {"TERM": "dumb"})])
def test_colour_can_be_turned_off(blog_args, args, env):
    code, out, _ = on_terminal([*blog_args, *args, "get", "Post", "--id", "p1"], env=env)
    assert code == 0 and ESC not in out and '"title": "A sourdough' in out


def test_colour_always_colours_a_pipe_and_tables(blog):
    run = blog("list", "Post", "--where", "blogId=b2", "--fields", "title,rating", "-o", "table", "--color", "always")
    assert run.stdout.splitlines()[0] == f"{ESC}1mtitle{ESC}0m                               {ESC}1mrating{ESC}0m"
    assert f"{ESC}36m5{ESC}0m" in run.stdout


def test_progress_shows_on_a_terminal_stderr_only(blog_args):
    code, out, err = on_terminal([*blog_args, "list", "Comment", "--page-size", "5", "--fields", "content", "-o", "raw"],
                                 stdout_tty=False, stderr_tty=True, stdout_file=True)
    assert code == 0 and len(out.splitlines()) == SEED_COMMENTS
    assert "\r\x1b[K5 items, 1 page, " in err
    assert err.endswith("\r\x1b[K")  # the line is erased at the end


def test_progress_never_goes_to_a_pipe_and_quiet_turns_it_off(blog_args, gqlc):
    run = gqlc(*blog_args, "list", "Comment", "--page-size", "5")
    assert run.code == 0 and run.stderr == ""
    code, _, err = on_terminal([*blog_args, "--quiet", "list", "Comment", "--count"], stdout_tty=False, stderr_tty=True)
    assert (code, err) == (0, "")
