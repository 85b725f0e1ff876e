"""Generate the SDL the Amplify GraphQL transformer (v2) deploys for a resolved schema.

The output declares the AWS scalars and ``@aws_subscribe`` so that graphql-core can build it
stand-alone; AppSync treats those as built-ins. Layout per model: object type, connection,
filter/condition/subscription-filter inputs, create/update/delete inputs and composite key inputs,
then the Query, Mutation and Subscription roots.
"""

from __future__ import annotations

import re

from .conflicts import METADATA_FIELDS, sync_field
from .mis import FieldDef, ModelDef, Relation, Schema, upper_first
from .relations import child_sort_key

AWS_SCALARS = ("AWSDate", "AWSTime", "AWSDateTime", "AWSTimestamp", "AWSEmail", "AWSJSON", "AWSURL",
               "AWSPhone", "AWSIPAddress")

_SCALAR_FILTER = {"ID": "ID", "Int": "Int", "AWSTimestamp": "Int", "Float": "Float", "Boolean": "Boolean"}

PRELUDE = """\
directive @aws_subscribe(mutations: [String]) on FIELD_DEFINITION

{scalars}

enum ModelSortDirection {{
  ASC
  DESC
}}

enum ModelAttributeTypes {{
  binary
  binarySet
  bool
  list
  map
  number
  numberSet
  string
  stringSet
  _null
}}

input ModelSizeInput {{
  ne: Int
  eq: Int
  le: Int
  lt: Int
  ge: Int
  gt: Int
  between: [Int]
}}
"""

_COMPARE = ("ne", "eq", "le", "lt", "ge", "gt")


def filter_base(field: FieldDef) -> str:
    """``ID``, ``String``, ``Int``, ``Float`` or ``Boolean``: the scalar family used by filter inputs."""
    return _SCALAR_FILTER.get(field.type_name, "String") if field.kind == "scalar" else "String"


def filter_input_name(field: FieldDef) -> str:
    """``ModelStringInput``, ``ModelPostStatusInput``, ``ModelPostStatusListInput`` …"""
    if field.kind == "enum":
        return f"Model{field.type_name}{'List' if field.is_array else ''}Input"
    return f"Model{filter_base(field)}Input"


def key_condition_input_name(field: FieldDef) -> str:
    """Sort-key condition input for one sort-key field; enums and AWS strings use the String form."""
    return f"Model{filter_base(field) if filter_base(field) != 'Boolean' else 'String'}KeyConditionInput"


def is_graphql_name(text: str) -> bool:
    """Whether ``text`` can be part of a GraphQL type name (implicit ``gsi-Post.comments`` names cannot)."""
    return bool(re.fullmatch(r"[_A-Za-z][_0-9A-Za-z]*", text))


def sort_key_argument(fields: list[str]) -> str:
    """Argument name for a sort key: the field itself, or the camelCase join of a composite key."""
    return fields[0] + "".join(upper_first(name) for name in fields[1:])


def composite_key_input_names(model: ModelDef, key_name: str) -> tuple[str, str]:
    """(condition input, key input) for a composite sort key; ``key_name`` is ``Primary`` or an index name."""
    stem = f"Model{model.name}{upper_first(key_name)}"
    return stem + "CompositeKeyConditionInput", stem + "CompositeKeyInput"


def sort_key_condition_type(model: ModelDef, key_name: str, sort_keys: list[str]) -> str:
    """The GraphQL type of the sort-key condition argument."""
    if len(sort_keys) == 1:
        return key_condition_input_name(model.fields[sort_keys[0]])
    return composite_key_input_names(model, key_name)[0]


def render_type(field: FieldDef, base: str | None = None, optional: bool = False) -> str:
    """Field type per MIS rules: ``isRequired`` is the element's, ``isArrayNullable`` the list's."""
    element = (base or field.type_name) + ("!" if field.is_required else "")
    text = f"[{element}]{'' if field.is_array_nullable else '!'}" if field.is_array else element
    return text[:-1] if optional and text.endswith("!") else text


