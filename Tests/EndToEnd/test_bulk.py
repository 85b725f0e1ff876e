"""Bulk `create`, `update` and `delete` (`--input` streamed, `--concurrency`, `--rejects`), `delete --where`,
and the export/import round trip, end to end against appsync-local (with its fault injection where it matters)."""

from __future__ import annotations
import json
import signal
import subprocess
import pytest
from gqlc_runner import GQLC_BIN, gqlc_env, runner_for
from harness import start_server
from bulk_support import (  # noqa: F401 - fixtures among them
    SUMMARY_RE,
    summary,
    comment,
    ndjson,
    blog_empty,
    blog,
    listed,
    _value_for,
    _seed,
    _mis,
    FIXTURES,
    sent_documents,
)


def test_ndjson_create_prints_records_in_input_order_with_a_summary(blog_empty):
    run_gqlc, _ = blog_empty
    records = [comment(i) for i in range(40)]
    run = run_gqlc("create", "Comment", "--input", "-", "--concurrency", "8", stdin=ndjson(records))
    assert run.code == 0, run
    printed = run.ndjson()
    assert [r["id"] for r in printed] == [r["id"] for r in records]
    assert all(p["content"] == r["content"] for p, r in zip(printed, records))
    assert run.stderr_lines == [run.stderr_lines[-1]] and summary(run) == (40, "created", 0), run
    assert sorted(r["id"] for r in listed(run_gqlc, "Comment")) == sorted(r["id"] for r in records)


def test_a_json_array_and_jq_style_pretty_values_are_items_too(blog_empty, tmp_path):
    run_gqlc, _ = blog_empty
    array = tmp_path / "array.json"
    array.write_text(json.dumps([comment(1), comment(2)], indent=2))
    run = run_gqlc("create", "Comment", "--input", array)
    assert run.code == 0 and [r["id"] for r in run.ndjson()] == ["k0001", "k0002"], run
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(comment(3), indent=2) + "\n" + json.dumps(comment(4), indent=2) + "\n")
    run = run_gqlc("create", "Comment", "--input", pretty)
    assert run.code == 0 and [r["id"] for r in run.ndjson()] == ["k0003", "k0004"], run


def test_one_object_is_still_a_single_create(blog_empty, tmp_path):
    run_gqlc, _ = blog_empty
    one = tmp_path / "one.json"
    one.write_text(json.dumps(comment(1)))
    run = run_gqlc("create", "Comment", "--input", one, "likes=99", "--pretty")
    assert run.code == 0 and run.stderr == "", run
    assert run.json()["likes"] == 99 and "\n  " in run.stdout


def test_failures_name_their_line_go_to_rejects_whole_and_a_rerun_finishes(blog_empty, tmp_path):
    run_gqlc, _ = blog_empty
    assert run_gqlc("create", "Comment", "id=k0002", "content=taken", "postId=p1").code == 0
    lines = [json.dumps(comment(1)), json.dumps(comment(2)), '{"id": "k0003", "content": ',
             json.dumps({**comment(4), "colour": "red"}), json.dumps(comment(5))]
    source = tmp_path / "in.ndjson"
    source.write_text("\n".join(lines) + "\n")
    rejects = tmp_path / "rejects.ndjson"
    run = run_gqlc("create", "Comment", "--input", source, "--rejects", rejects)
    assert run.code == 3, run
    assert [r["id"] for r in run.ndjson()] == ["k0001", "k0005"]
    errors = run.stderr_lines[:-1]
    assert errors[0] == f"gqlc: {source}:2: Comment already has a record with key id=k0002", run
    assert errors[1].startswith(f"gqlc: {source}:3: invalid JSON at 3:"), run
    assert errors[2].startswith(f"gqlc: {source}:4: ") and "'colour'" in errors[2], run
    assert len(errors) == 3 and summary(run) == (2, "created", 3), run
    assert rejects.read_text().splitlines() == [lines[1], lines[2], lines[3]]

    # Fix what was wrong, free the taken key, and run the same command on the rejects: the job finishes.
    assert run_gqlc("delete", "Comment", "--id", "k0002").code == 0
    rejects.write_text("\n".join([lines[1], json.dumps({**comment(3)}), json.dumps(comment(4))]) + "\n")
    rerun = run_gqlc("create", "Comment", "--input", rejects, "--rejects", tmp_path / "again.ndjson")
    assert rerun.code == 0 and summary(rerun) == (3, "created", 0), rerun
    assert (tmp_path / "again.ndjson").read_text() == ""
    assert len(listed(run_gqlc, "Comment")) == 5


