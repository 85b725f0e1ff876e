"""--conflict-detection: versioned records, ConflictUnhandled, automerge, soft deletes and sync queries, as AppSync
documents them for a DataStore (conflict detection) API; and nothing of it without the flag."""

from __future__ import annotations

import pytest

from appsync_local.execution import App
from appsync_local.mis import load_schema_file
from appsync_local.sdl import generate_sdl
from harness import start_server
from local_app import FIXTURES, LocalApp

SCHEMA = FIXTURES / "gen1-datastore.mis.json"
ITEM = "sku warehouseId quantity tags note _version _deleted _lastChangedAt"
CREATE = f"mutation($input: CreateStockItemInput!) {{ createStockItem(input: $input) {{ {ITEM} }} }}"
UPDATE = f"mutation($input: UpdateStockItemInput!) {{ updateStockItem(input: $input) {{ {ITEM} }} }}"
DELETE = f"mutation($input: DeleteStockItemInput!) {{ deleteStockItem(input: $input) {{ {ITEM} }} }}"
GET = f"query($sku: String!, $w: ID!) {{ getStockItem(sku: $sku, warehouseId: $w) {{ {ITEM} }} }}"
SYNC = ("query($lastSync: AWSTimestamp, $limit: Int, $nextToken: String) { syncStockItems(lastSync: $lastSync, "
        "limit: $limit, nextToken: $nextToken) { items { sku _version _deleted _lastChangedAt } nextToken startedAt } }")


def versioned_app(mode: str) -> LocalApp:
    schema = load_schema_file(str(SCHEMA))
    schema.conflict_detection = mode
    return LocalApp(App(schema))


@pytest.fixture(params=["optimistic", "automerge"])
def app(request) -> LocalApp:
    return versioned_app(request.param)


def create(app: LocalApp, sku: str = "A-1", **fields) -> dict:
    return app.data(CREATE, {"input": {"sku": sku, "warehouseId": "w1", "quantity": 5, **fields}})["createStockItem"]


def test_without_the_flag_the_schema_has_no_version_metadata():
    sdl = generate_sdl(load_schema_file(str(SCHEMA)))
    assert "_version" not in sdl and "startedAt" not in sdl and "syncStockItems" not in sdl


def test_the_schema_has_the_fields_the_transformer_adds_with_conflict_detection(app):
    sdl = app.app.sdl
    block = sdl[sdl.index("type StockItem {"):]
    block = block[:block.index("}")]
    assert "_version: Int!" in block and "_deleted: Boolean" in block and "_lastChangedAt: AWSTimestamp!" in block
    assert "startedAt: AWSTimestamp" in sdl[sdl.index("type ModelStockItemConnection"):]
    assert ("syncStockItems(filter: ModelStockItemFilterInput, limit: Int, nextToken: String, lastSync: AWSTimestamp): "
            "ModelStockItemConnection") in sdl
    for name in ("UpdateStockItemInput", "DeleteStockItemInput"):
        block = sdl[sdl.index(f"input {name} {{"):]
        assert "_version: Int\n" in block[:block.index("}")]


def test_create_starts_at_version_1_and_an_update_with_it_moves_to_2(app):
    created = create(app)
    assert created["_version"] == 1 and created["_deleted"] is None and created["_lastChangedAt"] > 0
    updated = app.data(UPDATE, {"input": {"sku": "A-1", "warehouseId": "w1", "quantity": 7, "_version": 1}})
    assert updated["updateStockItem"]["_version"] == 2 and updated["updateStockItem"]["quantity"] == 7
    assert updated["updateStockItem"]["_lastChangedAt"] >= created["_lastChangedAt"]


