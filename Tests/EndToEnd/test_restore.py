"""gqlc restore (and snapshot) between two appsync-local servers on a relational schema.

The schema joins the blog (has-many, belongs-to), tags (many-to-many through a join model) and inventory (composite
keys) examples, and adds Employee, whose manager is another Employee (a self-reference) and who has one Badge (a
Gen 2 has-one: the key is on the Badge, which belongs to its Employee), and an owner rule on
Comment's declared `author` field. The target's records are read from the target server itself; the order of the
creates from its request log.
"""

from __future__ import annotations

import json

import pytest

from gqlc_runner import run_gqlc

READ_ONLY = {"createdAt", "updatedAt"}


def field(name, type_, required=False, **extra):
    return {"name": name, "isArray": False, "type": type_, "isRequired": required, "attributes": [], **extra}


def model(name, fields, keys=()):
    """A model of the introspection format with an `id` key, the given fields and the implicit timestamps."""
    return {
        "name": name, "pluralName": name + "s", "syncable": True,
        "fields": {"id": field("id", "ID", True), **{f["name"]: f for f in fields},
                   "createdAt": field("createdAt", "AWSDateTime", isReadOnly=True),
                   "updatedAt": field("updatedAt", "AWSDateTime", isReadOnly=True)},
        "attributes": [{"type": "model", "properties": {}}, *({"type": "key", "properties": key} for key in keys)],
        "primaryKeyInfo": {"isCustomPrimaryKey": False, "primaryKeyFieldName": "id", "sortKeyFieldNames": []},
    }


def employee_model():
    return model("Employee", [
        field("name", "String", True), field("managerId", "ID"),
        field("manager", {"model": "Employee"}, association={"connectionType": "BELONGS_TO", "targetNames": ["managerId"]}),
        {**field("reports", {"model": "Employee"}), "isArray": True, "isArrayNullable": True,
         "association": {"connectionType": "HAS_MANY", "associatedWith": ["managerId"]}},
        field("badge", {"model": "Badge"}, association={"connectionType": "HAS_ONE", "associatedWith": ["employeeId"], "targetNames": []}),
    ], keys=[{"name": "byManager", "queryField": "employeesByManager", "fields": ["managerId"]}])


def badge_model():
    return model("Badge", [
        field("code", "String", True), field("employeeId", "ID"),
        field("employee", {"model": "Employee"}, association={"connectionType": "BELONGS_TO", "targetNames": ["employeeId"]}),
    ])


BADGES = [{"id": "badge1", "code": "A-1", "employeeId": "e1"}, {"id": "badge3", "code": "C-3", "employeeId": "e3"}]

EMPLOYEES = [{"id": "e1", "name": "Ada", "managerId": None}, {"id": "e2", "name": "Bo", "managerId": "e1"},
             {"id": "e3", "name": "Cy", "managerId": "e2"}, {"id": "e4", "name": "Di", "managerId": "e1"}]


@pytest.fixture(scope="module")
def relational(schema_examples_dir, tmp_path_factory):
    """(schema path, seed path) of the joined schema."""
    merged = {"version": 1, "models": {}, "enums": {}, "nonModels": {}}
    seed = {}
    for name in ("blog", "tags", "inventory"):
        schema = json.loads((schema_examples_dir / f"{name}.json").read_text())
        for key in ("models", "enums", "nonModels"):
            merged[key].update(schema.get(key, {}))
        seed.update(json.loads((schema_examples_dir / f"{name}-seed.json").read_text()))
    merged["models"]["Employee"] = employee_model()
    seed["Employee"] = EMPLOYEES
    merged["models"]["Badge"] = badge_model()
    seed["Badge"] = BADGES
    merged["models"]["Comment"]["attributes"].append({"type": "auth", "properties": {"rules": [
        {"provider": "userPools", "ownerField": "author", "allow": "owner", "identityClaim": "cognito:username",
         "operations": ["create", "update", "delete", "read"]},
        {"allow": "public", "provider": "apiKey", "operations": ["create", "update", "delete", "read"]}]}})
    folder = tmp_path_factory.mktemp("relational")
    (folder / "schema.json").write_text(json.dumps(merged))
    (folder / "seed.json").write_text(json.dumps(seed))
    return folder / "schema.json", folder / "seed.json", merged


