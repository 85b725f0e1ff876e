"""Flags as people type them: a repeated option (the last one wins, as in curl, gh and the AWS CLI), `gqlc version`,
`--no-color`, and suggestions that point the right way."""

from __future__ import annotations

import re

import pytest

from gqlc_runner import closed_port_url, on_terminal, run_gqlc, runner_for
from harness import start_server

ESCAPE = re.compile(r"\x1b\[")


@pytest.fixture(scope="module")
def blog_url(schema_examples_dir):
    with start_server(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json") as server:
        yield server.url


@pytest.fixture
def blog(schema_examples_dir, blog_url):
    return runner_for(schema_examples_dir / "blog.json", blog_url)


# MARK: - A single-valued option given twice

def test_the_last_endpoint_wins_so_an_alias_can_be_overridden(schema_examples_dir, blog_url):
    # alias g='gqlc --endpoint DEAD'; g --endpoint LIVE get Post --id p1
    run = run_gqlc(["--schema", schema_examples_dir / "blog.json", "--endpoint", closed_port_url(),
                    "--endpoint", blog_url, "get", "Post", "--id", "p1", "--fields", "id"])
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json()["id"] == "p1"


def test_the_last_value_wins_before_and_after_the_command(blog):
    run = blog("list", "Post", "--limit", "1", "--fields", "id", "--limit", "2", "--output", "table", "-o", "ndjson")
    assert run.code == 0 and run.stderr.startswith("next token: "), run
    assert len(run.ndjson()) == 2


def test_the_last_value_is_the_one_checked(blog):
    run = blog("list", "Post", "--limit", "nope", "--limit", "1", "--fields", "id")
    assert run.code == 0 and len(run.json()) == 1, run
    run = blog("list", "Post", "--limit", "1", "--limit", "nope")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == "gqlc: invalid value 'nope' for '--limit': expected a whole number of at least 1\n"


# MARK: - gqlc version, --no-color

def test_version_command_prints_what_the_flag_prints():
    run = run_gqlc(["version"])
    assert (run.code, run.stderr) == (0, ""), run
    assert re.fullmatch(r"gqlc \d+\.\d+\.\d+\n", run.stdout), run.stdout
    assert run.stdout == run_gqlc(["--version"]).stdout
    extra = run_gqlc(["version", "now"])
    assert (extra.code, extra.stdout, extra.stderr) == (2, "", "gqlc: unexpected argument 'now'; usage: gqlc version\n")


def test_no_color_is_color_never(schema_examples_dir, blog_url):
    line = ["--schema", schema_examples_dir / "blog.json", "--endpoint", blog_url,
            "get", "Post", "--id", "p1", "--fields", "id,title"]
    code, coloured, _ = on_terminal(line)
    assert code == 0 and ESCAPE.search(coloured), coloured
    code, plain, err = on_terminal(["--no-color", *line])
    assert (code, err) == (0, "") and not ESCAPE.search(plain), plain
    assert on_terminal(["--color", "never", *line])[1] == plain
    # As with any option given twice, the later one wins.
    assert ESCAPE.search(on_terminal(["--no-color", *line, "--color", "always"])[1])
    assert not ESCAPE.search(on_terminal(["--color", "always", *line, "--no-color"])[1])


# MARK: - Suggestions that point the right way

@pytest.fixture
def offline(schema_examples_dir):
    return runner_for(schema_examples_dir / "blog.json", closed_port_url())


@pytest.mark.parametrize("args, message", [
    # Another tool's word for the option, and an abbreviation, beat spelling (--auth-token, --count).
    (["list", "Post", "--page-token", "abc"], "gqlc: unknown option '--page-token'; did you mean '--next-token'?\n"),
    (["list", "Post", "--out", "table"], "gqlc: unknown option '--out'; did you mean '--output'?\n"),
    (["list", "Post", "--in", "comments"], "gqlc: unknown option '--in'; did you mean '--include', '--include-deleted' or '--index'?\n"),
    (["--format", "ndjson", "list", "Post"], "gqlc: unknown option '--format'; did you mean '--output'?\n"),
    (["create", "Post", "--inptu", "post.json"], "gqlc: unknown option '--inptu'; did you mean '--input'?\n"),
    # A field given as an option on a command that takes FIELD=VALUE.
    (["create", "Blog", "--name", "x"],
     "gqlc: unknown option '--name' for 'create'; give fields as FIELD=VALUE: 'name=x'\n"),
    (["create", "Blog", "name=x", "--id", "u1"],
     "gqlc: unknown option '--id' for 'create'; give fields as FIELD=VALUE: 'id=u1'\n"),
    (["create", "Blog", "--key=id=u1"],
     "gqlc: unknown option '--key' for 'create'; give fields as FIELD=VALUE: 'id=u1'\n"),
    (["update", "Post", "--id", "p1", "--title", "New"],
     "gqlc: unknown option '--title' for 'update'; give fields as FIELD=VALUE: 'title=New'\n"),
])
def test_suggestions_point_the_right_way(offline, args, message):
    run = offline(*args)
    assert (run.code, run.stdout, run.stderr) == (2, "", message)


def test_several_values_after_equals_say_how_to_match_any_of_them(blog):
    run = blog("list", "Post", "--where", "status=DRAFT|PUBLISHED", "--fields", "id")
    assert (run.code, run.stdout) == (2, ""), run
    hint = '{"or":[{"status":{"eq":"DRAFT"}},{"status":{"eq":"PUBLISHED"}}]}'
    assert run.stderr == (f"gqlc: --where 'status=DRAFT|PUBLISHED': 'DRAFT|PUBLISHED' is several values, and = matches "
                          f"one; to match any of them, give --filter '{hint}'\n")
    # The suggested filter works, and matches what the two values match one by one.
    both = blog("list", "Post", "--filter", hint, "--fields", "id")
    assert both.code == 0, both
    one_by_one = [blog("list", "Post", "--where", f"status={s}", "--fields", "id").json() for s in ("DRAFT", "PUBLISHED")]
    assert sorted(r["id"] for r in both.json()) == sorted(r["id"] for part in one_by_one for r in part)
    condition = blog("update", "Post", "--id", "p1", "title=x", "--if", "status=DRAFT,PUBLISHED")
    assert (condition.code, condition.stderr) == (
        2, "gqlc: --if 'status=DRAFT,PUBLISHED': 'DRAFT,PUBLISHED' is several values, and = matches one; give one value\n")
