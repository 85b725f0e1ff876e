"""Gen 1 apps with conflict detection (DataStore tables), against appsync-local --conflict-detection optimistic and
automerge, on a schema with a composite key and a belongs-to (Tests/Fixtures/schemas/gen1-datastore*)."""

from __future__ import annotations

import json

import pytest

from gqlc_runner import run_gqlc, runner_for

KEY = ("--key", "sku=A-1", "--key", "warehouseId=w1")


@pytest.fixture
def mis(project_fixtures_dir):
    return project_fixtures_dir / "gen1-datastore.mis.json"


@pytest.fixture
def gen1_schema(project_fixtures_dir):
    """The Gen 1 project's schema.graphql; its transform.conf.json turns conflict detection on."""
    return project_fixtures_dir / "gen1-datastore" / "amplify" / "backend" / "api" / "shop" / "schema.graphql"


def start(start_appsync, mis, mode):
    return start_appsync(mis, args=("--conflict-detection", mode) if mode else (), record_requests=True)


def sent(server, since=0):
    """The GraphQL bodies the server received after the first ``since``."""
    return [json.loads(request["body"]) for request in server.requests()[since:]]


@pytest.fixture(params=["optimistic", "automerge"])
def shop(request, start_appsync, gen1_schema, mis):
    """gqlc on the Gen 1 project (transform.conf.json) against a server in each conflict-detection mode."""
    server = start(start_appsync, mis, request.param)
    run = runner_for(gen1_schema, server.url)
    run.server, run.mode = server, request.param
    assert run("create", "StockItem", "sku=A-1", "warehouseId=w1", "quantity=5", "tags:=[\"a\"]").code == 0
    return run


def test_models_shows_conflict_detection_from_transform_conf(gqlc, gen1_schema):
    item = gqlc("--schema", gen1_schema, "models", "StockItem")
    assert item.code == 0, item
    assert ("  conflict detection: auto-merge (AUTOMERGE), from transform.conf.json (models.StockItem); "
            "sync query syncStockItems") in item.stdout
    warehouse = gqlc("--schema", gen1_schema, "--output", "json", "models", "Warehouse").json()
    assert warehouse["conflictDetection"] == {"handler": "OPTIMISTIC_CONCURRENCY", "source": "transform.conf.json (project)",
                                              "syncQuery": "syncWarehouses"}


def test_models_without_conflict_detection_says_nothing_of_it(gqlc, mis):
    item = gqlc("--schema", mis, "models", "StockItem")
    assert item.code == 0 and "conflict detection" not in item.stdout
    assert "conflictDetection" not in gqlc("--schema", mis, "--output", "json", "models", "StockItem").json()


def test_get_and_list_select_the_version_fields(shop):
    record = shop("get", "StockItem", *KEY).json()
    assert record["_version"] == 1 and record["_deleted"] is None and record["_lastChangedAt"] > 0
    narrow = shop("list", "StockItem", "--fields", "quantity").json()
    assert narrow == [{"sku": "A-1", "warehouseId": "w1", "quantity": 5, "_version": 1, "_deleted": None,
                       "_lastChangedAt": record["_lastChangedAt"], "__typename": "StockItem"}]


def test_update_without_a_version_reads_it_with_one_get_then_sends_it(shop):
    before = len(shop.server.requests())
    updated = shop("update", "StockItem", *KEY, "quantity=6")
    assert updated.code == 0, updated
    assert updated.json()["quantity"] == 6 and updated.json()["_version"] == 2
    get, update = sent(shop.server, before)
    assert get["query"].startswith("query") and get["variables"] == {"sku": "A-1", "warehouseId": "w1"}
    assert update["variables"]["input"] == {"_version": 1, "quantity": 6, "sku": "A-1", "warehouseId": "w1"}


def test_a_stale_expected_version_is_a_conflict_naming_the_servers_version(shop):
    assert shop("update", "StockItem", *KEY, "note=first").code == 0
    before = len(shop.server.requests())
    stale = shop("update", "StockItem", *KEY, "quantity=9", "note=second", "--expected-version", "1")
    if shop.mode == "optimistic":
        assert stale.code == 1 and stale.stdout == "", stale
        assert stale.stderr_lines == [
            "gqlc: conflict: StockItem with key sku=A-1, warehouseId=w1 was changed by someone else: the server has "
            "_version 2 (1 was sent); it differs in note (server \"first\", sent \"second\"), quantity (server 5, sent 9); "
            "nothing was changed (get it again, or pass --expected-version with the server's version to overwrite)"]
        assert len(sent(shop.server, before)) == 1  # no blind retry
        assert shop("get", "StockItem", *KEY).json()["quantity"] == 5
    else:
        # AppSync's automerge: the server's scalars win; the merged record is printed.
        assert stale.code == 0, stale
        assert stale.json()["quantity"] == 5 and stale.json()["note"] == "first" and stale.json()["_version"] == 3
        assert stale.stderr_lines == [
            "gqlc: note: the server auto-merged this update into _version 3 (1 was sent, someone else had changed the "
            "record): the record printed is the merged one"]


