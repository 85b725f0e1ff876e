"""gqlc snapshot: every model listed through the API into DIR/MODEL.ndjson and DIR/manifest.json.

The records are compared with what the server itself lists; the manifest's format is the one docs/moving-data.md
documents; a snapshot stopped by a failed request resumes without listing complete models again (read from the
second server's request log); a model whose list operation is disabled is named and skipped (status 3).
"""

from __future__ import annotations

import hashlib
import json
import signal

import pytest

from gqlc_runner import run_gqlc
from signals_support import finish, start, wait_for_request, wait_until_trapping

LIST = {
    "Blog": "{ listBlogs(limit: 1000) { items { id name } } }",
    "Comment": "{ listComments(limit: 1000) { items { id postId content } } }",
    "Post": "{ listPosts(limit: 1000) { items { id title blogId } } }",
}


@pytest.fixture
def seeded(start_appsync, schema_examples_dir):
    def start(*args, record_requests=False, schema=None):
        return start_appsync(schema or schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                             args=args, record_requests=record_requests)
    return start


def snapshot(schema, server, *args):
    return run_gqlc(["--schema", schema, "--endpoint", server.url, "snapshot", *map(str, args)])


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_snapshot_writes_every_model_and_the_manifest(seeded, schema_examples_dir, tmp_path):
    server = seeded()
    schema = schema_examples_dir / "blog.json"
    run = snapshot(schema, server, tmp_path / "snap")
    assert run.code == 0, run
    assert run.stderr.splitlines()[-1] == f"snapshot {tmp_path / 'snap'}: 3 models, 19 records"
    manifest = json.loads((tmp_path / "snap" / "manifest.json").read_text())
    assert manifest["format"] == "gqlc-snapshot/1"
    assert manifest["models"] == [
        {"name": "Blog", "file": "Blog.ndjson", "count": 2, "complete": True},
        {"name": "Comment", "file": "Comment.ndjson", "count": 12, "complete": True},
        {"name": "Post", "file": "Post.ndjson", "count": 5, "complete": True},
    ]
    assert manifest["schema"] == {"sha256": hashlib.sha256(schema.read_bytes()).hexdigest()}
    assert manifest["endpoint"] == server.url
    assert len(manifest["takenAt"]) == 20 and manifest["takenAt"].endswith("Z")
    for model, query in LIST.items():
        expected = server.graphql(query)["data"]
        items = next(iter(expected.values()))["items"]
        written = {record["id"]: record for record in lines(tmp_path / "snap" / f"{model}.ndjson")}
        assert sorted(written) == sorted(item["id"] for item in items)
        for item in items:
            assert {name: written[item["id"]][name] for name in item} == item
    # The file holds what 'list --output ndjson' prints, line for line.
    listed = run_gqlc(["--schema", schema, "--endpoint", server.url, "list", "Post", "--output", "ndjson"])
    assert sorted(listed.stdout.splitlines()) == sorted((tmp_path / "snap" / "Post.ndjson").read_text().splitlines())


def test_named_models_only_and_an_existing_snapshot_is_not_overwritten(seeded, schema_examples_dir, tmp_path):
    server = seeded()
    schema = schema_examples_dir / "blog.json"
    assert snapshot(schema, server, tmp_path / "s", "Post").code == 0
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["Post.ndjson", "manifest.json"]
    run = snapshot(schema, server, tmp_path / "s", "Post")
    assert run.code == 2
    assert run.stderr == (f"gqlc: {tmp_path / 's'} already holds a snapshot (manifest.json); pass --resume to finish it, "
                          "or choose another directory\n")
    run = snapshot(schema, server, tmp_path / "t", "Pots")
    assert (run.code, run.stderr) == (2, "gqlc: unknown model 'Pots'; did you mean 'Post'?\n")