def test_exit_1_when_every_record_failed(blog_empty):
    run_gqlc, _ = blog_empty
    run = run_gqlc("create", "Comment", "--input", "-", stdin='{"nope": 1}\n{"nope": 2}\n')
    assert run.code == 1 and run.stdout == "" and summary(run) == (0, "created", 2), run


def test_an_import_says_once_that_read_only_timestamps_are_left_out(blog_empty):
    """AppSync's create inputs do not take the implicit createdAt/updatedAt: a re-import cannot keep them, and
    says so instead of replacing the dates silently."""
    run_gqlc, _ = blog_empty
    dated = [{**comment(i), "createdAt": "2020-01-02T03:04:05.000Z", "updatedAt": "2020-01-02T03:04:05.000Z",
              "__typename": "Comment"} for i in range(3)]
    note = ("gqlc: note: createdAt, updatedAt are read-only on Comment (the server sets them); "
            "the input's values are left out")
    run = run_gqlc("create", "Comment", "--input", "-", stdin=ndjson(dated))
    assert run.code == 0 and run.stderr_lines[:-1] == [note] and summary(run) == (3, "created", 0), run
    assert all(not r["createdAt"].startswith("2020") for r in run.ndjson())
    one = run_gqlc("create", "Comment", "--input", "-", stdin=json.dumps({**dated[0], "id": "k9999"}))
    assert one.code == 0 and one.stderr_lines == [note], one
    plain = run_gqlc("create", "Comment", "--input", "-", stdin=ndjson([comment(5), comment(6)]))
    assert plain.code == 0 and len(plain.stderr_lines) == 1, plain


def test_a_broken_array_stops_with_status_2_after_the_records_before_it(blog_empty):
    run_gqlc, _ = blog_empty
    text = "[" + json.dumps(comment(1)) + "\n" + json.dumps(comment(2)) + "]"
    run = run_gqlc("create", "Comment", "--input", "-", stdin=text)
    assert run.code == 2, run
    assert [r["id"] for r in run.ndjson()] == ["k0001"]
    assert "gqlc: --input: <stdin>: invalid JSON at 2:1: expected ',' or ']'" in run.stderr, run


def test_dry_run_prints_each_body_and_sends_nothing(blog_empty):
    run_gqlc, _ = blog_empty
    run = run_gqlc("--dry-run", "create", "Comment", "--input", "-", stdin=ndjson([comment(1), comment(2)]))
    assert run.code == 0, run
    bodies = run.ndjson()
    assert [b["variables"]["input"]["id"] for b in bodies] == ["k0001", "k0002"]
    assert bodies[0]["query"].startswith("mutation CreateComment(")
    assert listed(run_gqlc, "Comment") == []


def test_generated_ids_are_fixed_before_sending_and_faults_lose_or_duplicate_nothing(schema_examples_dir, tmp_path):
    """Every 7th request fails with 500 and every 11th connection is dropped: each create is retried with the id
    it was first sent with, so there are exactly as many records as lines."""
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, args=("--fail-every", "7", "--drop-every", "11")) as server:
        run_gqlc = runner_for(schema, server.url)
        records = [{"content": f"no id {i}", "postId": "p1"} for i in range(150)]
        run = run_gqlc("--retries", "5", "create", "Comment", "--input", "-", "--concurrency", "8", stdin=ndjson(records))
        assert run.code == 0, run
        printed = run.ndjson()
        assert [p["content"] for p in printed] == [r["content"] for r in records]
        # Count through a clean connection: the listing itself is retried by gqlc.
        stored = listed(runner_for(schema, server.url, "--retries", "8"), "Comment")
        assert len(stored) == 150 and len({s["id"] for s in stored}) == 150
        assert sorted(s["id"] for s in stored) == sorted(p["id"] for p in printed)