def test_delete_is_soft_hidden_from_list_and_get(shop):
    deleted = shop("delete", "StockItem", *KEY)
    assert deleted.code == 0, deleted
    assert deleted.json()["_deleted"] is True and deleted.json()["_version"] == 2
    assert deleted.stderr_lines == ["gqlc: note: the delete is soft: StockItem with key sku=A-1, warehouseId=w1 stays "
                                    "on the server with _deleted: true (_version 2) until its TTL expires"]
    assert sent(shop.server)[-1]["variables"]["input"] == {"_version": 1, "sku": "A-1", "warehouseId": "w1"}
    assert shop("list", "StockItem").json() == []
    assert shop("list", "StockItem", "--count").stdout == "0\n"
    assert [r["sku"] for r in shop("list", "StockItem", "--include-deleted").json()] == ["A-1"]
    assert shop("list", "StockItem", "--include-deleted", "--count").stdout == "1\n"
    got = shop("get", "StockItem", *KEY)
    assert got.code == 4 and got.stdout == ""
    assert got.stderr.startswith("gqlc: StockItem with key sku=A-1, warehouseId=w1 was deleted at 20")
    assert got.stderr.endswith(" (_version 2); --include-deleted prints it\n")
    assert shop("get", "StockItem", *KEY, "--include-deleted").json()["_deleted"] is True
    again = shop("delete", "StockItem", *KEY)
    assert again.code == 4 and "there is nothing to delete" in again.stderr


def test_paging_is_exact_when_whole_pages_are_deleted(shop):
    for number in range(2, 8):
        assert shop("create", "StockItem", f"sku=S-{number}", "warehouseId=w1").code == 0
    for sku in ("A-1", "S-2", "S-3", "S-4"):
        assert shop("delete", "StockItem", "--key", f"sku={sku}", "--key", "warehouseId=w1").code == 0
    listed = shop("list", "StockItem", "--page-size", "2")
    assert [r["sku"] for r in listed.json()] == ["S-5", "S-6", "S-7"]
    first = shop("list", "StockItem", "--page-size", "2", "--limit", "2")
    assert [r["sku"] for r in first.json()] == ["S-5", "S-6"]
    token = first.stderr_lines[-1].removeprefix("next token: ")
    rest = shop("list", "StockItem", "--page-size", "2", "--next-token", token)
    assert [r["sku"] for r in rest.json()] == ["S-7"], rest
    assert shop("list", "StockItem", "--page-size", "2", "--count").stdout == "3\n"


def test_without_the_flag_nothing_changes(start_appsync, mis):
    server = start(start_appsync, mis, None)
    run = runner_for(mis, server.url)
    assert run("create", "StockItem", "sku=A-1", "warehouseId=w1").code == 0
    before = len(server.requests())
    assert run("update", "StockItem", *KEY, "quantity=2").code == 0
    assert run("delete", "StockItem", *KEY).code == 0
    update, delete = sent(server, before)
    assert "_version" not in update["query"] and update["variables"]["input"] == {"quantity": 2, "sku": "A-1",
                                                                                  "warehouseId": "w1"}
    assert delete["variables"]["input"] == {"sku": "A-1", "warehouseId": "w1"}
    assert run("get", "StockItem", *KEY).code == 4  # a hard delete


def test_schema_pull_discovers_conflict_detection(start_appsync, mis, tmp_path):
    server = start(start_appsync, mis, "optimistic")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert run_gqlc(["--endpoint", server.url, "schema", "pull"], env=env, cwd=tmp_path).code == 0
    shown = run_gqlc(["--endpoint", server.url, "models", "StockItem"], env=env, cwd=tmp_path)
    assert ("  conflict detection: handler not known, from the schema has _version on the type; sync query "
            "syncStockItems") in shown.stdout, shown
    created = run_gqlc(["--endpoint", server.url, "create", "StockItem", "sku=A-1", "warehouseId=w1"], env=env, cwd=tmp_path)
    assert created.code == 0 and created.json()["_version"] == 1, created
    updated = run_gqlc(["--endpoint", server.url, "update", "StockItem", *KEY, "quantity=3"], env=env, cwd=tmp_path)
    assert updated.code == 0 and updated.json()["_version"] == 2, updated