def list_all(server, model, introspection):
    plural = introspection["models"][model]["pluralName"]
    fields = [name for name, f in introspection["models"][model]["fields"].items()
              if isinstance(f["type"], str) and name not in READ_ONLY]
    items, token = [], None
    while True:
        data = server.graphql(f"query($t: String) {{ list{plural}(limit: 1000, nextToken: $t) {{ items {{ {' '.join(fields)} }} nextToken }} }}",
                              {"t": token})["data"][f"list{plural}"]
        items += data["items"]
        token = data["nextToken"]
        if not token:
            return sorted(items, key=lambda r: json.dumps(r, sort_keys=True))


def gqlc(schema, server, *args, env=None):
    return run_gqlc(["--schema", schema, "--endpoint", server.url, *map(str, args)], env=env)


def created_models(server):
    """The model of each create and update mutation the server received, in order."""
    order = []
    for request in server.requests():
        query = json.loads(request["body"]).get("query", "")
        for verb in ("create", "update"):
            marker = f"mutation {verb.capitalize()}"
            if query.startswith(marker):
                order.append((verb, query[len(marker):].split("(")[0]))
    return order


@pytest.fixture
def source_and_target(start_appsync, relational):
    schema, seed, introspection = relational
    source = start_appsync(schema, seed=seed)
    target = start_appsync(schema, record_requests=True)
    return schema, introspection, source, target


def test_snapshot_then_restore_gives_the_target_the_same_records_parents_first(source_and_target, tmp_path):
    schema, introspection, source, target = source_and_target
    assert gqlc(schema, source, "snapshot", tmp_path / "snap").code == 0
    run = gqlc(schema, target, "restore", tmp_path / "snap")
    assert run.code == 0, run
    for model in introspection["models"]:
        assert list_all(target, model, introspection) == list_all(source, model, introspection), model
    lines = run.stderr_lines
    assert ("gqlc: note: createdAt, updatedAt are read-only (the server sets them); the snapshot's values are left out "
            "(Article, ArticleTags, Badge, Blog, Comment, Employee, InventoryItem, Post, Tag, Warehouse)") in lines
    assert "Post: 5 restored, 0 skipped, 0 failed" in lines
    assert "Employee: 4 restored, 0 skipped, 0 failed; 3 links set" in lines

    order = created_models(target)
    creates = [model for verb, model in order if verb == "create"]
    def first(model): return creates.index(model)
    def last(model): return len(creates) - 1 - creates[::-1].index(model)
    # Every child after its parent: belongs-to targets first, the join model last.
    assert last("Blog") < first("Post") and last("Post") < first("Comment")
    assert last("Article") < first("ArticleTags") and last("Tag") < first("ArticleTags")
    assert last("Warehouse") < first("InventoryItem")
    assert last("Employee") < first("Badge") and "Badge: 2 restored, 0 skipped, 0 failed" in lines  # has-one
    # The self-reference: every Employee created without its manager, then the links set by updates.
    updates = [model for verb, model in order if verb == "update"]
    assert updates == ["Employee"] * 3
    employee_creates = [json.loads(r["body"])["variables"]["input"] for r in target.requests()
                        if json.loads(r["body"]).get("query", "").startswith("mutation CreateEmployee")]
    assert all("managerId" not in item for item in employee_creates)