def test_a_create_whose_answer_was_lost_counts_as_done_when_the_retry_finds_it_made(schema_examples_dir):
    """Every 5th request is carried out but its answer lost: gqlc's retry meets "already exists", which after a
    retry of its own means the first attempt made it. Done, printed as stored, never a failure or a duplicate."""
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, args=("--lose-answer-every", "5")) as server:
        run_gqlc = runner_for(schema, server.url)
        records = [{"content": f"lost answer {i}", "postId": "p1"} for i in range(40)]
        run = run_gqlc("--retries", "5", "create", "Comment", "--input", "-", "--concurrency", "4", stdin=ndjson(records))
        assert run.code == 0 and summary(run) == (40, "created", 0), run
        printed = run.ndjson()
        assert [p["content"] for p in printed] == [r["content"] for r in records]
        stored = listed(runner_for(schema, server.url, "--retries", "5"), "Comment")
        assert sorted(s["id"] for s in stored) == sorted(p["id"] for p in printed)
        assert {s["content"] for s in stored} == {r["content"] for r in records}


@pytest.mark.slow
def test_throttling_slows_every_worker_and_the_job_still_finishes(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, args=("--throttle-every", "5")) as server:
        run_gqlc = runner_for(schema, server.url)
        records = [comment(i) for i in range(60)]
        run = run_gqlc("--retries", "8", "create", "Comment", "--input", "-", "--concurrency", "8", stdin=ndjson(records))
        assert run.code == 0 and summary(run) == (60, "created", 0), run
        assert len(listed(runner_for(schema, server.url, "--retries", "8"), "Comment")) == 60


def test_update_input_each_record_carries_its_key(blog):
    listing = blog("list", "Comment", "--where", "post=p1", "--output", "ndjson")
    assert listing.code == 0
    run = blog("update", "Comment", "--input", "-", "likes=0", stdin=listing.stdout)
    assert run.code == 0, run
    assert [r["likes"] for r in run.ndjson()] == [0] * len(listing.ndjson())
    assert summary(run)[:2] == (len(listing.ndjson()), "updated")
    missing = blog("update", "Comment", "--input", "-", stdin='{"id": "nope", "likes": 1}\n{"likes": 2}\n')
    assert missing.code == 1, missing
    assert missing.stderr_lines[0] == "gqlc: <stdin>:1: no Comment with key id=nope", missing
    assert missing.stderr_lines[1].startswith("gqlc: <stdin>:2: "), missing


def test_delete_input_takes_records_keys_and_bare_ids(blog):
    before = listed(blog, "Comment")
    text = json.dumps(before[0]) + "\n" + json.dumps({"id": before[1]["id"]}) + "\n" + json.dumps(before[2]["id"]) + "\n"
    run = blog("delete", "Comment", "--input", "-", stdin=text)
    assert run.code == 0 and [r["id"] for r in run.ndjson()] == [b["id"] for b in before[:3]], run
    assert len(listed(blog, "Comment")) == len(before) - 3


def test_delete_where_dry_run_prints_the_count_and_keys(blog):
    run = blog("--dry-run", "delete", "Comment", "--where", "post=p1")
    assert run.code == 0, run
    keys = run.ndjson()
    expected = [c["id"] for c in listed(blog, "Comment") if c["postId"] == "p1"]
    assert [k["id"] for k in keys] == expected and all(set(k) == {"id"} for k in keys)
    assert run.stderr_lines == [f"would delete {len(expected)} Comment records; nothing was deleted (--dry-run)"]


