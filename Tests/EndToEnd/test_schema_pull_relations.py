"""`gqlc schema pull` finds the relations of a pulled API by the transformer's foreign-key names, also Gen 2's
composite ones named after the belongs-to field (`postId` + `postTitle` beside `post: Post3`, whose key is
`(postId, title)`). The API is served by appsync-local from a model introspection written by Amplify's rules (the
`Store`/`StoreShelf` pattern of the project's Gen 2 fixture, renamed so that the model name is not the prefix)."""

from __future__ import annotations

import json

from gqlc_runner import run_gqlc

PUBLIC = [{"type": "auth", "properties": {"rules": [{"allow": "public", "provider": "apiKey",
                                                     "operations": ["create", "update", "delete", "read"]}]}}]


def field(name, type_, required=False, **extra):
    return {"name": name, "isArray": False, "type": type_, "isRequired": required, "attributes": [], **extra}


def timestamps():
    return {"createdAt": field("createdAt", "AWSDateTime", True), "updatedAt": field("updatedAt", "AWSDateTime", True)}


MIS = {
    "version": 1, "enums": {}, "nonModels": {},
    "models": {
        "Post3": {
            "name": "Post3", "pluralName": "Post3s", "syncable": True,
            "fields": {
                "postId": field("postId", "ID", True), "title": field("title", "String", True),
                "comments": {**field("comments", {"model": "Comment3"}), "isArray": True, "isArrayNullable": True,
                             "association": {"connectionType": "HAS_MANY", "associatedWith": ["postId", "postTitle"]}},
                **timestamps()},
            "attributes": [{"type": "model", "properties": {}},
                           {"type": "key", "properties": {"fields": ["postId", "title"]}}, *PUBLIC],
            "primaryKeyInfo": {"isCustomPrimaryKey": True, "primaryKeyFieldName": "postId", "sortKeyFieldNames": ["title"]},
        },
        "Comment3": {
            "name": "Comment3", "pluralName": "Comment3s", "syncable": True,
            "fields": {
                "id": field("id", "ID", True), "content": field("content", "String"),
                "postId": field("postId", "ID"), "postTitle": field("postTitle", "String"),
                "post": {**field("post", {"model": "Post3"}),
                         "association": {"connectionType": "BELONGS_TO", "targetNames": ["postId", "postTitle"]}},
                **timestamps()},
            "attributes": [{"type": "model", "properties": {}}, *PUBLIC],
            "primaryKeyInfo": {"isCustomPrimaryKey": False, "primaryKeyFieldName": "id", "sortKeyFieldNames": []},
        },
    },
}
SEED = {"Post3": [{"postId": "p1", "title": "Hello"}, {"postId": "p1", "title": "Other"}],
        "Comment3": [{"id": "c1", "content": "one", "postId": "p1", "postTitle": "Hello"},
                     {"id": "c2", "content": "two", "postId": "p1", "postTitle": "Hello"},
                     {"id": "c3", "content": "other", "postId": "p1", "postTitle": "Other"}]}


def test_pull_finds_composite_foreign_keys_named_after_the_belongs_to_field(start_appsync, tmp_path):
    (tmp_path / "mis.json").write_text(json.dumps(MIS))
    (tmp_path / "seed.json").write_text(json.dumps(SEED))
    server = start_appsync(tmp_path / "mis.json", seed=tmp_path / "seed.json", api_key="da2-relationsKey")
    out = tmp_path / "pulled.json"
    common = ["--endpoint", server.url, "--api-key", "da2-relationsKey"]
    pulled = run_gqlc([*common, "schema", "pull", "--out", out], cwd=tmp_path)
    assert pulled.code == 0, pulled
    assert "no foreign key" not in pulled.stderr, pulled.stderr
    comment = run_gqlc(["--schema", out, "models", "Comment3"], cwd=tmp_path).stdout
    assert "    post → Post3  (belongsTo; key on Comment3: postId, postTitle)" in comment, comment
    # The relation works from the pulled schema: a cascade deletes the post's comments, not the other post's.
    run = run_gqlc(["--schema", out, *common, "delete", "Post3", "--key", "postId=p1", "--key", "title=Hello",
                    "--cascade", "--yes"], cwd=tmp_path)
    assert run.code == 0, run
    assert run.stderr_lines == ["deleted 3 records: 2 Comment3, 1 Post3"], run
    left = run_gqlc(["--schema", out, *common, "list", "Comment3", "--fields", "id"], cwd=tmp_path).json()
    assert [c["id"] for c in left] == ["c3"]
