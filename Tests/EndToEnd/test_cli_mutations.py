"""`gqlc create`, `update` and `delete` end to end, with conditions, input files and bad values.

One server per module; each test creates the records it changes, so the tests stay independent.
"""

from __future__ import annotations

import json
import re
import uuid

import pytest

from gqlc_runner import runner_for
from harness import start_server

UUID = re.compile(r"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")
CONDITION_FAILED = "gqlc: DynamoDB:ConditionalCheckFailedException: The conditional request failed"


@pytest.fixture(scope="module")
def blog(schema_examples_dir):
    with start_server(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json") as server:
        yield runner_for(schema_examples_dir / "blog.json", server.url)


@pytest.fixture(scope="module")
def inventory(schema_examples_dir):
    with start_server(schema_examples_dir / "inventory.json", seed=schema_examples_dir / "inventory-seed.json") as server:
        yield runner_for(schema_examples_dir / "inventory.json", server.url)


@pytest.fixture(scope="module")
def shop(project_fixtures_dir):
    schema = project_fixtures_dir / "gen2-conventions.mis.json"
    with start_server(schema) as server:
        yield runner_for(schema, server.url)


def fresh_id() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


def make_post(blog, **fields) -> dict:
    args = [f"{name}={value}" for name, value in {"id": fresh_id(), "title": "Draft", "status": "DRAFT", **fields}.items()]
    run = blog("create", "Post", *args)
    assert run.code == 0, run
    return run.json()


def assert_condition_failed(run, root_field: str, note: str) -> None:
    """Exit 1, the server's error on one line, then one line saying what it means."""
    assert (run.code, run.stdout) == (1, ""), run
    error, note_line = run.stderr_lines
    assert error.startswith(CONDITION_FAILED) and error.endswith(f"(path: {root_field})"), run
    assert note_line == f"gqlc: {note}", run


# MARK: - create

def test_create_converts_each_value_by_its_field_type_and_generates_a_uuid(blog):
    run = blog("create", "Post", "title=Hello, world", "rating=4", "score=4.5", "views=0", "featured=true",
               "status=PUBLISHED", "publishedOn=2025-05-01", "content=null", 'tags:=["a","b"]',
               'metadata:={"wordCount": 12, "readingTime": 0.5, "source": {"url": "https://x.example", "label": "X"}}',
               "blog=b1")
    assert (run.code, run.stderr) == (0, ""), run
    post = run.json()
    assert UUID.match(post["id"]), post["id"]
    assert (post["title"], post["rating"], post["score"], post["views"], post["featured"]) == ("Hello, world", 4, 4.5, 0, True)
    assert (post["status"], post["publishedOn"], post["content"], post["tags"]) == ("PUBLISHED", "2025-05-01", None, ["a", "b"])
    assert post["metadata"] == {"readingTime": 0.5, "source": {"label": "X", "url": "https://x.example", "__typename": "Source"},
                                "wordCount": 12, "__typename": "PostMetadata"}
    assert post["blogId"] == "b1" and post["createdAt"] == post["updatedAt"]
    stored = blog("get", "Post", "--id", post["id"])
    assert stored.code == 0 and stored.json() == post


def test_each_create_gets_its_own_id(blog):
    first, second = (blog("create", "Comment", "content=hi").json()["id"] for _ in range(2))
    assert UUID.match(first) and UUID.match(second) and first != second


def test_create_comment_on_a_post_by_naming_the_association(blog):
    post = make_post(blog)
    run = blog("create", "Comment", "post=" + post["id"], "content=First!", "likes=2")
    assert run.code == 0, run
    assert run.json()["postId"] == post["id"]
    listed = blog("get", "Post", "--id", post["id"], "--include", "comments").json()["comments"]["items"]
    assert [c["content"] for c in listed] == ["First!"]


def test_create_reads_input_from_a_file_and_arguments_override_it(blog, tmp_path):
    identifier = fresh_id()
    path = tmp_path / "post.json"
    path.write_text(json.dumps({"id": identifier, "title": "From a file", "rating": 2, "tags": ["file"]}))
    run = blog("create", "Post", "--input", path, "rating=3")
    assert run.code == 0, run
    post = run.json()
    assert (post["id"], post["title"], post["rating"], post["tags"]) == (identifier, "From a file", 3, ["file"])


def test_create_reads_input_from_stdin(blog):
    run = blog("create", "Post", "--input", "-", stdin='{"title": "From stdin", "status": "ARCHIVED"}')
    assert run.code == 0, run
    assert (run.json()["title"], run.json()["status"]) == ("From stdin", "ARCHIVED")
    assert UUID.match(run.json()["id"])


def test_create_with_an_existing_id_fails_its_condition(blog):
    run = blog("create", "Post", "id=p1", "title=Duplicate")
    assert_condition_failed(run, "createPost", "hint: Post already has a record with this key")
    assert blog("get", "Post", "--id", "p1").json()["title"] == "A sourdough starter in seven days"


def test_create_without_a_required_field_is_refused_before_sending(blog):
    run = blog("create", "Post", "content=no title")
    assert (run.code, run.stdout, run.stderr) == (2, "", "gqlc: create Post: missing required field 'title' (String!)\n"), run


def test_create_with_a_composite_key(inventory):
    run = inventory("create", "InventoryItem", "sku=SKU-900", "warehouseId=wh-lyon", "bin=4", "quantity=8", "kind=FINISHED")
    assert run.code == 0, run
    assert (run.json()["bin"], run.json()["kind"]) == (4, "FINISHED")
    again = inventory("create", "InventoryItem", "sku=SKU-900", "warehouseId=wh-lyon", "bin=4", "quantity=1")
    assert_condition_failed(again, "createInventoryItem", "hint: InventoryItem already has a record with this key")


@pytest.mark.parametrize("args, message", [
    (["title=x", "nope=1"], "gqlc: 'nope=1': unknown field 'nope' on Post\n"),
    (["title=x", "rating=abc"], "gqlc: 'rating=abc': 'abc' is not an Int\n"),
    (["title=x", "views=1.5"], "gqlc: 'views=1.5': '1.5' is not an Int\n"),
    (["title=x", "status=DRAFTY"], "gqlc: 'status=DRAFTY': 'DRAFTY' is not a PostStatus; did you mean 'DRAFT'?\n"),
    (["title=x", "metadata=a"], "gqlc: 'metadata=a': 'metadata' is an embedded PostMetadata; give it as JSON: metadata:=…\n"),
    (["title=x", "createdAt=2020-01-01T00:00:00Z"],
     "gqlc: 'createdAt=2020-01-01T00:00:00Z': 'createdAt' on Post is read-only (set by the server)\n"),
    (["title=x", 'metadata:={"wordCount": 3, "bogus": 1}'],
     "gqlc: 'metadata:={\"wordCount\": 3, \"bogus\": 1}': metadata: unknown field 'bogus' on PostMetadata\n"),
])
def test_bad_field_values_are_usage_errors(blog, args, message):
    run = blog("create", "Post", *args)
    assert (run.code, run.stdout, run.stderr) == (2, "", message)


def test_bad_json_value_says_where(blog):
    run = blog("create", "Post", "title=x", "tags:=[1,")
    assert (run.code, run.stdout) == (2, "") and "'tags:=[1,'" in run.stderr and "1:" in run.stderr, run


@pytest.mark.parametrize("content, message", [
    (None, "gqlc: --input: {path}: no such file\n"),
    ("1", "gqlc: --input: expected a JSON object, found a number\n"),
    ("{bad", "gqlc: --input: {path}: invalid JSON at 1:2: unexpected character 'b'; expected a string key in double quotes\n"),
])
def test_bad_input_files_are_usage_errors(blog, tmp_path, content, message):
    path = tmp_path / "input.json"
    if content is not None:
        path.write_text(content)
    run = blog("create", "Post", "--input", path)
    assert (run.code, run.stdout, run.stderr) == (2, "", message.format(path=path))


def test_an_array_input_is_a_bulk_job_whose_records_fail_one_by_one(blog, tmp_path):
    path = tmp_path / "input.json"
    path.write_text("[1]")
    run = blog("create", "Post", "--input", path)
    assert (run.code, run.stdout) == (1, ""), run
    assert run.stderr_lines[0] == f"gqlc: {path}:1: --input: expected a JSON object, found a number", run


# MARK: - update

def test_update_changes_only_the_given_fields(blog):
    post = make_post(blog, rating=2)
    run = blog("update", "Post", "--id", post["id"], "status=PUBLISHED", "views=7")
    assert (run.code, run.stderr) == (0, ""), run
    updated = run.json()
    assert (updated["status"], updated["views"], updated["rating"], updated["title"]) == ("PUBLISHED", 7, 2, "Draft")
    assert updated["updatedAt"] >= post["updatedAt"] and updated["createdAt"] == post["createdAt"]


def test_get_output_piped_into_update_round_trips(blog):
    """`--input` drops read-only fields, __typename and association objects, so a fetched record can be fed back."""
    post = make_post(blog, rating=2)
    fetched = blog("get", "Post", "--id", post["id"], "--include", "comments", "--include", "blog")
    assert fetched.code == 0, fetched
    run = blog("update", "Post", "--id", post["id"], "--input", "-", "views=5", stdin=fetched.stdout)
    assert (run.code, run.stderr) == (0, ""), run
    updated = run.json()
    assert (updated["views"], updated["rating"], updated["title"]) == (5, 2, "Draft")


def test_update_null_removes_a_value(blog):
    post = make_post(blog, rating=2)
    assert blog("update", "Post", "--id", post["id"], "rating=null").json()["rating"] is None


def test_update_if_passing_applies(blog):
    post = make_post(blog)
    run = blog("update", "Post", "--id", post["id"], "status=PUBLISHED", "--if", "status=DRAFT")
    assert run.code == 0 and run.json()["status"] == "PUBLISHED", run


def test_update_if_failing_exits_1_and_changes_nothing(blog):
    post = make_post(blog)
    run = blog("update", "Post", "--id", post["id"], "status=ARCHIVED", "--if", "status=PUBLISHED")
    assert_condition_failed(run, "updatePost", f"the --if condition is false for Post with key '{post['id']}'")
    assert blog("get", "Post", "--id", post["id"]).json()["status"] == "DRAFT"


def test_several_ifs_must_all_hold(blog):
    post = make_post(blog, rating=4)
    failing = blog("update", "Post", "--id", post["id"], "title=New", "--if", "status=DRAFT", "--if", "rating>4")
    assert_condition_failed(failing, "updatePost", f"the --if condition is false for Post with key '{post['id']}'")
    passing = blog("update", "Post", "--id", post["id"], "title=New", "--if", "status=DRAFT", "--if", "rating>=4")
    assert passing.code == 0 and passing.json()["title"] == "New"


def test_update_of_a_missing_record_is_not_found(blog):
    """AppSync's update resolver requires the item to exist: its failed condition means not found (4)."""
    run = blog("update", "Post", "--id", "no-such-post", "title=x")
    assert (run.code, run.stdout, run.stderr) == (4, "", "gqlc: no Post with key 'no-such-post'\n"), run


def test_update_with_a_composite_key_and_condition(inventory):
    keys = ["--key", "sku=SKU-300", "--key", "warehouseId=wh-lyon", "--key", "bin=9"]
    before = inventory("get", "InventoryItem", *keys).json()["quantity"]
    run = inventory("update", "InventoryItem", *keys, f"quantity={before + 1}", "--if", f"quantity={before}")
    assert run.code == 0 and run.json()["quantity"] == before + 1, run
    stale = inventory("update", "InventoryItem", *keys, "quantity=0", "--if", f"quantity={before}")
    assert_condition_failed(
        stale, "updateInventoryItem",
        "the --if condition is false for InventoryItem with key sku=SKU-300, warehouseId=wh-lyon, bin=9")


@pytest.mark.parametrize("args, message", [
    ([], "gqlc: nothing to update: give FIELD=VALUE arguments or --input FILE\n"),
    (["id=p9"], "gqlc: 'id=p9': 'id' is part of Post's key; give it with --id or --key, not as a field value\n"),
    (["title=y", "--if", "nope=1"], "gqlc: --if 'nope=1': unknown field 'nope' on Post\n"),
    (["title=y", "--if", "id=p1"], "gqlc: --if 'id=p1': 'id' is part of Post's key; a condition cannot test key fields\n"),
])
def test_update_usage_errors(blog, args, message):
    run = blog("update", "Post", "--id", "p1", *args)
    assert (run.code, run.stdout, run.stderr) == (2, "", message)


# MARK: - delete

def test_delete_prints_the_deleted_record_then_get_is_not_found(blog):
    post = make_post(blog)
    run = blog("delete", "Post", "--id", post["id"])
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json()["id"] == post["id"] and run.json()["title"] == "Draft"
    gone = blog("get", "Post", "--id", post["id"])
    assert (gone.code, gone.stdout, gone.stderr) == (4, "", f"gqlc: no Post with key '{post['id']}'\n")


def test_delete_if_failing_keeps_the_record_and_passing_deletes_it(blog):
    post = make_post(blog)
    assert_condition_failed(blog("delete", "Post", "--id", post["id"], "--if", "status=PUBLISHED"), "deletePost",
                            f"the --if condition is false for Post with key '{post['id']}'")
    assert blog("get", "Post", "--id", post["id"]).code == 0
    run = blog("delete", "Post", "--id", post["id"], "--if", "status=DRAFT", "--if", "title^=Dra")
    assert run.code == 0 and run.json()["id"] == post["id"], run
    assert blog("get", "Post", "--id", post["id"]).code == 4


def test_delete_of_a_missing_record_is_not_found(blog):
    run = blog("delete", "Post", "--id", "no-such-post")
    assert (run.code, run.stdout, run.stderr) == (4, "", "gqlc: no Post with key 'no-such-post'\n"), run


def test_delete_with_a_composite_key(inventory):
    keys = ["--key", "sku=SKU-777", "--key", "warehouseId=wh-berlin", "--key", "bin=1"]
    assert inventory("create", "InventoryItem", "sku=SKU-777", "warehouseId=wh-berlin", "bin=1", "quantity=1").code == 0
    run = inventory("delete", "InventoryItem", *keys)
    assert run.code == 0 and run.json()["sku"] == "SKU-777", run
    assert inventory("get", "InventoryItem", *keys).code == 4


def test_delete_with_a_stray_argument_shows_the_usage(blog):
    run = blog("delete", "Post", "--id", "p1", "extra")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == ("gqlc: unexpected argument 'extra'; usage: gqlc delete MODEL (--id VALUE | --key FIELD=VALUE...)"
                          " [--if EXPR]... [--expected-version N] [--cascade [--yes]]\n")
    assert blog("get", "Post", "--id", "p1").code == 0


# MARK: - timestamps declared AWSDateTime!

def test_create_without_declared_required_timestamps_lets_the_server_fill_them_and_keeps_sent_ones(shop):
    filled = shop("create", "Shopper", "id=s-filled", "email=a@example.com")
    assert (filled.code, filled.stderr) == (0, ""), filled
    stamped = filled.json()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", stamped["createdAt"]), filled
    assert stamped["createdAt"] == stamped["updatedAt"]
    # An exported record created again keeps its dates.
    exported = {"id": "s-kept", "email": "b@example.com", "createdAt": "2021-04-05T06:07:08.009Z",
                "updatedAt": "2022-01-02T03:04:05.006Z"}
    kept = shop("create", "Shopper", "--input", "-", stdin=json.dumps(exported))
    assert (kept.code, kept.stderr) == (0, ""), kept
    assert {name: kept.json()[name] for name in ("createdAt", "updatedAt")} == {
        "createdAt": "2021-04-05T06:07:08.009Z", "updatedAt": "2022-01-02T03:04:05.006Z"}


# MARK: - mistyped field names

@pytest.mark.parametrize("args", [("create", "Post", "titel=x"), ("update", "Post", "--id", "p1", "titel=x")])
def test_a_mistyped_field_gets_a_did_you_mean(blog, args):
    run = blog(*args)
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == ["gqlc: 'titel=x': unknown field 'titel' on Post; did you mean 'title'?"]
    from_input = blog(*args[:-1], "--input", "-", stdin='{"titel": "x"}')
    assert from_input.stderr_lines == ["gqlc: --input: unknown field 'titel' on Post; did you mean 'title'?"], from_input