def test_a_second_restore_with_skip_existing_creates_and_fails_nothing(source_and_target, tmp_path):
    schema, introspection, source, target = source_and_target
    assert gqlc(schema, source, "snapshot", tmp_path / "snap").code == 0
    assert gqlc(schema, target, "restore", tmp_path / "snap").code == 0
    before = {model: list_all(target, model, introspection) for model in introspection["models"]}
    run = gqlc(schema, target, "restore", tmp_path / "snap", "--skip-existing")
    assert run.code == 0, run
    assert "Post: 0 restored, 5 skipped, 0 failed" in run.stderr_lines
    assert not any(" failed" in line and ", 0 failed" not in line for line in run.stderr_lines), run.stderr
    assert {model: list_all(target, model, introspection) for model in introspection["models"]} == before
    # Without it, the existing keys are failures (status 3), each named.
    run = gqlc(schema, target, "restore", tmp_path / "snap", "Blog")
    assert run.code == 3
    assert "gqlc: Blog id=b1: Blog already has a record with key id=b1" in run.stderr_lines
    assert "Blog: 0 restored, 0 skipped, 2 failed" in run.stderr_lines


def test_rejects_hold_the_failed_records_and_a_rejects_file_that_cannot_be_written_is_said(source_and_target, tmp_path):
    schema, introspection, source, target = source_and_target
    assert gqlc(schema, source, "snapshot", tmp_path / "snap").code == 0
    assert gqlc(schema, target, "restore", tmp_path / "snap", "Blog").code == 0
    # A second restore fails on every existing key: each failed record goes to the model's rejects file.
    run = gqlc(schema, target, "restore", tmp_path / "snap", "Blog", "--rejects", tmp_path / "rejects")
    assert run.code == 3, run
    rejected = [json.loads(line) for line in (tmp_path / "rejects" / "Blog.ndjson").read_text().splitlines()]
    assert sorted(record["id"] for record in rejected) == ["b1", "b2"]
    # When the rejects file cannot be written (here a folder stands at its path), the records are not silently lost:
    # each failure is still named, and the run says the file lacks them, with the status of a failed local write.
    (tmp_path / "blocked" / "Blog.ndjson").mkdir(parents=True)
    run = gqlc(schema, target, "restore", tmp_path / "snap", "Blog", "--rejects", tmp_path / "blocked")
    assert run.code == 7, run
    assert "gqlc: Blog id=b1: Blog already has a record with key id=b1" in run.stderr_lines
    assert run.stderr_lines[-1] == (f"gqlc: cannot write --rejects file {tmp_path / 'blocked' / 'Blog.ndjson'}: "
                                    "Is a directory; it lacks some of the records that failed"), run


def test_a_snapshot_that_does_not_fit_is_refused_before_sending(source_and_target, start_appsync, tmp_path):
    schema, introspection, source, _ = source_and_target
    assert gqlc(schema, source, "snapshot", tmp_path / "snap").code == 0
    smaller = json.loads(json.dumps(introspection))
    del smaller["models"]["Employee"]
    del smaller["models"]["Badge"]  # it belongs to an Employee
    del smaller["models"]["Post"]["fields"]["views"]
    (tmp_path / "smaller.json").write_text(json.dumps(smaller))
    target = start_appsync(tmp_path / "smaller.json", record_requests=True)
    run = gqlc(tmp_path / "smaller.json", target, "restore", tmp_path / "snap")
    assert run.code == 2
    assert "gqlc: Employee: the target has no such model" in run.stderr_lines
    assert "gqlc: Badge: the target has no such model" in run.stderr_lines
    assert "gqlc: Post.views: the target's model has no such field" in run.stderr_lines
    assert run.stderr_lines[-1] == "gqlc: the snapshot does not fit the target's schema; nothing was sent (--force restores what fits)"
    assert target.requests() == []
    run = gqlc(tmp_path / "smaller.json", target, "restore", tmp_path / "snap", "--force")
    assert run.code == 0, run
    assert len(list_all(target, "Post", smaller)) == 5


