"""Filters: every operator on every filter input type, with DynamoDB semantics for missing values.

Seed posts (blog-seed.json), in Scan order:
  p1   PUBLISHED rating 5 views 1840 score 4.8 featured  tags [bread, fermentation] publishedOn 2025-01-12
  p2      PUBLISHED rating 4 views  920 score 4.1           tags [tools]                publishedOn 2025-02-03
  p3       DRAFT     (no rating) views 0 score 0.0           tags []                     (no publishedOn)
  p4  PUBLISHED rating 5 views 3120 score 4.9 featured  tags [alps, multi-day, huts] publishedOn 2025-02-20
  p5 ARCHIVED  rating 3 views  450 score 3.2           tags [gear, winter]         publishedOn 2024-11-30
"""

from __future__ import annotations

import pytest

from appsync_local.errors import DYNAMODB_EXCEPTION
from appsync_local.filters import attribute_type, field_matches, matches

ALL = ["p1", "p2", "p3", "p4", "p5"]
LIST_POSTS = "query($filter: ModelPostFilterInput) { listPosts(filter: $filter) { items { id } nextToken } }"


def ids(app, post_filter) -> list[str]:
    return [item["id"] for item in app.data(LIST_POSTS, {"filter": post_filter})["listPosts"]["items"]]


SHORT_IDS = {"sourdough": "p1", "knives": "p2", "ramen": "p3", "matterhorn": "p4", "winter-gear": "p5"}


def expect(*names: str) -> list[str]:
    return [SHORT_IDS[name] for name in names]


CASES = [
    # ModelIDInput / ModelStringInput
    ({"id": {"eq": "p2"}}, expect("knives")),
    ({"blogId": {"ne": "b1"}}, expect("matterhorn", "winter-gear")),
    ({"title": {"beginsWith": "A"}}, expect("sourdough", "matterhorn")),
    ({"title": {"contains": "gear"}}, expect("winter-gear")),
    ({"title": {"notContains": "e"}}, []),
    ({"content": {"notContains": "draft"}}, expect("sourdough", "knives", "matterhorn", "winter-gear")),
    ({"title": {"lt": "B"}}, expect("sourdough", "matterhorn")),
    ({"title": {"le": "Choosing a first chef's knife"}}, expect("sourdough", "knives", "matterhorn")),
    ({"title": {"gt": "W"}}, expect("ramen", "winter-gear")),
    ({"title": {"ge": "Winter gear checklist"}}, expect("winter-gear")),
    ({"title": {"between": ["B", "Wa"]}}, expect("knives")),
    ({"content": {"size": {"gt": 28}}}, expect("knives", "matterhorn")),
    ({"title": {"size": {"between": [20, 30]}}, "blogId": {"eq": "b1"}}, expect("knives", "ramen")),
    # AWSDate fields use ModelStringInput
    ({"publishedOn": {"ge": "2025-02-01"}}, expect("knives", "matterhorn")),
    ({"publishedOn": {"attributeExists": False}}, expect("ramen")),
    ({"publishedOn": {"attributeExists": True}}, expect("sourdough", "knives", "matterhorn", "winter-gear")),
    ({"publishedOn": {"ne": "2025-01-12"}}, expect("knives", "ramen", "matterhorn", "winter-gear")),
    # ModelIntInput: a missing attribute never equals, so "ne" matches it
    ({"rating": {"eq": 5}}, expect("sourdough", "matterhorn")),
    ({"rating": {"ne": 5}}, expect("knives", "ramen", "winter-gear")),
    ({"rating": {"lt": 5}}, expect("knives", "winter-gear")),
    ({"rating": {"le": 4}}, expect("knives", "winter-gear")),
    ({"views": {"gt": 900}}, expect("sourdough", "knives", "matterhorn")),
    ({"views": {"ge": 920, "le": 1840}}, expect("sourdough", "knives")),
    ({"views": {"between": [0, 450]}}, expect("ramen", "winter-gear")),
    ({"rating": {"attributeType": "number"}}, expect("sourdough", "knives", "matterhorn", "winter-gear")),
    ({"tags": {"attributeType": "list"}}, ALL),
    ({"title": {"attributeType": "number"}}, []),
    # ModelFloatInput
    ({"score": {"gt": 4.5}}, expect("sourdough", "matterhorn")),
    ({"score": {"eq": 0}}, expect("ramen")),
    ({"score": {"between": [3.0, 4.2]}}, expect("knives", "winter-gear")),
    # ModelBooleanInput: only posts that have featured=false match eq false
    ({"featured": {"eq": True}}, expect("sourdough", "matterhorn")),
    ({"featured": {"ne": True}}, expect("knives", "ramen", "winter-gear")),
    # Enum input
    ({"status": {"eq": "PUBLISHED"}}, expect("sourdough", "knives", "matterhorn")),
    ({"status": {"ne": "PUBLISHED"}}, expect("ramen", "winter-gear")),
    # Scalar lists: contains/notContains test membership, size counts elements
    ({"tags": {"contains": "huts"}}, expect("matterhorn")),
    ({"tags": {"contains": "hut"}}, []),
    ({"tags": {"notContains": "tools"}}, expect("sourdough", "ramen", "matterhorn", "winter-gear")),
    ({"tags": {"size": {"eq": 0}}}, expect("ramen")),
    ({"tags": {"size": {"ge": 2}}}, expect("sourdough", "matterhorn", "winter-gear")),
    # and / or / not
    ({"and": [{"status": {"eq": "PUBLISHED"}}, {"rating": {"eq": 5}}]}, expect("sourdough", "matterhorn")),
    ({"or": [{"status": {"eq": "DRAFT"}}, {"status": {"eq": "ARCHIVED"}}]}, expect("ramen", "winter-gear")),
    ({"not": {"status": {"eq": "PUBLISHED"}}}, expect("ramen", "winter-gear")),
    ({"or": [{"and": [{"blogId": {"eq": "b2"}}, {"not": {"rating": {"gt": 3}}}]},
             {"views": {"eq": 0}}]}, expect("ramen", "winter-gear")),
    ({"status": {"eq": "PUBLISHED"}, "blogId": {"eq": "b2"}}, expect("matterhorn")),
    ({}, ALL),
]


