"""Mutations, conditional writes, AWS scalar validation and the error shapes of resolver failures."""

from __future__ import annotations

import json
import re

import pytest

from appsync_local.errors import CONDITIONAL_CHECK_FAILED
from appsync_local.scalars import check_date, check_datetime, check_ip, check_phone, check_time, check_url
from local_app import EXAMPLES, FIXTURES, app_from_mis, make_app

CREATE = """mutation($input: CreatePostInput!, $condition: ModelPostConditionInput) {
  createPost(input: $input, condition: $condition) { id title status tags metadata { wordCount } createdAt updatedAt } }"""
UPDATE = """mutation($input: UpdatePostInput!, $condition: ModelPostConditionInput) {
  updatePost(input: $input, condition: $condition) { id title rating views updatedAt createdAt } }"""
DELETE = """mutation($input: DeletePostInput!, $condition: ModelPostConditionInput) {
  deletePost(input: $input, condition: $condition) { id title } }"""
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


def assert_condition_failed(response: dict, field: str) -> None:
    assert response["data"] == {field: None}
    error, = response["errors"]
    assert error["errorType"] == CONDITIONAL_CHECK_FAILED
    assert error["message"].startswith("The conditional request failed")
    assert error["path"] == [field] and error["data"] is None and "errorInfo" in error
    assert error["locations"] == [{"line": 2, "column": 3, "sourceName": None}]
    assert "extensions" not in error


def test_create_generates_id_and_timestamps(blog_app):
    created = blog_app.data(CREATE, {"input": {"title": "Fresh", "status": "DRAFT", "tags": ["a"],
                                               "metadata": {"wordCount": 12}}})["createPost"]
    assert re.fullmatch(r"[0-9a-f-]{36}", created["id"])
    assert TIMESTAMP.match(created["createdAt"]) and created["createdAt"] == created["updatedAt"]
    fetched = blog_app.data("query($id: ID!) { getPost(id: $id) { title metadata { wordCount } } }", {"id": created["id"]})
    assert fetched["getPost"] == {"title": "Fresh", "metadata": {"wordCount": 12}}


def test_declared_required_timestamps_are_optional_inputs_filled_when_absent_and_kept_when_sent():
    """Gen 2 introspection can declare ``createdAt``/``updatedAt`` as ``AWSDateTime!``; the transformer still makes
    them optional in ``Create``/``Update`` inputs, fills them when absent and keeps them when sent (a re-import)."""
    app = make_app(FIXTURES / "gen2-conventions.mis.json")
    create = "mutation($input: CreateShopperInput!) { createShopper(input: $input) { id createdAt updatedAt } }"
    update = "mutation($input: UpdateShopperInput!) { updateShopper(input: $input) { createdAt updatedAt } }"
    fresh = app.data(create, {"input": {"id": "s1", "email": "a@example.com"}})["createShopper"]
    assert TIMESTAMP.match(fresh["createdAt"]) and fresh["createdAt"] == fresh["updatedAt"]
    dates = {"createdAt": "2021-04-05T06:07:08.009Z", "updatedAt": "2022-01-02T03:04:05.006Z"}
    kept = app.data(create, {"input": {"id": "s2", "email": "b@example.com", **dates}})["createShopper"]
    assert kept == {"id": "s2", **dates}
    touched = app.data(update, {"input": {"id": "s2", "email": "c@example.com"}})["updateShopper"]
    assert touched["createdAt"] == dates["createdAt"] and touched["updatedAt"] > dates["updatedAt"]
    given = app.data(update, {"input": {"id": "s2", "updatedAt": "2023-01-01T00:00:00.000Z"}})["updateShopper"]
    assert given["updatedAt"] == "2023-01-01T00:00:00.000Z"


def test_create_with_an_existing_key_fails_the_condition(blog_app):
    assert_condition_failed(blog_app.run(CREATE, {"input": {"id": "p2", "title": "Dup"}}), "createPost")
    assert blog_app.data('{ getPost(id: "p2") { title } }')["getPost"]["title"] == "Choosing a first chef's knife"