def generate_sdl(schema: Schema) -> str:
    """Return the complete SDL text."""
    blocks = [PRELUDE.format(scalars="\n".join(f"scalar {name}" for name in AWS_SCALARS))]
    blocks += _common_inputs()
    for name, values in schema.enums.items():
        blocks.append(_block("enum", name, values))
        blocks.append(_block("input", f"Model{name}Input", [f"eq: {name}", f"ne: {name}"]))
        blocks.append(_block("input", f"Model{name}ListInput",
                             [f"eq: [{name}]", f"ne: [{name}]", f"contains: {name}", f"notContains: {name}"]))
    for name, fields in schema.non_models.items():
        blocks.append(_block("type", name, [f"{f.name}: {render_type(f)}" for f in fields.values()]))
        blocks.append(_block("input", f"{name}Input", [_input_field(f) for f in fields.values()]))
    for name, fields in schema.inputs.items():
        blocks.append(_block("input", name, [_input_field(f) for f in fields]))
    query, mutation, subscription = [], [], []
    for model in schema.models.values():
        versioned = schema.conflict_detection is not None
        blocks += _model_blocks(model, schema.models, versioned)
        query += _query_fields(model, versioned)
        mutation += _mutation_fields(model)
        subscription += _subscription_fields(model)
    for group, lines in (("queries", query), ("mutations", mutation), ("subscriptions", subscription)):
        for operation in schema.custom.get(group, []):
            arguments = ", ".join(f"{a.name}: {render_type(a)}" for a in operation.arguments)
            lines.append(f"{operation.name}{f'({arguments})' if arguments else ''}: {render_type(operation.returns)}")
    if not query:
        query.append("_empty: String")  # GraphQL needs a non-empty Query type
    blocks.append(_block("type", "Query", query))
    if mutation:
        blocks.append(_block("type", "Mutation", mutation))
    if subscription:
        blocks.append(_block("type", "Subscription", subscription))
    return "\n".join(blocks)


def _block(keyword: str, name: str, lines: list[str]) -> str:
    body = "".join(f"  {line}\n" for line in lines)
    return f"{keyword} {name} {{\n{body}}}\n"


def _common_inputs() -> list[str]:
    blocks = []
    for base in ("String", "ID", "Int", "Float", "Boolean"):
        ops = ["ne", "eq"] if base == "Boolean" else list(_COMPARE)
        lines = [f"{op}: {base}" for op in ops]
        if base in ("String", "ID"):
            lines += [f"contains: {base}", f"notContains: {base}"]
        if base != "Boolean":
            lines.append(f"between: [{base}]")
        if base in ("String", "ID"):
            lines.append(f"beginsWith: {base}")
        subscription_lines = lines + ([f"in: [{base}]", f"notIn: [{base}]"] if base != "Boolean" else [])
        lines += ["attributeExists: Boolean", "attributeType: ModelAttributeTypes"]
        if base in ("String", "ID"):
            lines.append("size: ModelSizeInput")
        blocks.append(_block("input", f"Model{base}Input", lines))
        blocks.append(_block("input", f"ModelSubscription{base}Input", subscription_lines))
        if base != "Boolean":
            key_lines = [f"{op}: {base}" for op in _COMPARE[1:]] + [f"between: [{base}]"]
            if base in ("String", "ID"):
                key_lines.append(f"beginsWith: {base}")
            blocks.append(_block("input", f"Model{base}KeyConditionInput", key_lines))
    return blocks


def _input_field(field: FieldDef, optional: bool = False) -> str:
    base = f"{field.type_name}Input" if field.kind == "nonModel" else None
    return f"{field.name}: {render_type(field, base, optional)}"


def _has_many_field(field: FieldDef, relation: Relation, models: dict[str, ModelDef]) -> str:
    """A hasMany field; a sort-key condition argument comes first when the child key has a sort key."""
    child = models[relation.model]
    key_name, sort_keys = child_sort_key(child, [related for related, _ in relation.pairs])
    usable = len(sort_keys) == 1 or (len(sort_keys) > 1 and is_graphql_name(key_name))
    sort_argument = (f"{sort_key_argument(sort_keys)}: {sort_key_condition_type(child, key_name, sort_keys)}, "
                     if usable else "")
    return (f"{field.name}({sort_argument}filter: Model{child.name}FilterInput, sortDirection: ModelSortDirection, "
            f"limit: Int, nextToken: String): Model{child.name}Connection")