def test_map_owner_rewrites_declared_owner_fields(source_and_target, tmp_path):
    schema, introspection, source, target = source_and_target
    assert gqlc(schema, source, "snapshot", tmp_path / "snap", "Comment").code == 0
    (tmp_path / "owners.json").write_text(json.dumps({"ana": "sub-2::ana"}))
    run = gqlc(schema, target, "restore", tmp_path / "snap", "--map-owner", tmp_path / "owners.json")
    assert run.code == 0, run
    authors = {c["id"]: c["author"] for c in list_all(target, "Comment", introspection)}
    source_authors = {c["id"]: c["author"] for c in list_all(source, "Comment", introspection)}
    assert authors == {key: ("sub-2::ana" if value == "ana" else value) for key, value in source_authors.items()}
    assert "sub-2::ana" in authors.values()


def test_dry_run_prints_the_plan_and_sends_nothing(source_and_target, tmp_path):
    schema, introspection, source, target = source_and_target
    assert gqlc(schema, source, "snapshot", tmp_path / "snap").code == 0
    run = gqlc(schema, target, "--dry-run", "restore", tmp_path / "snap")
    assert run.code == 0, run
    plan = run.stdout.splitlines()
    names = [line.split()[0] for line in plan]
    assert names.index("Blog") < names.index("Post") < names.index("Comment")
    assert names.index("Article") < names.index("ArticleTags") and names.index("Tag") < names.index("ArticleTags")
    assert "Employee 4 (then managerId by update)" in plan
    assert target.requests() == []


def test_restore_into_a_read_only_environment_is_refused(source_and_target, tmp_path):
    schema, introspection, source, target = source_and_target
    assert gqlc(schema, source, "snapshot", tmp_path / "snap").code == 0
    config = tmp_path / "config"
    config.write_text(f"[env stage]\nschema = {schema}\nendpoint = {target.url}\nread_only = true\n")
    run = run_gqlc(["--env", "stage", "restore", tmp_path / "snap"], env={"GQLC_CONFIG": str(config)})
    assert run.code == 2
    assert "refusing to restore a snapshot: nothing was sent" in run.stderr
    assert target.requests() == []


# MARK: - gqlc copy

def environments(tmp_path, schema, source, target, target_extra=""):
    config = tmp_path / "config"
    config.write_text(f"[env dev]\nschema = {schema}\nendpoint = {source.url}\n\n"
                      f"[env stage]\nschema = {schema}\nendpoint = {target.url}\n{target_extra}")
    return {"GQLC_CONFIG": str(config)}


def test_copy_gives_the_target_the_same_records_without_files(source_and_target, tmp_path):
    schema, introspection, source, target = source_and_target
    env = environments(tmp_path, schema, source, target)
    run = run_gqlc(["copy", "--from", "dev", "--to", "stage"], env=env, cwd=tmp_path)
    assert run.code == 0, run
    for model in introspection["models"]:
        assert list_all(target, model, introspection) == list_all(source, model, introspection), model
    assert "Employee: 4 restored, 0 skipped, 0 failed; 3 links set" in run.stderr_lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config"]
    creates = [model for verb, model in created_models(target) if verb == "create"]
    assert max(i for i, m in enumerate(creates) if m == "Blog") < min(i for i, m in enumerate(creates) if m == "Post")
    again = run_gqlc(["copy", "--from", "dev", "--to", "stage", "Post", "--skip-existing"], env=env)
    assert again.code == 0 and "Post: 0 restored, 5 skipped, 0 failed" in again.stderr_lines, again


def test_copy_dry_run_prints_the_plan_with_counts(source_and_target, tmp_path):
    schema, introspection, source, target = source_and_target
    env = environments(tmp_path, schema, source, target)
    run = run_gqlc(["--dry-run", "copy", "--from", "dev", "--to", "stage", "Blog", "Post", "Employee"], env=env)
    assert run.code == 0, run
    assert run.stdout == "Blog 2\nEmployee 4 (then managerId by update)\nPost 5\n"
    assert target.requests() == []