def test_create_condition_is_evaluated_against_the_missing_item(blog_app):
    failing = {"title": {"eq": "anything"}}
    assert_condition_failed(blog_app.run(CREATE, {"input": {"id": "p-new", "title": "x"}, "condition": failing}),
                            "createPost")
    passing = {"title": {"attributeExists": False}}
    assert blog_app.data(CREATE, {"input": {"id": "p-new", "title": "x"}, "condition": passing})["createPost"]["id"] == "p-new"


def test_update_merges_fields_removes_nulls_and_touches_updated_at(blog_app):
    updated = blog_app.data(UPDATE, {"input": {"id": "p2", "views": 921, "rating": None}})["updatePost"]
    assert updated["views"] == 921 and updated["rating"] is None and updated["title"] == "Choosing a first chef's knife"
    assert updated["createdAt"] == "2025-02-03T12:00:00.000Z" and updated["updatedAt"] > "2025-02-03T12:00:00.000Z"
    missing_rating = {"id": {"eq": "p2"}, "rating": {"attributeExists": False}}
    listed = blog_app.data("query($f: ModelPostFilterInput) { listPosts(filter: $f) { items { id } } }",
                           {"f": missing_rating})
    assert listed["listPosts"]["items"] == [{"id": "p2"}]


def test_update_and_delete_honour_conditions_and_existence(blog_app):
    assert_condition_failed(blog_app.run(UPDATE, {"input": {"id": "post-nope", "title": "x"}}), "updatePost")
    assert_condition_failed(blog_app.run(UPDATE, {"input": {"id": "p2", "title": "x"},
                                                  "condition": {"views": {"gt": 1000}}}), "updatePost")
    ok = blog_app.data(UPDATE, {"input": {"id": "p2", "title": "x"}, "condition": {"views": {"le": 1000}}})
    assert ok["updatePost"]["title"] == "x"
    assert_condition_failed(blog_app.run(DELETE, {"input": {"id": "p2"},
                                                  "condition": {"status": {"eq": "DRAFT"}}}), "deletePost")
    assert blog_app.data(DELETE, {"input": {"id": "p2"}})["deletePost"] == {"id": "p2", "title": "x"}
    assert_condition_failed(blog_app.run(DELETE, {"input": {"id": "p2"}}), "deletePost")
    assert blog_app.data('{ getPost(id: "p2") { id } }') == {"getPost": None}


def test_condition_input_has_no_key_fields(blog_app):
    response = blog_app.run(UPDATE, {"input": {"id": "p2"}, "condition": {"id": {"eq": "p2"}}})
    assert response["data"] is None and "errorType" not in response["errors"][0]


def test_partial_data_keeps_the_fields_that_worked(blog_app):
    response = blog_app.run("""mutation {
  ok: updatePost(input: {id: "p3", views: 1}) { views }
  bad: updatePost(input: {id: "post-nope", views: 1}) { views } }""")
    assert response["data"] == {"ok": {"views": 1}, "bad": None}
    assert [error["path"] for error in response["errors"]] == [["bad"]]


def test_composite_key_mutations(inventory_app):
    key = {"sku": "SKU-100", "warehouseId": "wh-berlin", "bin": 3}
    updated = inventory_app.data("mutation($i: UpdateInventoryItemInput!) { updateInventoryItem(input: $i) { quantity } }",
                                 {"i": {**key, "quantity": 41}})
    assert updated == {"updateInventoryItem": {"quantity": 41}}
    duplicate = inventory_app.run("mutation($i: CreateInventoryItemInput!) { createInventoryItem(input: $i) { sku } }",
                                  {"i": {**key, "quantity": 1}})
    assert duplicate["errors"][0]["errorType"] == CONDITIONAL_CHECK_FAILED
    empty_key = inventory_app.run('mutation { createWarehouse(input: {warehouseId: "", city: "X"}) { city } }')
    assert empty_key["data"] == {"createWarehouse": None} and "empty string" in empty_key["errors"][0]["message"]


