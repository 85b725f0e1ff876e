"""The smaller rough edges of issue 21 (point 20), end to end against appsync-local: one value for a list field,
contradicting --where expressions, --filter keys checked, and messages that name the way out."""

from __future__ import annotations

import pytest

from gqlc_runner import closed_port_url, runner_for
from harness import start_server


@pytest.fixture(scope="module")
def blog_url(schema_examples_dir):
    with start_server(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                      record_requests=True) as server:
        yield server


@pytest.fixture
def blog(schema_examples_dir, blog_url):
    run = runner_for(schema_examples_dir / "blog.json", blog_url.url)
    run.server = blog_url
    return run


def test_one_value_for_a_list_field_is_a_list_of_one_as_for_custom_operations(blog):
    created = blog("create", "Post", "title=Solo tag", "tags=apple", "blog=b1")
    assert (created.code, created.stderr) == (0, ""), created
    assert created.json()["tags"] == ["apple"]
    stored = blog("get", "Post", "--id", created.json()["id"], "--fields", "tags")
    assert stored.json()["tags"] == ["apple"]
    assert blog("--dry-run", "create", "Post", "title=x", "tags=null").json()["variables"]["input"]["tags"] is None


def test_the_same_field_twice_in_where_warns_that_nothing_can_match(blog):
    run = blog("list", "Post", "--where", "status=DRAFT", "--where", "status=PUBLISHED")
    assert (run.code, run.stdout) == (0, "[]\n"), run
    assert run.stderr == ("gqlc: warning: --where 'status=DRAFT' and 'status=PUBLISHED' are AND-ed, and no record has "
                          "both values; to match either, give --filter '{\"or\": [...]}'\n")
    # A range on one field, or the same value twice, is not a contradiction.
    assert blog("list", "Post", "--where", "rating>=1", "--where", "rating<=5", "--fields", "id").stderr == ""
    assert blog("list", "Post", "--where", "status=DRAFT", "--where", "status=DRAFT", "--fields", "id").stderr == ""


def test_an_unknown_field_in_a_filter_object_is_refused_before_sending(blog):
    before = len(blog.server.requests())
    run = blog("list", "Post", "--filter", '{"or": [{"status": {"eq": "DRAFT"}}, {"titel": {"eq": "x"}}]}')
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == "gqlc: --filter: unknown field 'titel' on Post; did you mean 'title'?\n"
    assert len(blog.server.requests()) == before
    # Foreign keys and and/or/not are the filter input's too.
    ok = blog("list", "Comment", "--filter", '{"not": {"postId": {"eq": "p1"}}}', "--fields", "id")
    assert (ok.code, ok.stderr) == (0, ""), ok


@pytest.mark.parametrize("args, message", [
    (["delete", "Post"],
     "gqlc: 'delete' needs --id VALUE or --key FIELD=VALUE to pick the record, or --where EXPR, --filter JSON or "
     "--input FILE for many\n"),
    (["subscribe", "Post", "--on", "create", "--where", "title?"],
     "gqlc: --where 'title?': operator '?' is not in AppSync's subscription filters (they have no attributeExists); "
     "use = != < <= > >= =LOW..HIGH ^= *= !*=\n"),
    (["create", "Post", "title:=hello"],
     "gqlc: 'title:=hello': invalid JSON at 1:1: unexpected character 'h'; expected a value; for text, write "
     "title=hello (':=' takes JSON such as title:='\"text\"')\n"),
    (["--endpoint", "localhost:20011", "list", "Post"],
     "gqlc: invalid endpoint 'localhost:20011' from '--endpoint': expected an http:// or https:// URL; "
     "did you mean 'http://localhost:20011'?\n"),
    (["--endpoint", "abc.appsync-api.eu-west-1.amazonaws.com/graphql", "list", "Post"],
     "gqlc: invalid endpoint 'abc.appsync-api.eu-west-1.amazonaws.com/graphql' from '--endpoint': expected an http:// "
     "or https:// URL; did you mean 'https://abc.appsync-api.eu-west-1.amazonaws.com/graphql'?\n"),
])
def test_messages_name_the_way_out(schema_examples_dir, args, message):
    run = runner_for(schema_examples_dir / "blog.json", closed_port_url())(*args)
    assert (run.code, run.stdout, run.stderr) == (2, "", message)


GEN1_GLOBAL_RULE = """\
# This "input" configures a global authorization rule to enable public access to
# all models in this schema. Learn more about authorization rules here: https://docs.amplify.aws/cli/graphql/authorization-rules
input AMPLIFY { globalAuthRule: AuthRule = { allow: public } } # FOR TESTING ONLY!

type Todo @model {
  id: ID!
  name: String!
}

type Note @model @auth(rules: [{allow: owner}]) {
  id: ID!
  text: String
}
"""


def test_the_gen1_global_auth_rule_shows_on_models_without_their_own(tmp_path):
    # The header `amplify add api` writes: the transformer gives its rule to every model without @auth.
    from gqlc_runner import run_gqlc
    (tmp_path / "schema.graphql").write_text(GEN1_GLOBAL_RULE)
    todo = run_gqlc(["--schema", tmp_path / "schema.graphql", "models", "Todo"])
    assert (todo.code, todo.stderr) == (0, ""), todo
    assert todo.stdout.splitlines()[-2:] == ["  auth rules:", "    public (apiKey): create, update, delete, read"]
    note = run_gqlc(["--schema", tmp_path / "schema.graphql", "models", "Note"])
    assert note.stdout.splitlines()[-1].startswith("    owner (userPools;"), note


def test_a_brace_left_open_in_a_split_schema_is_reported_in_the_file_that_opened_it(tmp_path):
    from gqlc_runner import run_gqlc
    folder = tmp_path / "schema"
    folder.mkdir()
    # Braces in strings and comments do not count.
    (folder / "Blog.graphql").write_text('type Blog @model {\n  id: ID!\n  "a { in a description"\n  name: String\n')
    (folder / "Post.graphql").write_text("# a } in a comment\ntype Post @model {\n  id: ID!\n  title: String!\n}\n")
    run = run_gqlc(["--schema", folder, "models"])
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == (f"gqlc: {folder}/Blog.graphql: 1:18: '{{' is not closed before the end of this file "
                          "(each file holds whole definitions)\n")
    (folder / "Blog.graphql").write_text('type Blog @model {\n  id: ID!\n  "a { in a description"\n  name: String\n}\n')
    assert run_gqlc(["--schema", folder, "models"]).code == 0
