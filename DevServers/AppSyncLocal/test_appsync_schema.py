"""Schema generation: every input form, transformer naming, inputs, keys, overrides, bad files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from graphql import build_schema

from appsync_local.mis import SchemaFileError, load_schema_file, resolve_mis
from appsync_local.sdl import AWS_SCALARS, generate_sdl
from local_app import EXAMPLES
from harness import PROJECT_FIXTURES, SERVER_PATH, SHARED_FIXTURES, clean_env

FIXTURE_FILES = sorted(p.name for p in SHARED_FIXTURES.glob("*.json") if not p.name.endswith(".schema.json"))
EXAMPLE_FILES = sorted(p.name for p in EXAMPLES.glob("*.json") if not p.name.endswith("-seed.json"))


def build(path) -> object:
    return build_schema(generate_sdl(load_schema_file(str(path))))


def signature(schema, type_name: str, field: str) -> str:
    """``(a: T, b: U): R`` of a field, for compact comparisons."""
    definition = schema.type_map[type_name].fields[field]
    arguments = ", ".join(f"{name}: {arg.type}" for name, arg in definition.args.items())
    return f"({arguments}): {definition.type}" if arguments else f": {definition.type}"


def input_fields(schema, type_name: str) -> dict[str, str]:
    return {name: str(value.type) for name, value in schema.type_map[type_name].fields.items()}


@pytest.mark.shared_fixtures
@pytest.mark.parametrize("name", FIXTURE_FILES)
def test_every_shared_fixture_builds_with_graphql_core(name):
    schema = build(SHARED_FIXTURES / name)
    assert schema.query_type is not None and schema.mutation_type is not None


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_every_schema_example_builds(name):
    assert build(EXAMPLES / name).query_type is not None


@pytest.mark.parametrize("name", sorted(p.name for p in PROJECT_FIXTURES.glob("*.json")))
def test_every_project_fixture_builds(name):
    assert build(PROJECT_FIXTURES / name).mutation_type is not None


def test_config_wrappers_of_the_project_fixtures_yield_the_bare_mis_schema():
    for wrapper, bare in (("amplify_outputs.json", "gen2-conventions.mis.json"),
                          ("amplifyconfiguration.json", "gen1-conventions.mis.json")):
        assert generate_sdl(load_schema_file(str(PROJECT_FIXTURES / wrapper))) == \
            generate_sdl(load_schema_file(str(PROJECT_FIXTURES / bare)))


def test_project_fixture_index_query_field_and_custom_operations():
    schema = build(PROJECT_FIXTURES / "gen2-conventions.mis.json")
    assert signature(schema, "Query", "listOrdersByStatus").startswith(
        "(status: OrderStatus!, createdAt: ModelStringKeyConditionInput, ")
    assert signature(schema, "Query", "priceQuote") == "(sku: String!, quantity: Int): Money"
    assert signature(schema, "Mutation", "checkout") == "(shopperId: ID!): Receipt"
    assert input_fields(schema, "CreateShopperInput")["createdAt"] == "AWSDateTime"
    assert str(schema.type_map["Shopper"].fields["createdAt"].type) == "AWSDateTime!"


@pytest.mark.shared_fixtures
def test_config_wrappers_yield_the_same_schema_as_the_bare_mis():
    bare = generate_sdl(load_schema_file(str(SHARED_FIXTURES / "gen2-amplify-data-modeled.mis.json")))
    legacy = generate_sdl(load_schema_file(str(SHARED_FIXTURES / "gen2-amplify-data-modeled.amplifyconfiguration.json")))
    assert bare == legacy
    outputs = load_schema_file(str(SHARED_FIXTURES / "gen2-cart-customer.amplify_outputs.json"))
    assert set(outputs.models) == {"Cart", "Customer"}


@pytest.mark.shared_fixtures
def test_gen1_blog_matches_the_transformed_appsync_sdl():
    """Every field of the real transformer output exists here with the same type and arguments."""
    declarations = "directive @aws_subscribe(mutations: [String]) on FIELD_DEFINITION\n" + "".join(
        f"scalar {name}\n" for name in AWS_SCALARS)
    golden = build_schema(declarations + (SHARED_FIXTURES / "gen1-blog.appsync-sdl.graphql").read_text())
    ours = build(SHARED_FIXTURES / "gen1-blog-hasmany-belongsto.mis.json")
    for type_name in ("Query", "Mutation", "Subscription", "Blog", "Post", "Comment", "ModelPostConnection"):
        for field in golden.type_map[type_name].fields:
            assert signature(ours, type_name, field) == signature(golden, type_name, field), f"{type_name}.{field}"
    for type_name in ("CreatePostInput", "UpdatePostInput", "DeletePostInput", "CreateCommentInput",
                      "ModelStringInput", "ModelIDInput", "ModelIntInput", "ModelFloatInput", "ModelBooleanInput",
                      "ModelSizeInput", "ModelSubscriptionStringInput", "ModelSubscriptionIDInput"):
        assert input_fields(ours, type_name) == input_fields(golden, type_name), type_name
    for type_name in ("ModelPostFilterInput", "ModelPostConditionInput", "ModelSubscriptionPostFilterInput"):
        golden_fields = input_fields(golden, type_name)
        assert golden_fields.items() <= input_fields(ours, type_name).items(), type_name


def test_blog_example_operations_inputs_and_index_query():
    schema = build(EXAMPLES / "blog.json")
    assert signature(schema, "Query", "getPost") == "(id: ID!): Post"
    assert signature(schema, "Query", "listPosts") == \
        "(filter: ModelPostFilterInput, limit: Int, nextToken: String): ModelPostConnection"
    assert signature(schema, "Query", "postsByBlogId") == (
        "(blogId: ID!, title: ModelStringKeyConditionInput, sortDirection: ModelSortDirection, "
        "filter: ModelPostFilterInput, limit: Int, nextToken: String): ModelPostConnection")
    assert signature(schema, "Post", "comments") == ("(filter: ModelCommentFilterInput, sortDirection: "
                                                     "ModelSortDirection, limit: Int, nextToken: String): "
                                                     "ModelCommentConnection")
    assert signature(schema, "Blog", "posts") == (
        "(title: ModelStringKeyConditionInput, filter: ModelPostFilterInput, sortDirection: ModelSortDirection, "
        "limit: Int, nextToken: String): ModelPostConnection")  # the byBlog index sorts by title
    assert signature(schema, "Post", "blog") == ": Blog"
    assert signature(schema, "Post", "createdAt") == ": AWSDateTime!"
    assert signature(schema, "Mutation", "updatePost") == \
        "(input: UpdatePostInput!, condition: ModelPostConditionInput): Post"
    create = input_fields(schema, "CreatePostInput")
    assert create == {"id": "ID", "title": "String!", "content": "String", "status": "PostStatus", "rating": "Int",
                      "views": "Int", "score": "Float", "featured": "Boolean", "publishedOn": "AWSDate",
                      "tags": "[String!]", "metadata": "PostMetadataInput", "blogId": "ID"}
    update = input_fields(schema, "UpdatePostInput")
    assert update["id"] == "ID!" and update["title"] == "String" and "createdAt" not in update
    assert input_fields(schema, "DeletePostInput") == {"id": "ID!"}
    assert input_fields(schema, "PostMetadataInput")["source"] == "SourceInput"
    condition = input_fields(schema, "ModelPostConditionInput")
    assert "id" not in condition and condition["status"] == "ModelPostStatusInput"
    post_filter = input_fields(schema, "ModelPostFilterInput")
    assert post_filter["tags"] == "ModelStringInput" and post_filter["createdAt"] == "ModelStringInput"
    assert post_filter["not"] == "ModelPostFilterInput" and "metadata" not in post_filter
    assert set(input_fields(schema, "ModelPostStatusInput")) == {"eq", "ne"}
    assert "@aws_subscribe(mutations: [\"createPost\"])" in generate_sdl(load_schema_file(str(EXAMPLES / "blog.json")))


def test_composite_primary_key_get_list_and_inputs():
    schema = build(EXAMPLES / "inventory.json")
    assert signature(schema, "Query", "getInventoryItem") == \
        "(sku: String!, warehouseId: ID!, bin: Int!): InventoryItem"
    assert signature(schema, "Query", "listInventoryItems") == (
        "(sku: String, warehouseIdBin: ModelInventoryItemPrimaryCompositeKeyConditionInput, "
        "sortDirection: ModelSortDirection, filter: ModelInventoryItemFilterInput, limit: Int, nextToken: String): "
        "ModelInventoryItemConnection")
    assert input_fields(schema, "ModelInventoryItemPrimaryCompositeKeyInput") == {"warehouseId": "ID", "bin": "Int"}
    assert input_fields(schema, "DeleteInventoryItemInput") == {"sku": "String!", "warehouseId": "ID!", "bin": "Int!"}
    assert input_fields(schema, "UpdateInventoryItemInput")["quantity"] == "Int"
    store = build(PROJECT_FIXTURES / "gen2-conventions.mis.json")
    assert signature(store, "Query", "getStore") == "(region: String!, storeId: ID!): Store"
    assert signature(store, "Query", "listStores").startswith(
        "(region: String, storeId: ModelIDKeyConditionInput, sortDirection: ModelSortDirection, ")


@pytest.mark.shared_fixtures
def test_three_part_primary_key_of_the_shared_references_fixture():
    three_part = build(SHARED_FIXTURES / "gen2-references-cpk-hasmany.mis.json")
    assert signature(three_part, "Query", "listPrimaries").startswith(
        "(tenantId: ID, instanceIdRecordId: ModelPrimaryPrimaryCompositeKeyConditionInput, ")


@pytest.mark.shared_fixtures
def test_secondary_index_query_fields_from_gen2():
    schema = build(SHARED_FIXTURES / "gen2-amplify-data-modeled.mis.json")
    assert signature(schema, "Query", "listByTitle").startswith("(title: String!, sortDirection: ModelSortDirection")
    assert signature(schema, "Query", "listByDescriptionAndViewCount").startswith(
        "(description: String!, viewCount: ModelIntKeyConditionInput, ")
    assert signature(schema, "Query", "enumIndexFieldTest1").startswith(
        "(status: EnumAsIndexPartitionKeyStatus!, title: ModelStringKeyConditionInput, ")
    assert signature(schema, "Query", "enumIndexFieldTest2").startswith(
        "(title: String!, status: ModelStringKeyConditionInput, ")
    # Implicit owner field: on the type and in filters, not in create input.
    assert "owner" in schema.type_map["Todo"].fields
    assert "owner" in input_fields(schema, "ModelTodoFilterInput")
    assert "owner" not in input_fields(schema, "CreateTodoInput")
    assert signature(schema, "Subscription", "onCreateTodo") == \
        "(filter: ModelSubscriptionTodoFilterInput, owner: String): Todo"
    # Custom operations keep their declared arguments ("name" wins over the map key).
    assert signature(schema, "Query", "echoNestedCustomTypes") == "(input: String!): ProductTrackingMeta"
    assert signature(schema, "Mutation", "likePostReturnPost") == "(postId: [ID!]!): Post"


@pytest.mark.shared_fixtures
def test_indexes_without_query_field_expose_no_query():
    schema = build(SHARED_FIXTURES / "gen1-cpk-hasone-hasmany-manytomany.mis.json")
    query_fields = set(schema.query_type.fields)
    assert "listPostTags" in query_fields
    assert not [name for name in query_fields if "byPost" in name or "gsi" in name]


def _blog_mis() -> dict:
    return json.loads((EXAMPLES / "blog.json").read_text())


def _with_model_properties(properties: dict) -> object:
    mis = _blog_mis()
    mis["models"]["Post"]["attributes"][0]["properties"] = properties
    return build_schema(generate_sdl(resolve_mis(mis)))


def test_model_attribute_renames_and_disables_operations():
    schema = _with_model_properties({"queries": {"list": "allPosts"}, "mutations": {"delete": None},
                                     "subscriptions": None})
    assert "allPosts" in schema.query_type.fields and "listPosts" not in schema.query_type.fields
    assert "getPost" in schema.query_type.fields
    assert "deletePost" not in schema.mutation_type.fields and "updatePost" in schema.mutation_type.fields
    assert not [name for name in schema.subscription_type.fields if name.endswith("Post")]
    no_queries = _with_model_properties({"queries": None})
    assert "getPost" not in no_queries.query_type.fields


def test_timestamps_can_be_renamed_or_removed():
    mis = _blog_mis()
    blog = mis["models"]["Blog"]
    blog["attributes"][0]["properties"] = {"timestamps": {"createdAt": "createdOn", "updatedAt": None}}
    del blog["fields"]["createdAt"], blog["fields"]["updatedAt"]
    schema = build_schema(generate_sdl(resolve_mis(mis)))
    assert str(schema.type_map["Blog"].fields["createdOn"].type) == "AWSDateTime!"
    assert "updatedAt" not in schema.type_map["Blog"].fields


def test_has_one_forms_and_undeclared_foreign_keys():
    shop = build(PROJECT_FIXTURES / "gen2-conventions.mis.json")
    assert signature(shop, "Shopper", "basket") == ": Basket"
    mis = _blog_mis()
    del mis["models"]["Comment"]["fields"]["postId"]  # declared only through the associations
    schema = build_schema(generate_sdl(resolve_mis(mis)))
    assert input_fields(schema, "CreateCommentInput")["postId"] == "ID"


@pytest.mark.parametrize("mutate, message", [
    (lambda m: m["models"]["Post"]["fields"]["title"].update(type="Strng"), "unknown scalar 'Strng'; did you mean 'String'?"),
    (lambda m: m["models"]["Post"]["fields"]["blog"].update(type={"model": "Blgo"}), "unknown model 'Blgo'; did you mean 'Blog'?"),
    (lambda m: m["models"]["Post"]["fields"]["status"].update(type={"enum": "Status"}), "unknown enum 'Status'"),
    (lambda m: m["models"]["Post"]["primaryKeyInfo"].update(primaryKeyFieldName="postId"), "key field 'postId'"),
    (lambda m: m["models"]["Post"]["fields"]["blog"].pop("association"), "needs an 'association'"),
    (lambda m: m.pop("models"), "not a model introspection schema"),
])
def test_bad_schemas_give_one_line_errors_with_a_path(tmp_path, mutate, message):
    mis = _blog_mis()
    mutate(mis)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(mis))
    with pytest.raises(SchemaFileError) as caught:
        load_schema_file(str(path))
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert str(caught.value).startswith(str(path))


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SERVER_PATH), *args], capture_output=True, text=True, timeout=30,
                          env=clean_env())


@pytest.mark.shared_fixtures
@pytest.mark.parametrize("name", FIXTURE_FILES)
def test_print_schema_for_every_fixture(name):
    result = run_cli("--schema", str(SHARED_FIXTURES / name), "--print-schema")
    assert result.returncode == 0, result.stderr
    assert build_schema(result.stdout).query_type is not None


@pytest.mark.slow
def test_cli_errors_are_one_line_without_traceback(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"version": 1,\n "models": {,}}')
    outputs = tmp_path / "amplify_outputs.json"
    outputs.write_text('{"version": "1", "data": {"url": "https://x/graphql"}}')
    cases = [(str(broken), f"{broken}:2:13: invalid JSON"), (str(tmp_path / "missing.json"), "no such file"),
             (str(outputs), "has no 'data.model_introspection'")]
    for path, expected in cases:
        result = run_cli("--schema", path)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and expected in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
    bad_seed = tmp_path / "seed.json"
    bad_seed.write_text('{"Psot": []}')
    result = run_cli("--schema", str(EXAMPLES / "blog.json"), "--seed", str(bad_seed), "--port", "0")
    assert result.returncode == 2 and "unknown model; did you mean 'Post'?" in result.stderr


def test_help_lists_every_option():
    result = run_cli("--help")
    assert result.returncode == 0
    for option in ("--schema", "--port", "--seed", "--db", "--api-key", "--print-schema", "--latency-ms",
                   "--fail-every", "--throttle-every", "--drop-every", "--retry-after"):
        assert option in result.stdout