def test_a_setting_says_it_outright(start_appsync, mis):
    server = start(start_appsync, mis, "optimistic")
    run = runner_for(mis, server.url, "--conflict-detection", "optimistic")
    assert run("create", "StockItem", "sku=A-1", "warehouseId=w1").code == 0
    assert run("update", "StockItem", *KEY, "quantity=2").json()["_version"] == 2
    wrong = run_gqlc(["--schema", mis, "--conflict-detection", "maybe", "models"])
    assert wrong.code == 2 and "'--conflict-detection'" in wrong.stderr and "auto, off, on" in wrong.stderr, wrong


# One record more than gqlc's default page size (1,000): the versions are read in 2 list pages, the second through
# the first page's nextToken (2,500 records, 3 pages, proved nothing more and cost 2.5 times the mutations).
BULK = 1001


def seeded_shop(start_appsync, mis, tmp_path, mode, count):
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps({"Warehouse": [{"warehouseId": "w1", "name": "Main"}],
                                "StockItem": [{"sku": f"S-{n:04d}", "warehouseId": "w1", "quantity": n}
                                              for n in range(count)]}))
    server = start_appsync(mis, seed=seed, args=("--conflict-detection", mode), record_requests=True)
    return server, runner_for(mis, server.url, "--conflict-detection", "on")


def operations(bodies):
    """How many requests ran each root field: {"listStockItems": 2, "updateStockItem": 1001}."""
    counted = {}
    for body in bodies:
        root = body["query"].split("{", 2)[1].split("(")[0].strip()
        counted[root] = counted.get(root, 0) + 1
    return counted


@pytest.mark.slow
@pytest.mark.parametrize("mode, then_delete", [("optimistic", True), ("automerge", False)])
def test_bulk_update_and_delete_read_versions_in_pages_not_one_get_per_record(start_appsync, mis, tmp_path, mode,
                                                                               then_delete):
    """The versions are read the same way for either strategy and either write, so the deletes (a thousand more
    requests) run once."""
    server, run = seeded_shop(start_appsync, mis, tmp_path, mode, BULK)
    keys = tmp_path / "keys.ndjson"
    keys.write_text("".join(json.dumps({"sku": f"S-{n:04d}", "warehouseId": "w1"}) + "\n" for n in range(BULK)))
    before = len(server.requests())
    updated = run("update", "StockItem", "--input", keys, "note=checked", timeout=600)
    assert updated.code == 0, updated
    assert operations(sent(server, before)) == {"listStockItems": 2, "updateStockItem": BULK}
    assert all(body["variables"]["input"]["_version"] == 1 for body in sent(server, before)
               if "updateStockItem" in body["query"])
    if not then_delete:
        return
    before = len(server.requests())
    deleted = run("delete", "StockItem", "--where", "warehouseId=w1", "--yes", timeout=600)
    assert deleted.code == 0, deleted
    assert operations(sent(server, before)) == {"listStockItems": 2, "deleteStockItem": BULK}
    assert all(body["variables"]["input"]["_version"] == 2 for body in sent(server, before)
               if "deleteStockItem" in body["query"])
    assert run("list", "StockItem", "--count").stdout == "0\n"
    assert run("list", "StockItem", "--count", "--include-deleted").stdout == f"{BULK}\n"


def test_a_record_changed_between_the_version_read_and_its_write_goes_to_the_rejects(start_appsync, mis, tmp_path):
    server, run = seeded_shop(start_appsync, mis, tmp_path, "optimistic", 3)
    keys = tmp_path / "keys.ndjson"
    # The second line changes S-0000 after the versions were read, so the fourth, sent with the version read, conflicts.
    keys.write_text("".join(json.dumps({"sku": f"S-{n:04d}", "warehouseId": "w1"}) + "\n" for n in (0, 0, 1, 9)))
    rejects = tmp_path / "rejects.ndjson"
    updated = run("update", "StockItem", "--input", keys, "--concurrency", "1", "--rejects", rejects, "note=x")
    assert updated.code == 3, updated
    assert f"{keys}:2: ConflictUnhandled: Conflict resolver rejects mutation. (path: updateStockItem)" in updated.stderr
    assert f"{keys}:4: no StockItem record has this key (none was listed with its _version)" in updated.stderr
    lines = keys.read_text().splitlines()
    assert rejects.read_text().splitlines() == [lines[1], lines[3]]  # the input's own lines, to run again
    assert "getStockItem" not in operations(sent(server))


