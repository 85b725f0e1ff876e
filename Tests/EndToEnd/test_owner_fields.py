"""Owner fields that an owner rule names but the schema does not declare (Gen 1's ``@auth(rules: [{allow: owner}])``,
Gen 2's owner models): the transformer adds them to the type, Amplify JS selects them in every document, and AppSync's
owner subscriptions filter on the fields a mutation selected. gqlc selects them too, and ``models`` shows them.

The subscription test runs against appsync-local with user-pool tokens from moto-local (see login_support.py): the
event record is the mutation's result as selected, so a create that leaves ``owner`` out is never heard by its owner.
"""

from __future__ import annotations

import re

import pytest

import login_support
from gqlc_runner import run_gqlc
from harness import SHARED_FIXTURES
from login_support import OWNER_RULE, App, _model, moto  # noqa: F401 - moto is a fixture
from subscribe_support import Background

GEN1_SDL = """
type Memo @model @auth(rules: [{allow: owner}]) {
  id: ID!
  content: String
}
type Folder @model @auth(rules: [{allow: owner, ownerField: "keeper"}, {allow: groups, groupsField: "editors"}]) {
  id: ID!
  name: String
}
"""


def field_lines(run) -> list[str]:
    lines = run.stdout.splitlines()
    start = lines.index("  fields:") + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("    "))
    return [" ".join(line.split()) for line in lines[start:end]]


def test_models_shows_the_owner_fields_a_gen1_schema_leaves_to_the_transformer(tmp_path):
    schema = tmp_path / "schema.graphql"
    schema.write_text(GEN1_SDL)
    memo = run_gqlc(["--schema", schema, "models", "Memo"])
    assert memo.code == 0, memo
    assert "owner String (read-only; owner field of an auth rule)" in field_lines(memo), memo
    folder = run_gqlc(["--schema", schema, "models", "Folder"])
    assert [line for line in field_lines(folder) if "owner field" in line] == [
        "keeper String (read-only; owner field of an auth rule)",
        "editors [String] (read-only; owner field of an auth rule)"], folder
    create = run_gqlc(["--schema", schema, "--endpoint", "http://127.0.0.1:9/graphql", "--dry-run", "create", "Memo",
                       "content=x"])
    assert "\\n    owner\\n" in create.stdout, create


@pytest.mark.shared_fixtures
def test_a_gen2_owner_model_selects_its_owner_everywhere():
    schema = SHARED_FIXTURES / "gen2-amplify-data-modeled.mis.json"
    todo = run_gqlc(["--schema", schema, "models", "Todo"])
    assert "owner String (read-only; owner field of an auth rule)" in field_lines(todo), todo
    for args in (["get", "Todo", "--id", "t1"], ["list", "Todo"], ["update", "Todo", "--id", "t1", "name=x"],
                 ["delete", "Todo", "--id", "t1"], ["create", "Todo", "name=x"]):
        run = run_gqlc(["--schema", schema, "--endpoint", "http://127.0.0.1:9/graphql", "--dry-run", *args])
        assert run.code == 0 and re.search(r"\\n *owner\\n", run.stdout), run


@pytest.mark.slow
def test_the_owner_hears_a_record_gqlc_created(moto, start_appsync, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setitem(login_support.MODELS, "Memo", _model("Memo", [OWNER_RULE]))  # no owner field declared
    app = App(moto, start_appsync, tmp_path)
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    watch = Background(["--schema", app.outputs, "subscribe", "Memo", "--on", "create", "--count", "2"], env=app.env)
    try:
        watch.subscribed("onCreateMemo")
        created = app.gqlc("create", "Memo", "content=written by gqlc")
        assert created.code == 0, created
        # A create as the app writes it (owner selected) comes second: the first event must be gqlc's.
        control = app.gqlc("raw", "--query", 'mutation { createMemo(input: {content: "control"}) '
                                              '{ id content createdAt updatedAt owner } }')
        assert control.code == 0, control
        first = watch.event()
        assert first["content"] == "written by gqlc" and first["owner"] == created.json()["owner"], first
        assert watch.event()["content"] == "control"
        code, _, stderr = watch.finish()
    finally:
        watch.kill()
    assert code == 0, stderr
