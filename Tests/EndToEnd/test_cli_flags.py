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