def test_a_version_read_that_fails_leaves_the_last_runs_rejects_file_as_it_was(start_appsync, mis, tmp_path):
    """Nothing is sent when the versions cannot be read, so the rejects of the run before (to run again) stay; a job
    that starts replaces them with its own."""
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps({"Warehouse": [{"warehouseId": "w1", "name": "Main"}],
                                "StockItem": [{"sku": "S-0001", "warehouseId": "w1", "quantity": 1}]}))
    server = start_appsync(mis, seed=seed, args=("--conflict-detection", "optimistic"), api_key="k1")
    keys = tmp_path / "keys.ndjson"
    keys.write_text(json.dumps({"sku": "S-0001", "warehouseId": "w1"}) + "\n")
    rejects = tmp_path / "rejects.ndjson"
    earlier = '{"sku": "S-0002", "warehouseId": "w1"}\n'
    rejects.write_text(earlier)
    update = ("update", "StockItem", "--input", keys, "--rejects", rejects, "note=x")
    refused = runner_for(mis, server.url, "--conflict-detection", "on", "--api-key", "not-the-key", "--retries", "0")(*update)
    assert refused.code == 5 and "nothing was changed" in refused.stderr, refused
    assert rejects.read_text() == earlier
    updated = runner_for(mis, server.url, "--conflict-detection", "on", "--api-key", "k1")(*update)
    assert updated.code == 0, updated
    assert rejects.read_text() == ""


def test_cascade_deletes_children_at_their_versions_and_skips_soft_deleted_ones(start_appsync, mis, tmp_path):
    server, run = seeded_shop(start_appsync, mis, tmp_path, "optimistic", 3)
    assert run("update", "StockItem", "--key", "sku=S-0001", "--key", "warehouseId=w1", "note=x").code == 0
    assert run("delete", "StockItem", "--key", "sku=S-0002", "--key", "warehouseId=w1").code == 0
    before = len(server.requests())
    cascade = run("delete", "Warehouse", "--id", "w1", "--cascade", "--yes")
    assert cascade.code == 0, cascade
    assert cascade.json()["_deleted"] is True
    deletes = {body["variables"]["input"].get("sku", "w1"): body["variables"]["input"]["_version"]
               for body in sent(server, before) if "delete" in body["query"].split("{", 2)[1]}
    assert deletes == {"S-0000": 1, "S-0001": 2, "w1": 1}
    assert run("list", "StockItem").json() == [] and run("list", "Warehouse").json() == []


def test_sync_since_returns_exactly_the_records_changed_after_the_time(start_appsync, mis, tmp_path):
    server, run = seeded_shop(start_appsync, mis, tmp_path, "automerge", 4)
    first = run("sync", "StockItem", "--output", "ndjson")
    assert first.code == 0, first
    assert [r["sku"] for r in first.ndjson()] == ["S-0000", "S-0001", "S-0002", "S-0003"]
    since = first.stderr_lines[-1].removeprefix("next since: ")
    assert since.isdigit(), first
    assert run("update", "StockItem", "--key", "sku=S-0001", "--key", "warehouseId=w1", "note=changed").code == 0
    assert run("delete", "StockItem", "--key", "sku=S-0003", "--key", "warehouseId=w1").code == 0
    delta = run("sync", "StockItem", "--since", since, "--output", "ndjson")
    assert delta.code == 0, delta
    assert [(r["sku"], r["note"], r["_deleted"]) for r in delta.ndjson()] == [("S-0001", "changed", None),
                                                                            ("S-0003", None, True)]
    assert sent(server)[-1]["variables"]["lastSync"] == int(since)
    later = delta.stderr_lines[-1].removeprefix("next since: ")
    assert int(later) >= int(since)
    assert run("sync", "StockItem", "--since", later, "--where", "warehouseId=w1").json() == []
    narrowed = run("sync", "StockItem", "--since", since, "--where", "quantity=1", "--output", "ndjson")
    assert [r["sku"] for r in narrowed.ndjson()] == ["S-0001"]


def test_sync_of_a_model_without_conflict_detection_is_refused(gqlc, mis):
    refused = gqlc("--schema", mis, "--endpoint", "http://127.0.0.1:9/graphql", "sync", "StockItem")
    assert refused.code == 2 and refused.stderr.startswith("gqlc: StockItem has no conflict detection"), refused
    bad = gqlc("--schema", mis, "--conflict-detection", "on", "sync", "StockItem", "--since", "yesterday")
    assert bad.code == 2 and "invalid value 'yesterday' for '--since'" in bad.stderr, bad