def test_a_stopped_snapshot_resumes_without_listing_complete_models_again(seeded, schema_examples_dir, tmp_path):
    schema = schema_examples_dir / "blog.json"
    # The third request (the first page of Post) fails: Blog and Comment are complete, Post is not.
    failing = seeded("--reply-after", "2", "--reply-status", "500")
    run = run_gqlc(["--schema", schema, "--endpoint", failing.url, "--retries", "0", "snapshot", tmp_path / "snap"])
    assert run.code == 5, run
    assert run.stderr.splitlines()[-1] == (f"gqlc: listing Post failed; gqlc snapshot {tmp_path / 'snap'} --resume lists "
                                           "the models not yet complete")
    manifest = json.loads((tmp_path / "snap" / "manifest.json").read_text())
    assert [(m["name"], m["complete"]) for m in manifest["models"]] == [("Blog", True), ("Comment", True), ("Post", False)]

    healthy = seeded(record_requests=True)
    run = snapshot(schema, healthy, tmp_path / "snap", "--resume")
    assert run.code == 0, run
    sent = [json.loads(r["body"])["query"] for r in healthy.requests()]
    assert len(sent) == 1 and "listPosts" in sent[0]
    manifest = json.loads((tmp_path / "snap" / "manifest.json").read_text())
    assert [(m["name"], m["count"], m["complete"]) for m in manifest["models"]] == [
        ("Blog", 2, True), ("Comment", 12, True), ("Post", 5, True)]
    assert len(lines(tmp_path / "snap" / "Post.ndjson")) == 5
    run = snapshot(schema, healthy, tmp_path / "other", "--resume")
    assert (run.code, run.stderr) == (2, f"gqlc: {tmp_path / 'other'} holds no snapshot to resume (no manifest.json)\n")


def test_a_model_that_cannot_be_listed_is_named_and_skipped(seeded, schema_examples_dir, tmp_path):
    introspection = json.loads((schema_examples_dir / "blog.json").read_text())
    introspection["models"]["Comment"]["attributes"][0]["properties"] = {"queries": {"list": None}}
    schema = tmp_path / "no-list.json"
    schema.write_text(json.dumps(introspection))
    server = seeded()
    run = snapshot(schema, server, tmp_path / "snap")
    assert run.code == 3, run
    assert "gqlc: Comment skipped: its list operation is disabled in the schema" in run.stderr_lines
    assert run.stderr.splitlines()[-1] == f"snapshot {tmp_path / 'snap'}: 2 models, 7 records; skipped: Comment"
    manifest = json.loads((tmp_path / "snap" / "manifest.json").read_text())
    assert manifest["models"][1] == {"name": "Comment", "file": "Comment.ndjson", "count": 0, "complete": False,
                                     "skipped": "its list operation is disabled in the schema"}


# MARK: - appsync-local --import and --export-on-exit

@pytest.mark.parametrize("stop_signal", ["SIGTERM", "SIGINT"])
def test_local_server_keeps_its_data_between_runs(start_appsync, schema_examples_dir, tmp_path, stop_signal):
    schema = schema_examples_dir / "blog.json"
    first = start_appsync(schema, seed=schema_examples_dir / "blog-seed.json", args=("--export-on-exit", tmp_path / "kept"))
    created = run_gqlc(["--schema", schema, "--endpoint", first.url, "create", "Post", "id=new1", "title=Kept", "blog=b1"])
    assert created.code == 0, created
    first.process.send_signal(getattr(signal, stop_signal))
    assert first.process.wait(timeout=30) == 0
    manifest = json.loads((tmp_path / "kept" / "manifest.json").read_text())
    assert manifest["format"] == "gqlc-snapshot/1"
    assert {m["name"]: m["count"] for m in manifest["models"]} == {"Blog": 2, "Comment": 12, "Post": 6}

    second = start_appsync(schema, args=("--import", tmp_path / "kept"))
    got = run_gqlc(["--schema", schema, "--endpoint", second.url, "get", "Post", "--id", "new1"])
    assert (got.code, got.json()["title"]) == (0, "Kept")
    # Keys and timestamps are kept as they were.
    p1 = run_gqlc(["--schema", schema, "--endpoint", second.url, "get", "Post", "--id", "p1"]).json()
    assert p1["createdAt"] == "2025-01-12T08:00:00.000Z"
    # A snapshot gqlc took imports too, and gqlc restores what the server exported.
    assert run_gqlc(["--schema", schema, "--endpoint", second.url, "snapshot", tmp_path / "by-gqlc"]).code == 0
    third = start_appsync(schema, args=("--import", tmp_path / "by-gqlc"))
    count = run_gqlc(["--schema", schema, "--endpoint", third.url, "list", "Comment", "--count"])
    assert (count.code, count.stdout) == (0, "12\n")
    empty = start_appsync(schema)
    restored = run_gqlc(["--schema", schema, "--endpoint", empty.url, "restore", tmp_path / "kept"])
    assert restored.code == 0, restored
    assert "Post: 6 restored, 0 skipped, 0 failed" in restored.stderr_lines


