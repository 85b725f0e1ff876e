"""The command-line surface end to end: --version, help pages and their examples, suggestions for typos,
`models`, `--dry-run` (prints the exact body, sends nothing) and `--raw-response`."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from gqlc_runner import closed_port_url, run_gqlc, runner_for
from harness import start_server

COMMANDS = ["get", "list", "create", "update", "delete", "sync", "query", "mutate", "models", "raw", "subscribe", "events", "mcp", "schema",
            "login", "whoami", "logout", "env", "snapshot", "restore", "copy", "diff", "completion", "version", "help"]


@pytest.fixture(scope="module")
def blog(schema_examples_dir):
    with start_server(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json") as server:
        yield runner_for(schema_examples_dir / "blog.json", server.url)


@pytest.fixture
def offline(schema_examples_dir):
    """gqlc on the blog schema with an endpoint where nothing listens."""
    return runner_for(schema_examples_dir / "blog.json", closed_port_url())


# MARK: - Version and help

def test_version():
    run = run_gqlc(["--version"])
    assert (run.code, run.stderr) == (0, "")
    assert re.fullmatch(r"gqlc \d+\.\d+\.\d+\n", run.stdout), run.stdout


def test_overview_lists_every_command_and_exit_status():
    run = run_gqlc(["--help"])
    assert (run.code, run.stderr) == (0, "")
    assert run.stdout.startswith("Usage: gqlc [OPTIONS] COMMAND [ARGUMENTS]...\n")
    commands = re.search(r"\nCommands:\n((?:  .*\n)+)", run.stdout).group(1)
    assert [line.split()[0] for line in commands.splitlines()] == COMMANDS
    statuses = re.search(r"\nExit status:\n((?:  .*\n)+)", run.stdout).group(1)
    assert [line.split()[0] for line in statuses.splitlines()] == ["0", "1", "2", "3", "4", "5", "6", "7", "8", "130", "141", "143"]
    assert run_gqlc(["help"]).stdout == run.stdout == run_gqlc(["-h"]).stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_a_help_page(command):
    page = run_gqlc([command, "--help"])
    assert (page.code, page.stderr) == (0, ""), page
    assert page.stdout.startswith(f"Usage: gqlc {command}")
    assert run_gqlc(["help", command]).stdout == page.stdout
    if command != "help":
        assert "\nExamples:\n" in page.stdout


def test_help_wins_over_other_arguments():
    run = run_gqlc(["list", "--where", "nonsense", "--help"])
    assert run.code == 0 and run.stdout.startswith("Usage: gqlc list"), run


def example_commands(page: str) -> list[str]:
    """The `gqlc …` lines of a help page's Examples section, continuation lines joined."""
    section = page.split("\nExamples:\n", 1)[1]
    commands, current = [], None
    for line in section.splitlines():
        text = line.strip()
        if current is not None:
            current += " " + text.rstrip("\\").strip()
            if not text.endswith("\\"):
                commands.append(current)
                current = None
        elif text.startswith("gqlc "):
            if text.endswith("\\"):
                current = text.rstrip("\\").strip()
            else:
                commands.append(text)
    return commands


@pytest.mark.parametrize("command", ["get", "list", "create", "update", "delete", "models"])
def test_help_examples_are_accepted(command, schema_examples_dir, tmp_path):
    """Each example on a help page parses and builds its request (run with --dry-run on the example schemas)."""
    (tmp_path / "post.json").write_text('{"title": "From a file"}')
    (tmp_path / "posts.ndjson").write_text('{"title": "One"}\n{"title": "Two"}\n')
    (tmp_path / "keys.ndjson").write_text('{"id": "c1"}\n{"id": "c2"}\n')
    (tmp_path / "drafts.ndjson").write_text('{"id": "p1"}\n{"id": "p2"}\n')
    (tmp_path / "schema-examples").symlink_to(schema_examples_dir)  # examples name files from the repository root
    examples = example_commands(run_gqlc([command, "--help"]).stdout)
    assert examples
    for example in examples:
        words = shlex.split(example.split(" | ")[0])[1:]
        if words[0] == "delete" and ("--where" in words or "--cascade" in words):
            continue  # lists the matching records or the children first, so even --dry-run needs a server
        schema = "inventory.json" if "InventoryItem" in words else "blog.json"
        env = {"GQLC_SCHEMA": str(schema_examples_dir / schema)}
        if words[0] != "models":
            words = ["--dry-run", *words]
        else:
            (tmp_path / "amplify_outputs.json").write_text((schema_examples_dir / "blog.json").read_text())
        run = run_gqlc(words, env=env, cwd=tmp_path, stdin='{"quantity": 3}')
        assert (run.code, run.stderr) == (0, ""), f"{example}\n{run}"


# MARK: - Typos

@pytest.mark.parametrize("args, message", [
    (["lsit", "Post"], "gqlc: unknown command 'lsit'; did you mean 'list'?\n"),
    (["nope"], "gqlc: unknown command 'nope'; run 'gqlc help' for the list of commands\n"),
    (["--verbos", "list", "Post"], "gqlc: unknown option '--verbos'; did you mean '--verbose'?\n"),
    (["list", "Post", "--limt", "3"], "gqlc: unknown option '--limt'; did you mean '--limit'?\n"),
    (["get", "Post", "--id"], "gqlc: option '--id' needs a value (--id VALUE)\n"),
])
def test_typos_get_one_line_and_a_suggestion(offline, args, message):
    run = offline(*args)
    assert (run.code, run.stdout, run.stderr) == (2, "", message)


def test_command_option_before_the_command_says_where_it_belongs():
    run = run_gqlc(["--limit", "3", "list", "Post"])
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == "gqlc: option '--limit' belongs after the command, as in 'gqlc list --limit N'\n"