def test_delete_where_needs_yes_without_a_terminal_and_deletes_with_it(blog):
    before = len(listed(blog, "Comment"))
    refused = blog("delete", "Comment", "--where", "post=p1", stdin="y\n")
    assert refused.code == 2 and refused.stdout == "", refused
    assert refused.stderr_lines == [
        "gqlc: 4 Comment records match; pass --yes to delete them (standard input is not a terminal, so gqlc cannot ask)"]
    assert len(listed(blog, "Comment")) == before
    run = blog("delete", "Comment", "--where", "post=p1", "--filter", '{"likes": {"ge": 0}}', "--yes")
    assert run.code == 0 and len(run.ndjson()) == 4 and summary(run) == (4, "deleted", 0), run
    assert all(c["postId"] != "p1" for c in listed(blog, "Comment"))
    none = blog("delete", "Comment", "--where", "post=p1", "--yes")
    assert none.code == 0 and none.stderr_lines == ["no Comment records match; nothing to delete"], none


def test_usage_errors(blog):
    run = blog("delete", "Comment", "--id", "c1", "--where", "post=p1")
    assert run.code == 2 and "cannot be used together" in run.stderr, run
    run = blog("create", "Comment", "--input", "-", "--concurrency", "0", stdin="")
    assert run.code == 2 and "--concurrency" in run.stderr, run


def test_ctrl_c_prints_what_finished_reports_what_was_in_flight_and_rejects_hold_the_rest(schema_examples_dir, tmp_path):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, args=("--latency-ms", "150")) as server:
        source = tmp_path / "in.ndjson"
        records = [comment(i) for i in range(60)]
        source.write_text(ndjson(records))
        rejects = tmp_path / "rejects.ndjson"
        args = ["--schema", schema, "--endpoint", server.url, "create", "Comment", "--input", source,
                "--concurrency", "2", "--rejects", rejects]
        process = subprocess.Popen([str(GQLC_BIN), *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=gqlc_env())
        first = process.stdout.readline()  # wait for a record to be done
        assert first, process.stderr.read()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
        rest, stderr = process.stdout.read(), process.stderr.read()
        assert process.returncode == 130, stderr
        done = [json.loads(first)] + [json.loads(line) for line in rest.decode().splitlines()]
        stderr_lines = stderr.decode().splitlines()
        assert "interrupted in flight" in stderr_lines[-1] or "not sent" in stderr_lines[-1], stderr_lines
        left = [json.loads(line) for line in rejects.read_text().splitlines()]
        assert sorted(r["id"] for r in done + left) == sorted(r["id"] for r in records)
        # Re-running on the rejects finishes the job, in-flight records that were applied included.
        rerun = runner_for(schema, server.url)("create", "Comment", "--input", rejects)
        assert rerun.code == 0, rerun
        assert len(listed(runner_for(schema, server.url), "Comment")) == 60


@pytest.mark.parametrize("fixture", FIXTURES)
def test_list_ndjson_then_create_input_recreates_every_model(fixture, repo_root, shared_fixtures_dir, tmp_path):
    schema = shared_fixtures_dir / fixture[len("SHARED/"):] if fixture.startswith("SHARED/") else repo_root / fixture
    mis = _mis(schema)
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps(_seed(mis)))
    with start_server(schema, seed=seed) as source, start_server(schema) as target:
        from_source, into_target = runner_for(schema, source.url), runner_for(schema, target.url)
        for name, model in mis["models"].items():
            exported = from_source("list", name, "--output", "ndjson")
            if exported.code != 0:
                continue  # a model without a list query (disabled operations)
            records = exported.ndjson()
            assert len(records) == 2, (name, exported)
            run = into_target("create", name, "--input", "-", stdin=exported.stdout)
            assert run.code == 0, (name, run)
            copied = {json.dumps(r, sort_keys=True) for r in listed(into_target, name)}
            read_only = {f for f, d in model["fields"].items() if d.get("isReadOnly")}

            def kept(record):
                return json.dumps({k: v for k, v in record.items() if k not in read_only}, sort_keys=True)

            assert {kept(json.loads(c)) for c in copied} == {kept(r) for r in records}, name