def test_local_server_refuses_what_is_not_a_snapshot(schema_examples_dir, tmp_path):
    import subprocess
    import sys
    from harness import SERVER_PATH
    result = subprocess.run([sys.executable, str(SERVER_PATH), "--schema", str(schema_examples_dir / "blog.json"),
                             "--port", "0", "--import", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert f"{tmp_path}/manifest.json: no such file (is {tmp_path} a gqlc snapshot?)" in result.stderr


# MARK: - Ctrl-C and --resume

@pytest.mark.slow
def test_an_interrupted_snapshot_resumes_without_reading_complete_models_again(start_appsync, schema_examples_dir, tmp_path):
    """SIGINT while Comment's second page is on its way (the first is in the slow server's request log): status 130,
    the manifest says Blog is complete and Comment and Post are not; --resume lists Comment and Post only (the
    second server's request log) and leaves the same files as a fresh snapshot."""
    schema = schema_examples_dir / "blog.json"
    seed = json.loads((schema_examples_dir / "blog-seed.json").read_text())
    seed["Comment"] += [{"id": f"x{i:04d}", "postId": "p2", "content": f"comment {i}", "author": "bench", "likes": i % 7}
                        for i in range(2500)]  # three pages of 1,000
    (tmp_path / "seed.json").write_text(json.dumps(seed))
    slow = start_appsync(schema, seed=tmp_path / "seed.json", args=("--latency-ms", "1500"), record_requests=True)
    directory = tmp_path / "snap"
    process = start(["--schema", schema, "--endpoint", slow.url, "snapshot", directory])
    wait_until_trapping(process)
    wait_for_request(process, slow, "listComments")
    process.send_signal(signal.SIGINT)
    code, out, err = finish(process)
    assert (code, out) == (130, ""), err
    assert err.splitlines()[-1] == (f"gqlc: interrupted while listing Comment; manifest.json says which models are "
                                    f"complete: gqlc snapshot {directory} --resume lists the models not yet complete")
    manifest = json.loads((directory / "manifest.json").read_text())
    assert [(m["name"], m["complete"]) for m in manifest["models"]] == [("Blog", True), ("Comment", False), ("Post", False)]
    assert manifest["models"][0]["count"] == 2

    server = start_appsync(schema, seed=tmp_path / "seed.json", record_requests=True)
    run = snapshot(schema, server, directory, "--resume")
    assert run.code == 0, run
    assert run.stderr_lines == ["Blog: 2 records (complete already)", "Comment: 2512 records", "Post: 5 records",
                                f"snapshot {directory}: 3 models, 2519 records"]
    assert not any("listBlogs" in request["body"] for request in server.requests())
    assert sum("listComments" in request["body"] for request in server.requests()) == 3
    assert sum("listPosts" in request["body"] for request in server.requests()) == 1

    fresh = snapshot(schema, server, tmp_path / "fresh")
    assert fresh.code == 0, fresh
    for name in ("Blog.ndjson", "Comment.ndjson", "Post.ndjson"):
        assert (directory / name).read_bytes() == (tmp_path / "fresh" / name).read_bytes(), name
    resumed, taken = (json.loads((path / "manifest.json").read_text()) for path in (directory, tmp_path / "fresh"))
    assert resumed["models"] == taken["models"]
    assert resumed["format"] == taken["format"] and resumed["schema"] == taken["schema"]
