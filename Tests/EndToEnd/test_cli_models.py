"""`gqlc models`: the overview (models, enums, embedded types, custom operations), one model's description with
its auth rules, and the machine-readable `--output json|ndjson` forms.

The expectations are read from the model-introspection file itself, not from what gqlc printed before.
"""

from __future__ import annotations

import json

import pytest

from gqlc_runner import run_gqlc
from harness import PROJECT_FIXTURES, SHARED_FIXTURES

GEN2 = PROJECT_FIXTURES / "gen2-conventions.mis.json"
MIS = json.loads(GEN2.read_text())


def models(*args, schema=GEN2):
    run = run_gqlc(["--schema", schema, "models", *args])
    assert (run.code, run.stderr) == (0, ""), run
    return run


def mis_type(field: dict) -> str:
    kind = field["type"]
    return kind if isinstance(kind, str) else next(iter(kind.values()))


def test_json_describes_every_model_enum_embedded_type_and_custom_operation():
    described = models("--output", "json").json()
    assert [m["name"] for m in described["models"]] == sorted(MIS["models"])
    for model in described["models"]:
        source = MIS["models"][model["name"]]
        stored = {name: f for name, f in source["fields"].items() if "model" not in f["type"]}
        assert [(f["name"], f["type"], f["isArray"], f["isRequired"]) for f in model["fields"]] == [
            (name, mis_type(f), f["isArray"], f["isRequired"]) for name, f in stored.items()]
        assert [a["field"] for a in model["associations"]] == [
            name for name, f in source["fields"].items() if "association" in f]
        assert model["primaryKey"] == {"partitionKey": source["primaryKeyInfo"]["primaryKeyFieldName"],
                                       "sortKeys": source["primaryKeyInfo"]["sortKeyFieldNames"]}
        rules = [a["properties"]["rules"] for a in source["attributes"] if a["type"] == "auth"][0]
        assert [{k: v for k, v in r.items() if v is not None} for r in model["authRules"]] == rules
        indexes = [a["properties"] for a in source["attributes"] if a["type"] == "key" and "name" in a["properties"]]
        assert [{k: v for k, v in i.items() if v is not None} for i in model["indexes"]] == indexes
    assert described["enums"] == list(MIS["enums"].values())
    assert [(t["name"], [f["name"] for f in t["fields"]]) for t in described["nonModels"]] == [
        (name, list(t["fields"])) for name, t in sorted(MIS["nonModels"].items())]
    for key in ("queries", "mutations", "subscriptions"):
        assert [(o["name"], o["type"], [(a["name"], a["graphQLType"]) for a in o["arguments"]]) for o in described[key]] \
            == [(name, mis_type(o), [(a["name"], mis_type(a) + ("!" if a["isRequired"] else ""))
                                      for a in o.get("arguments", {}).values()]) for name, o in MIS[key].items()]


def test_json_associations_name_their_foreign_keys_and_the_side_that_holds_them():
    by_name = {m["name"]: m for m in models("--output", "json").json()["models"]}
    assert by_name["Shopper"]["associations"] == [
        {"field": "basket", "kind": "hasOne", "relatedModel": "Basket", "keyHolder": "Basket", "foreignKeys": ["shopperId"]},
        {"field": "orders", "kind": "hasMany", "relatedModel": "Order", "keyHolder": "Order", "foreignKeys": ["shopperId"]}]
    assert by_name["Store"]["associations"][0]["foreignKeys"] == ["storeRegion", "storeStoreId"]
    assert by_name["Order"]["indexes"] == [{"name": "ordersByStatus", "fields": ["status", "createdAt"],
                                            "queryField": "listOrdersByStatus"}]
    assert by_name["Order"]["operations"]["list"] == "listOrders"


def test_one_model_as_json_and_every_model_as_ndjson():
    whole = models("--output", "json").json()
    assert models("Shopper", "--output", "json").json() == next(m for m in whole["models"] if m["name"] == "Shopper")
    assert models("--output", "ndjson").ndjson() == whole["models"]


def test_text_overview_lists_enums_embedded_types_and_custom_operations():
    assert models().stdout.splitlines() == [
        "Basket", "Order", "Shopper", "Store", "StoreShelf", "",
        "enums:", "  OrderStatus  OPEN, PAID, SHIPPED",
        "embedded types:", "  Money    amount: Float!, currency: String!", "  Receipt  orderId: ID!, total: Money",
        "custom queries:", "  priceQuote(sku: String!, quantity: Int): Money",
        "custom mutations:", "  checkout(shopperId: ID!): Receipt",
        "custom subscriptions:", "  onReceipt: Receipt"]


def test_text_model_description_shows_its_auth_rules():
    lines = models("Shopper").stdout.splitlines()
    assert lines[-3:] == ["  auth rules:",
                          "    owner (userPools; ownerField owner; claim cognito:username): create, update, delete, read",
                          "    public (apiKey): create, update, delete, read"]
    blog = models("Post", schema=PROJECT_FIXTURES.parent.parent.parent / "schema-examples" / "blog.json")
    assert blog.stdout.splitlines()[-1] == "  auth rules: none in the schema"


@pytest.mark.shared_fixtures
def test_custom_operations_of_the_real_amplify_data_fixture():
    described = models("--output", "json", schema=SHARED_FIXTURES / "gen2-amplify-data-modeled.mis.json").json()
    echo = next(q for q in described["queries"] if q["name"] == "echoNestedCustomTypes")
    assert [(a["name"], a["graphQLType"]) for a in echo["arguments"]] == [("input", "String!")]
    owner = next(m for m in described["models"] if m["name"] == "Todo")["authRules"][1]
    assert (owner["allow"], owner["ownerField"], owner["identityClaim"]) == ("owner", "owner", "cognito:username")