def test_cascade_dry_run_prints_the_tree_with_counts_and_deletes_nothing(blog):
    comments = [c for c in listed(blog, "Comment")]
    posts = [p for p in listed(blog, "Post") if p["blogId"] == "b1"]
    under = [c for c in comments if c["postId"] in {p["id"] for p in posts}]
    run = blog("--dry-run", "delete", "Blog", "--id", "b1", "--cascade")
    assert run.code == 0, run
    assert run.stdout.splitlines() == ["Blog id=b1", f"  posts: {len(posts)} Post", f"    comments: {len(under)} Comment"]
    total = 1 + len(posts) + len(under)
    assert run.stderr_lines == [f"would delete {total} records; nothing was deleted (--dry-run)"]
    assert len(listed(blog, "Comment")) == len(comments)


def test_cascade_deletes_children_first_through_every_page_then_the_parent(schema_examples_dir, tmp_path):
    # The listing reads a page of 1000 records (the default) and filters it after (as AppSync does), so 1000
    # comments of another post seeded between p1's own put p1's last children on the second page. Seeded, not
    # created through gqlc: the point is the paging, and a thousand creates and deletes only made the test slow.
    seed = json.loads((schema_examples_dir / "blog-seed.json").read_text())
    seed["Comment"] += [comment(i, post="p2") for i in range(1000)]
    late = [{**comment(i), "id": f"late{i}"} for i in range(5)]
    seed["Comment"] += late
    (tmp_path / "seed.json").write_text(json.dumps(seed))
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, seed=tmp_path / "seed.json") as server:
        blog = runner_for(schema, server.url)
        pages = blog("--verbose", "list", "Comment", "--where", "postId=p1", "--fields", "id", "--output", "ndjson")
        assert [line for line in pages.stderr_lines if line.startswith("* page ")] == [
            "* page 1: 4 items, more to come", "* page 2: 5 items, last page"], pages
        refused = blog("delete", "Post", "--id", "p1", "--cascade")
        assert refused.code == 2 and "pass --yes" in refused.stderr, refused
        run = blog("delete", "Post", "--id", "p1", "--cascade", "--yes")
        assert run.code == 0, run
        assert run.json()["id"] == "p1"
        assert run.stderr_lines == ["deleted 10 records: 9 Comment, 1 Post"], run
        remaining = listed(blog, "Comment")
        assert not any(c["postId"] == "p1" for c in remaining)
        assert len([c for c in remaining if c["postId"] == "p2"]) == 1002
        assert blog("get", "Post", "--id", "p1").code == 4


def test_cascade_deletes_many_to_many_join_records_but_not_the_other_side(schema_examples_dir):
    schema = schema_examples_dir / "tags.json"
    with start_server(schema, seed=schema_examples_dir / "tags-seed.json") as server:
        run_gqlc = runner_for(schema, server.url)
        joins = [j for j in listed(run_gqlc, "ArticleTags") if j["articleId"] == "article-swift"]
        assert joins
        tags = listed(run_gqlc, "Tag")
        run = run_gqlc("delete", "Article", "--id", "article-swift", "--cascade", "--yes")
        assert run.code == 0, run
        assert not any(j["articleId"] == "article-swift" for j in listed(run_gqlc, "ArticleTags"))
        assert listed(run_gqlc, "Tag") == tags


def test_deleting_a_parent_without_cascade_warns_about_orphans(blog):
    run = blog("delete", "Post", "--id", "p2")
    assert run.code == 0 and run.json()["id"] == "p2", run
    assert run.stderr_lines == [
        "gqlc: warning: Comment records (Post.comments) are left pointing at the deleted Post id=p2; "
        "--cascade deletes them with it"], run
    quiet = blog("delete", "Comment", "--id", "c1")
    assert quiet.code == 0 and quiet.stderr == "", quiet