def test_optimistic_rejects_a_stale_or_missing_version_with_the_servers_record():
    app = versioned_app("optimistic")
    create(app)
    app.data(UPDATE, {"input": {"sku": "A-1", "warehouseId": "w1", "note": "x", "_version": 1}})
    for version in (1, None):
        response = app.run(UPDATE, {"input": {"sku": "A-1", "warehouseId": "w1", "quantity": 9, "_version": version}})
        assert response["data"] == {"updateStockItem": None}
        error, = response["errors"]
        assert error["errorType"] == "ConflictUnhandled"
        assert error["message"] == "Conflict resolver rejects mutation."
        assert error["path"] == ["updateStockItem"] and error["errorInfo"] is None
        assert error["data"]["_version"] == 2 and error["data"]["quantity"] == 5 and error["data"]["note"] == "x"
    assert app.data(GET, {"sku": "A-1", "w": "w1"})["getStockItem"]["quantity"] == 5


def test_automerge_keeps_the_servers_scalars_fills_its_nulls_and_appends_lists():
    # AppSync's documented example: the server's scalar wins, a field the server lacks is taken, lists concatenate.
    app = versioned_app("automerge")
    create(app, tags=["a"])
    app.data(UPDATE, {"input": {"sku": "A-1", "warehouseId": "w1", "quantity": 6, "_version": 1}})
    merged = app.data(UPDATE, {"input": {"sku": "A-1", "warehouseId": "w1", "quantity": 55, "note": "new",
                                         "tags": ["b", "a"], "_version": 1}})["updateStockItem"]
    assert merged["quantity"] == 6 and merged["note"] == "new" and merged["tags"] == ["a", "b", "a"]
    assert merged["_version"] == 3


def test_delete_is_soft_and_needs_the_current_version(app):
    create(app)
    stale = app.run(DELETE, {"input": {"sku": "A-1", "warehouseId": "w1", "_version": 7}})
    assert stale["errors"][0]["errorType"] == "ConflictUnhandled" and stale["errors"][0]["data"]["_version"] == 1
    deleted = app.data(DELETE, {"input": {"sku": "A-1", "warehouseId": "w1", "_version": 1}})["deleteStockItem"]
    assert deleted["_deleted"] is True and deleted["_version"] == 2
    assert app.data(GET, {"sku": "A-1", "w": "w1"})["getStockItem"]["_deleted"] is True
    listed = app.data("{ listStockItems { items { sku _deleted } startedAt } }")["listStockItems"]
    assert listed == {"items": [{"sku": "A-1", "_deleted": True}], "startedAt": None}
    again = app.run(UPDATE, {"input": {"sku": "A-1", "warehouseId": "w1", "quantity": 1, "_version": 2}})
    assert again["errors"][0]["errorType"] == "ConflictUnhandled"


def test_sync_returns_everything_without_last_sync_and_the_changes_since_it_with_it(app):
    create(app, "A-1")
    create(app, "B-2")
    full = app.data(SYNC)["syncStockItems"]
    assert [item["sku"] for item in full["items"]] == ["A-1", "B-2"] and full["startedAt"] > 0
    since = full["startedAt"] + 1
    while app.data(SYNC)["syncStockItems"]["startedAt"] < since:
        pass  # the next millisecond, so that the change below is after `since` and the creates before it
    app.data(DELETE, {"input": {"sku": "B-2", "warehouseId": "w1", "_version": 1}})
    delta = app.data(SYNC, {"lastSync": since})["syncStockItems"]
    assert [(item["sku"], item["_deleted"]) for item in delta["items"]] == [("B-2", True)]


def test_sync_pages_with_next_token(app):
    for number in range(5):
        create(app, f"S-{number}")
    seen, token = [], None
    while True:
        page = app.data(SYNC, {"limit": 2, "nextToken": token})["syncStockItems"]
        seen += [item["sku"] for item in page["items"]]
        token = page["nextToken"]
        if token is None:
            break
    assert seen == [f"S-{number}" for number in range(5)]


def test_the_flag_on_the_command_line_serves_a_versioned_api():
    with start_server(SCHEMA, args=["--conflict-detection", "optimistic"]) as server:
        body = server.graphql(CREATE, {"input": {"sku": "A-1", "warehouseId": "w1"}})
        assert body["data"]["createStockItem"]["_version"] == 1
        body = server.graphql(UPDATE, {"input": {"sku": "A-1", "warehouseId": "w1", "quantity": 2}})
        assert body["errors"][0]["errorType"] == "ConflictUnhandled"