def test_copy_into_protected_or_read_only_environments(source_and_target, tmp_path):
    schema, introspection, source, target = source_and_target
    env = environments(tmp_path, schema, source, target, "protected = true\n")
    run = run_gqlc(["copy", "--from", "dev", "--to", "stage"], env=env)
    assert run.code == 2
    assert ("gqlc: environment 'stage' is protected; pass --yes to copy records into 'stage' (standard input is not a "
            "terminal, so gqlc cannot ask): nothing was sent") in run.stderr_lines
    assert target.requests() == []
    assert run_gqlc(["--yes", "copy", "--from", "dev", "--to", "stage", "Blog"], env=env).code == 0
    env = environments(tmp_path, schema, source, target, "read_only = true\n")
    run = run_gqlc(["--yes", "copy", "--from", "dev", "--to", "stage", "Post"], env=env)
    assert run.code == 2 and "refusing to copy records into 'stage': nothing was sent" in run.stderr
    # A connection setting from the shell would apply to both sides.
    run = run_gqlc(["copy", "--from", "dev", "--to", "stage"], env={**env, "GQLC_ENDPOINT": source.url})
    assert (run.code, run.stderr) == (2, "gqlc: $GQLC_ENDPOINT would apply to both sides; unset it: copy takes each "
                                         "side's settings from its environment\n")


# MARK: - gqlc diff

def test_diff_finds_exactly_what_changed_was_added_and_removed(source_and_target, tmp_path):
    schema, introspection, source, target = source_and_target
    env = environments(tmp_path, schema, source, target)
    assert gqlc(schema, source, "snapshot", tmp_path / "monday").code == 0
    same = run_gqlc(["diff", "--from", tmp_path / "monday", "--to", "dev"], env=env)
    assert same.code == 0 and all(line.endswith(": 0 added, 0 removed, 0 changed") for line in same.stdout.splitlines()), same
    # Change one side through the server itself: one record changed, one removed, one added.
    source.graphql('mutation { updatePost(input: {id: "p1", title: "Renamed", views: 1}) { id } }')
    source.graphql('mutation { deleteComment(input: {id: "c1"}) { id } }')
    source.graphql('mutation { createTag(input: {id: "t9", label: "new"}) { id } }')
    run = run_gqlc(["diff", "--from", tmp_path / "monday", "--to", "dev"], env=env)
    assert run.code == 8, run
    summary, differences = run.stdout.split("\n\n")
    assert differences.splitlines() == ["- Comment id=c1", "~ Post id=p1: title, views", "+ Tag id=t9"]
    assert "Post: 0 added, 0 removed, 1 changed" in summary.splitlines()
    lines = [json.loads(line) for line in run_gqlc(
        ["diff", "Post", "--from", tmp_path / "monday", "--to", "dev", "--output", "ndjson"], env=env).stdout.splitlines()]
    assert len(lines) == 1
    line = lines[0]
    assert (line["op"], line["model"], line["key"], line["fields"]) == ("changed", "Post", {"id": "p1"}, ["title", "views"])
    assert (line["from"]["title"], line["to"]["title"]) == ("A sourdough starter in seven days", "Renamed")
    assert set(line) == {"op", "model", "key", "fields", "from", "to"}
    # --ignore and --fields narrow the comparison.
    assert run_gqlc(["diff", "Post", "--from", tmp_path / "monday", "--to", "dev", "--ignore", "title", "--ignore", "views"],
                    env=env).code == 0
    assert run_gqlc(["diff", "Post", "--from", tmp_path / "monday", "--to", "dev", "--fields", "content"], env=env).code == 0
    # Two environments; an unreachable side is "could not compare", not "different".
    run = run_gqlc(["diff", "Blog", "--from", "dev", "--to", "stage"], env=env)
    assert (run.code, run.stdout) == (8, "Blog: 0 added, 2 removed, 0 changed\n\n- Blog id=b1\n- Blog id=b2\n"), run
    target.stop()
    run = run_gqlc(["--retries", "0", "diff", "Blog", "--from", "dev", "--to", "stage"], env=env)
    assert run.code == 6, run