def test_bulk_deletes_warn_about_orphans_once_summed_per_association(blog):
    # Posts p1 and p2 have comments (the seed's c1…c6); their deletes by --input warn once for both.
    run = blog("delete", "Post", "--input", "-", stdin='{"id": "p1"}\n{"id": "p2"}\n')
    assert run.code == 0 and summary(run) == (2, "deleted", 0), run
    assert run.stderr_lines[:-1] == [
        "gqlc: warning: Comment records (Post.comments) are left pointing at 2 of the 2 deleted Post records; "
        "delete Post --cascade deletes a record with them"], run
    # Blog b2's posts point at it; deleting it by --where warns the same way, and comments have nothing under them.
    by_where = blog("delete", "Blog", "--where", "id=b2", "--yes")
    assert by_where.code == 0 and by_where.stderr_lines[:-1] == [
        "gqlc: warning: Post records (Blog.posts) are left pointing at 1 of the 1 deleted Blog records; "
        "delete Blog --cascade deletes a record with them"], by_where
    quiet = blog("delete", "Comment", "--input", "-", stdin='{"id": "c7"}\n{"id": "c8"}\n')
    assert quiet.code == 0 and len(quiet.stderr_lines) == 1, quiet


def test_a_bulk_delete_of_more_than_100_records_says_orphans_were_not_checked(blog):
    posts = "".join(json.dumps({"id": f"bulk{i}", "blogId": "b1", "title": "bulk"}) + "\n" for i in range(101))
    assert blog("create", "Post", "--input", "-", stdin=posts).code == 0
    run = blog("delete", "Post", "--where", "title=bulk", "--yes")
    assert run.code == 0 and summary(run) == (101, "deleted", 0), run
    assert run.stderr_lines[:-1] == [
        "gqlc: warning: records that pointed at the 101 deleted Post records were not checked (more than 100: one "
        "query per record and association); gqlc delete Post --id ID --cascade --dry-run shows what one record has"], run


def test_cascade_of_a_missing_record_is_status_4(blog):
    run = blog("delete", "Post", "--id", "nope", "--cascade", "--yes")
    assert (run.code, run.stdout) == (4, ""), run
    assert run.stderr_lines == ["gqlc: no Post with key id=nope"]


def test_cascade_deletes_a_gen1_has_one_child_whose_key_the_parent_holds(project_fixtures_dir, tmp_path):
    schema = project_fixtures_dir / "gen1-conventions.mis.json"
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps({
        "Author": [{"authorId": "a1", "name": "Ann", "authorProfileProfileId": "pr1", "authorProfileHandle": "ann"}],
        "Profile": [{"profileId": "pr1", "handle": "ann", "bio": "hi"}, {"profileId": "pr2", "handle": "bob"}]}))
    with start_server(schema, seed=seed) as server:
        run_gqlc = runner_for(schema, server.url)
        plan = run_gqlc("--dry-run", "delete", "Author", "--key", "authorId=a1", "--key", "name=Ann", "--cascade")
        assert plan.code == 0 and plan.stdout.splitlines() == ["Author authorId=a1, name=Ann", "  profile: 1 Profile"], plan
        run = run_gqlc("delete", "Author", "--key", "authorId=a1", "--key", "name=Ann", "--cascade", "--yes")
        assert run.code == 0 and run.stderr_lines == ["deleted 2 records: 1 Profile, 1 Author"], run
        assert [p["profileId"] for p in listed(run_gqlc, "Profile")] == ["pr2"]