# MARK: - models

def test_models_lists_model_names(offline):
    run = offline("models")
    assert (run.code, run.stderr) == (0, ""), run
    # The names come first, one per line, up to a blank line (shell completion reads them); then the other types.
    assert run.stdout.split("\n\n")[0] == "Blog\nComment\nPost"
    assert run.stdout.split("\n\n")[1].splitlines()[:2] == ["enums:", "  PostStatus  DRAFT, PUBLISHED, ARCHIVED"]


def test_models_describes_one_model(offline):
    run = offline("models", "Post")
    assert (run.code, run.stderr) == (0, "")
    lines = run.stdout.splitlines()
    assert lines[:3] == ["Post (plural Posts)", "  key: id", "  fields:"]
    assert "    status       PostStatus  (one of DRAFT, PUBLISHED, ARCHIVED)" in lines
    assert "    tags         [String!]" in lines
    assert "    createdAt    AWSDateTime  (read-only)" in lines
    assert "    blog → Blog  (belongsTo; key on Post: blogId)" in lines
    assert "    comments → [Comment]  (hasMany; key on Comment: postId)" in lines
    assert "    byBlog (blogId, title)  query postsByBlogId" in lines
    assert lines[-1] == "  auth rules: none in the schema"
    assert lines[-9:-1] == [f"    {kind:<9} {name}" for kind, name in [
        ("get", "getPost"), ("list", "listPosts"), ("create", "createPost"), ("update", "updatePost"),
        ("delete", "deletePost"), ("onCreate", "onCreatePost"), ("onUpdate", "onUpdatePost"), ("onDelete", "onDeletePost")]]


def test_models_describes_a_composite_key(schema_examples_dir):
    run = run_gqlc(["--schema", schema_examples_dir / "inventory.json", "models", "InventoryItem"])
    assert run.code == 0
    assert run.stdout.splitlines()[1] == "  key: sku, warehouseId, bin  (partition sku, sort warehouseId, bin)"


def test_models_with_an_unknown_model(offline):
    run = offline("models", "Commnet")
    assert (run.code, run.stdout, run.stderr) == (2, "", "gqlc: unknown model 'Commnet'; did you mean 'Comment'?\n")


# MARK: - --dry-run

def test_dry_run_prints_the_exact_body_and_sends_nothing(schema_examples_dir, start_appsync):
    schema = schema_examples_dir / "blog.json"
    server = start_appsync(schema, seed=schema_examples_dir / "blog-seed.json", record_requests=True)
    dry = run_gqlc(["--schema", schema, "--endpoint", server.url, "--dry-run", "get", "Post", "--id", "p1",
                    "--include", "comments"])
    assert (dry.code, dry.stderr) == (0, ""), dry
    assert server.requests() == [], "dry run sent a request"
    sent = run_gqlc(["--schema", schema, "--endpoint", server.url, "get", "Post", "--id", "p1", "--include", "comments",
                     "--no-follow"])
    assert sent.code == 0, sent
    body = dry.json()
    assert list(body) == ["query", "variables"]
    [request] = server.requests()
    assert body == json.loads(request["body"]), "the dry run shows exactly what is POSTed"
    assert body["variables"] == {"id": "p1"}
    assert body["query"].startswith("query GetPost($id: ID!) {\n  getPost(id: $id) {\n")
    assert "p1" not in body["query"], "values travel in variables, never in the document"


def test_dry_run_on_a_closed_port_exits_0_for_every_command(offline):
    for args in (["get", "Post", "--id", "p1"], ["list", "Comment", "--where", "post=p1", "--limit", "5"],
                 ["create", "Post", "title=T"], ["update", "Post", "--id", "p1", "title=T", "--if", "status=DRAFT"],
                 ["delete", "Post", "--id", "p1", "--if", "rating<3"]):
        run = offline("--dry-run", *args)
        assert (run.code, run.stderr) == (0, ""), run
        assert run.stdout.count("\n") == 1 and set(run.json()) == {"query", "variables"}


def test_dry_run_list_shows_the_first_page_request(offline):
    # --limit does not shrink the request: AppSync filters after reading `limit` items.
    body = offline("--dry-run", "list", "Comment", "--where", "post=p1", "--limit", "5").json()
    assert body["variables"] == {"filter": {"postId": {"eq": "p1"}}, "limit": 1000}
    assert body["query"].startswith("query ListComments($filter: ModelCommentFilterInput, $limit: Int) {")


def test_dry_run_pretty(offline):
    run = offline("--dry-run", "--pretty", "update", "Post", "--id", "p1", "views=3", "--if", "views<3")
    assert run.code == 0 and run.stdout.startswith('{\n  "query": "mutation UpdatePost(')
    assert json.loads(run.stdout)["variables"] == {"condition": {"views": {"lt": 3}}, "input": {"id": "p1", "views": 3}}


def test_dry_run_still_reports_usage_errors(offline):
    run = offline("--dry-run", "get", "Post", "--id", "p1", "--include", "nope")
    assert (run.code, run.stdout) == (2, ""), run


# MARK: - --raw-response

def test_raw_response_of_a_get(blog):
    run = blog("--raw-response", "get", "Post", "--id", "p3", "--include", "comments")
    assert (run.code, run.stderr) == (0, ""), run
    envelope = run.json()
    assert list(envelope) == ["data"]
    assert envelope["data"]["getPost"]["comments"]["items"][0]["id"] == "c12"


def test_raw_response_of_a_mutation(blog):
    run = blog("--raw-response", "create", "Comment", "post=p3", "content=raw")
    assert run.code == 0, run
    assert run.json()["data"]["createComment"]["content"] == "raw"