def _model_blocks(model: ModelDef, models: dict[str, ModelDef], versioned: bool = False) -> list[str]:
    name = model.name
    object_lines = []
    for field in model.fields.values():
        relation = model.relations.get(field.name)
        if relation is not None and relation.many:
            object_lines.append(_has_many_field(field, relation, models))
        else:
            object_lines.append(f"{field.name}: {render_type(field)}")
    # Conflict detection: the version metadata on the type and `startedAt` on its connection.
    blocks = [_block("type", name, object_lines + (list(METADATA_FIELDS) if versioned else [])),
              _block("type", f"Model{name}Connection",
                     [f"items: [{name}]!", "nextToken: String"] + (["startedAt: AWSTimestamp"] if versioned else []))]
    leaves = model.leaf_fields()
    for suffix, fields in (("Filter", leaves), ("Condition", [f for f in leaves if f.name not in model.key_fields])):
        input_name = f"Model{name}{suffix}Input"
        lines = [f"{f.name}: {filter_input_name(f)}" for f in fields]
        lines += ["_deleted: ModelBooleanInput"] if versioned else []
        lines += [f"and: [{input_name}]", f"or: [{input_name}]", f"not: {input_name}"]
        blocks.append(_block("input", input_name, lines))
    subscription_filter = f"ModelSubscription{name}FilterInput"
    lines = [f"{f.name}: ModelSubscription{filter_base(f)}Input" for f in leaves]
    blocks.append(_block("input", subscription_filter,
                         lines + [f"and: [{subscription_filter}]", f"or: [{subscription_filter}]"]))
    input_fields = [f for f in model.fields.values()
                    if f.kind != "model" and not f.is_read_only and not f.server_managed]
    # As the transformer: declared timestamps stay in the inputs but optional; the resolver fills them when absent.
    stamps = set(model.timestamps.values())
    create = [(f"{f.name}: ID" if f.name == "id" and model.generates_id else _input_field(f, optional=f.name in stamps))
              for f in input_fields]
    update = [(f"{f.name}: {f.type_name}!" if f.name in model.key_fields else _input_field(f, optional=True))
              for f in input_fields]
    blocks.append(_block("input", f"Create{name}Input", create))
    version = ["_version: Int"] if versioned else []
    blocks.append(_block("input", f"Update{name}Input", update + version))
    blocks.append(_block("input", f"Delete{name}Input",
                         [f"{k}: {model.fields[k].type_name}!" for k in model.key_fields] + version))
    keys = [("Primary", model.sort_keys)] + [(index.name, index.fields[1:]) for index in model.indexes
                                             if is_graphql_name(index.name)]
    for key_name, sort_keys in keys:
        if len(sort_keys) > 1:
            condition, key_input = composite_key_input_names(model, key_name)
            blocks.append(_block("input", key_input, [f"{k}: {model.fields[k].type_name}" for k in sort_keys]))
            blocks.append(_block("input", condition, [f"{op}: {key_input}" for op in _COMPARE[1:]]
                                 + [f"between: [{key_input}]", f"beginsWith: {key_input}"]))
    return blocks


def list_arguments(model: ModelDef, partition_key: str, sort_keys: list[str], key_name: str,
                   required: bool) -> str:
    """Arguments of a key query: partition key, sort-key condition, then paging arguments."""
    parts = [f"{partition_key}: {model.fields[partition_key].type_name}{'!' if required else ''}"]
    if sort_keys:
        parts.append(f"{sort_key_argument(sort_keys)}: {sort_key_condition_type(model, key_name, sort_keys)}")
    parts += ["sortDirection: ModelSortDirection", f"filter: Model{model.name}FilterInput", "limit: Int",
              "nextToken: String"]
    return ", ".join(parts)


def _query_fields(model: ModelDef, versioned: bool = False) -> list[str]:
    name, lines = model.name, []
    if model.operations.get("get"):
        keys = ", ".join(f"{k}: {model.fields[k].type_name}!" for k in model.key_fields)
        lines.append(f"{model.operations['get']}({keys}): {name}")
    if model.operations.get("list"):
        if model.has_custom_key:
            arguments = list_arguments(model, model.partition_key, model.sort_keys, "Primary", required=False)
        else:
            arguments = f"filter: Model{name}FilterInput, limit: Int, nextToken: String"
        lines.append(f"{model.operations['list']}({arguments}): Model{name}Connection")
    if versioned and model.operations.get("list"):
        lines.append(f"{sync_field(model)}(filter: Model{name}FilterInput, limit: Int, nextToken: String, "
                     f"lastSync: AWSTimestamp): Model{name}Connection")
    for index in model.indexes:
        if index.query_field:
            arguments = list_arguments(model, index.fields[0], index.fields[1:], index.name, required=True)
            lines.append(f"{index.query_field}({arguments}): Model{name}Connection")
    return lines


def _mutation_fields(model: ModelDef) -> list[str]:
    lines = []
    for op in ("create", "update", "delete"):
        if model.operations.get(op):
            lines.append(f"{model.operations[op]}(input: {upper_first(op)}{model.name}Input!, "
                         f"condition: Model{model.name}ConditionInput): {model.name}")
    return lines


def _subscription_fields(model: ModelDef) -> list[str]:
    owner_arguments = "".join(f", {owner}: String" for owner in model.owner_fields)
    lines = []
    for op, names in model.subscriptions.items():
        for field_name in names:
            lines.append(f"{field_name}(filter: ModelSubscription{model.name}FilterInput{owner_arguments}): "
                         f"{model.name} @aws_subscribe(mutations: [\"{model.operations[op]}\"])")
    return lines