def test_deleting_a_customer_warns_about_its_cart_and_cascade_deletes_it(shared_fixtures_dir, tmp_path):
    """The issue's own case on Amplify's Gen 2 cart/customer schema: a hasOne whose child holds the key."""
    schema = shared_fixtures_dir / "gen2-cart-customer.amplify_outputs.json"
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps({
        "Customer": [{"id": "c1", "name": "Ann"}, {"id": "c2", "name": "Bob"}, {"id": "c3", "name": "Cy"}],
        "Cart": [{"id": "k1", "items": ["tea"], "customerId": "c1"}, {"id": "k2", "items": ["tea"], "customerId": "c2"},
                 {"id": "k3", "items": ["tea"], "customerId": "c3"}]}))
    with start_server(schema, seed=seed, record_requests=True) as server:
        run_gqlc = runner_for(schema, server.url)
        plain = run_gqlc("delete", "Customer", "--id", "c3")
        assert plain.code == 0 and plain.stderr_lines == [
            "gqlc: warning: Cart records (Customer.activeCart) are left pointing at the deleted Customer id=c3; "
            "--cascade deletes them with it"], plain
        # The warning costs one query, stopped at the first match as `--limit 1` stops (a page of the usual size:
        # AppSync filters after reading `limit` records), asking for the key fields only.
        delete, orphan_query = [json.loads(request["body"]) for request in server.requests()]
        assert delete["query"].startswith("mutation DeleteCustomer")
        assert orphan_query["variables"] == {"filter": {"customerId": {"eq": "c3"}}, "limit": 1000}, orphan_query
        assert "{ items { id __typename } nextToken }" in " ".join(orphan_query["query"].split()), orphan_query
        plan = run_gqlc("--dry-run", "delete", "Customer", "--id", "c1", "--cascade")
        assert plan.code == 0 and plan.stdout.splitlines() == ["Customer id=c1", "  activeCart: 1 Cart"], plan
        run = run_gqlc("delete", "Customer", "--id", "c1", "--cascade", "--yes")
        assert run.code == 0 and run.stderr_lines == ["deleted 2 records: 1 Cart, 1 Customer"], run
        assert sorted(c["id"] for c in listed(run_gqlc, "Cart")) == ["k2", "k3"]


def test_cascade_planning_asks_for_key_fields_only(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, seed=schema_examples_dir / "blog-seed.json", record_requests=True) as server:
        run = runner_for(schema, server.url)("--dry-run", "delete", "Blog", "--id", "b1", "--cascade")
        assert run.code == 0, run
        documents = sent_documents(server)
    assert documents[:3] == [
        "query GetBlog($id: ID!) { getBlog(id: $id) { id __typename } }",
        "query ListPosts($filter: ModelPostFilterInput, $limit: Int) "
        "{ listPosts(filter: $filter, limit: $limit) { items { id __typename } nextToken } }",
        "query ListComments($filter: ModelCommentFilterInput, $limit: Int) "
        "{ listComments(filter: $filter, limit: $limit) { items { id __typename } nextToken } }"]
    assert len(documents) == 5 and set(documents[3:]) == {documents[2]}  # one listing of comments per post


def test_cascade_planning_asks_a_gen1_parent_for_the_child_key_it_holds(project_fixtures_dir, tmp_path):
    schema = project_fixtures_dir / "gen1-conventions.mis.json"
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps({
        "Author": [{"authorId": "a1", "name": "Ann", "authorProfileProfileId": "pr1", "authorProfileHandle": "ann"}],
        "Profile": [{"profileId": "pr1", "handle": "ann", "bio": "hi"}]}))
    with start_server(schema, seed=seed, record_requests=True) as server:
        run = runner_for(schema, server.url)(
            "--dry-run", "delete", "Author", "--key", "authorId=a1", "--key", "name=Ann", "--cascade")
        assert run.code == 0 and run.stdout.splitlines()[1:] == ["  profile: 1 Profile"], run
        # The author's key, and the profile's key it holds (which finds the profile); the profile's key only.
        assert sent_documents(server) == [
            "query GetAuthor($authorId: ID!, $name: String!) { getAuthor(authorId: $authorId, name: $name) "
            "{ authorId name authorProfileHandle authorProfileProfileId __typename } }",
            "query GetProfile($handle: String!, $profileId: ID!) { getProfile(handle: $handle, profileId: $profileId) "
            "{ profileId handle __typename } }"]


def test_if_is_refused_on_a_bulk_update_rather_than_ignored(blog):
    run = blog("update", "Comment", "--input", "-", "--if", "likes>0", stdin='{"id": "c1", "likes": 1}\n')
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == ["gqlc: option '--if' needs --id or --key: it is the condition of one update"], run