@pytest.mark.parametrize("post_filter, expected", CASES, ids=[str(case[0]) for case in CASES])
def test_filter_operator(blog_app, post_filter, expected):
    assert ids(blog_app, post_filter) == expected


def test_filter_on_timestamps_and_nested_has_many(blog_app):
    assert ids(blog_app, {"createdAt": {"lt": "2025-01-01"}}) == expect("winter-gear")
    data = blog_app.data('{ getPost(id: "p4") { comments(filter: {likes: {ge: 9}}) { items { author } } } }')
    assert [c["author"] for c in data["getPost"]["comments"]["items"]] == ["gus", "hana"]


def test_between_needs_two_ordered_bounds(blog_app):
    for bounds in ([5, 1], [1]):
        response = blog_app.run(LIST_POSTS, {"filter": {"rating": {"between": bounds}}})
        assert response["data"] == {"listPosts": None}
        assert response["errors"][0]["errorType"] == DYNAMODB_EXCEPTION
        assert response["errors"][0]["path"] == ["listPosts"]


def test_enum_filter_rejects_unknown_values(blog_app):
    response = blog_app.run(LIST_POSTS, {"filter": {"status": {"eq": "LIVE"}}})
    assert response["data"] is None and "LIVE" in response["errors"][0]["message"]


def test_type_mismatches_and_stored_nulls():
    item = {"n": 5, "s": "5", "z": None, "l": ["a", 1], "m": {"k": 1}, "b": False}
    assert not field_matches(item, "n", {"eq": "5"}) and field_matches(item, "n", {"ne": "5"})
    assert not field_matches(item, "s", {"gt": 1}) and not field_matches(item, "n", {"beginsWith": "5"})
    assert field_matches(item, "z", {"eq": None}) and not field_matches(item, "missing", {"eq": None})
    assert field_matches(item, "z", {"attributeExists": True, "attributeType": "_null"})
    assert field_matches(item, "l", {"contains": 1}) and not field_matches(item, "l", {"contains": "1"})
    assert field_matches(item, "m", {"size": {"eq": 1}}) and not field_matches(item, "n", {"size": {"ge": 0}})
    assert field_matches(item, "b", {"eq": False}) and not field_matches(item, "b", {"eq": 0})
    assert [attribute_type(item[k]) for k in "nszlmb"] == ["number", "string", "_null", "list", "map", "bool"]
    assert matches({"or": [], "and": []}, item) and matches(None, item)
    assert not matches({"not": {"n": {"attributeExists": True}}}, item)


def test_enum_list_filter_input():
    from local_app import app_from_mis

    app = app_from_mis({
        "version": 1, "enums": {"Color": {"name": "Color", "values": ["RED", "BLUE"]}}, "nonModels": {},
        "models": {"Shirt": {"name": "Shirt", "pluralName": "Shirts", "attributes": [{"type": "model", "properties": {}}],
                             "primaryKeyInfo": {"isCustomPrimaryKey": False, "primaryKeyFieldName": "id", "sortKeyFieldNames": []},
                             "fields": {"id": {"name": "id", "type": "ID", "isArray": False, "isRequired": True},
                                        "colors": {"name": "colors", "type": {"enum": "Color"}, "isArray": True,
                                                   "isRequired": True}}}}})
    for colors in (["RED"], ["RED", "BLUE"], []):
        app.data("mutation($c: [Color!]) { createShirt(input: {colors: $c}) { id } }", {"c": colors})
    query = "query($f: ModelShirtFilterInput) { listShirts(filter: $f) { items { colors } } }"

    def colors_of(shirt_filter):
        return [item["colors"] for item in app.data(query, {"f": shirt_filter})["listShirts"]["items"]]

    assert colors_of({"colors": {"contains": "BLUE"}}) == [["RED", "BLUE"]]
    assert colors_of({"colors": {"notContains": "RED"}}) == [[]]
    assert colors_of({"colors": {"eq": ["RED"]}}) == [["RED"]]
    assert colors_of({"colors": {"ne": ["RED"]}}) == [["RED", "BLUE"], []]