AWS_MIS = {
    "version": 1, "enums": {}, "nonModels": {},
    "models": {"Thing": {
        "name": "Thing", "pluralName": "Things", "attributes": [{"type": "model", "properties": {}}],
        "primaryKeyInfo": {"isCustomPrimaryKey": False, "primaryKeyFieldName": "id", "sortKeyFieldNames": []},
        "fields": {name: {"name": name, "type": name, "isArray": False, "isRequired": False}
                   for name in ("ID", "AWSDateTime", "AWSDate", "AWSTime", "AWSTimestamp", "AWSEmail", "AWSJSON",
                                "AWSURL", "AWSPhone", "AWSIPAddress")} | {
            "id": {"name": "id", "type": "ID", "isArray": False, "isRequired": True}},
    }},
}
SCALAR_CASES = [
    ("AWSDateTime", "2025-03-01T12:30:00.123Z", "2025-03-01T12:30:00"),
    ("AWSDateTime", "2025-03-01T12:30+05:30", "2025-02-30T12:30:00Z"),
    ("AWSDate", "2025-03-01", "2025-3-1"),
    ("AWSDate", "1970-01-01-07:00", "2025-03-01T00:00:00Z"),
    ("AWSTime", "23:59:59.999", "24:00:00"),
    ("AWSTime", "12:30Z", "12"),
    ("AWSTimestamp", 1700000000, "1700000000"),
    ("AWSEmail", "ana@example.com", "ana.example.com"),
    ("AWSJSON", '{"a": [1, 2]}', "{not json"),
    ("AWSJSON", "[]", {"a": 1}),
    ("AWSURL", "https://example.com/a?b=c", "example.com/page"),
    ("AWSURL", "mailto:ana@example.com", "https://example.com//double"),
    ("AWSPhone", "+1 (555) 010-1234", "call me"),
    ("AWSIPAddress", "192.168.0.1", "192.168.0.256"),
    ("AWSIPAddress", "2001:db8::1/64", "2001:db8:::1"),
]


@pytest.mark.parametrize("scalar, valid, invalid", SCALAR_CASES)
def test_aws_scalars_are_validated_on_input(scalar, valid, invalid):
    app = app_from_mis(AWS_MIS)
    mutation = f"mutation($v: {scalar}) {{ createThing(input: {{{scalar}: $v}}) {{ {scalar} }} }}"
    created = app.data(mutation, {"v": valid})["createThing"][scalar]
    assert created == valid or (scalar == "AWSJSON" and json.loads(created) == json.loads(valid))
    rejected = app.run(mutation, {"v": invalid})
    assert rejected["data"] is None and scalar in rejected["errors"][0]["message"], rejected
    literal = json.dumps(invalid) if isinstance(invalid, str) else str(invalid).replace("'", "")
    in_document = app.run(f"mutation {{ createThing(input: {{{scalar}: {literal}}}) {{ id }} }}")
    assert in_document["data"] is None and in_document["errors"][0]["message"].startswith("Validation error")


def test_aws_json_is_stored_parsed_and_returned_as_a_string():
    app = app_from_mis(AWS_MIS)
    created = app.data('mutation { createThing(input: {id: "t", AWSJSON: "{\\"b\\": true, \\"n\\": [1]}"}) { AWSJSON } }')
    assert created["createThing"]["AWSJSON"] == '{"b":true,"n":[1]}'
    listed = app.data('{ listThings(filter: {AWSJSON: {attributeType: map}}) { items { id } } }')
    assert listed["listThings"]["items"] == [{"id": "t"}]


def test_scalar_checkers_edge_cases():
    assert check_date("2024-02-29") and not check_date("2023-02-29")
    assert check_time("00:00:00.123456789") and not check_time("12:60")
    assert check_datetime("2025-01-01T00:00:00.1-08:00:00") and not check_datetime("2025-01-01 00:00:00Z")
    assert check_url("ftp://host/file") and not check_url("https://")
    assert check_ip("::1") and not check_ip("localhost")
    assert check_phone("555-0101") and not check_phone("+")


def test_id_is_generated_even_when_the_key_has_a_sort_key():
    mis = json.loads((EXAMPLES / "blog.json").read_text())
    mis["models"]["Post"]["primaryKeyInfo"].update(isCustomPrimaryKey=True, sortKeyFieldNames=["title"])
    app = app_from_mis(mis)
    created = app.data('mutation { createPost(input: {title: "T"}) { id title } }')["createPost"]
    listed = app.data("query($id: ID) { listPosts(id: $id, title: {eq: \"T\"}) { items { title } } }",
                      {"id": created["id"]})
    assert listed["listPosts"]["items"] == [{"title": "T"}]
