"""Load a model-introspection schema (MIS) and resolve it into server-side model definitions.

Accepted file forms (the same as gqlc's loader):
- a standalone MIS: ``{"version": 1, "models": …, "enums": …, "nonModels": …}``
- Gen2 ``amplify_outputs.json``: the MIS under ``data.model_introspection``
- legacy ``amplifyconfiguration.json``: the MIS under ``modelIntrospection``

Resolution follows the Amplify transformer v2 conventions: operation names (with ``@model``
overrides), timestamps, implicit owner and foreign-key fields, secondary indexes and the three
association forms (see ``relations``).
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import json
from dataclasses import dataclass, field
from typing import Any

SCALARS = (
    "ID", "String", "Int", "Float", "Boolean", "AWSDate", "AWSTime", "AWSDateTime", "AWSTimestamp",
    "AWSEmail", "AWSURL", "AWSIPAddress", "AWSJSON", "AWSPhone",
)


class SchemaFileError(Exception):
    """A schema file that cannot be used; the message is one human-readable line."""


def did_you_mean(name: str, candidates) -> str:
    """Return ``"; did you mean 'X'?"`` for the closest candidate, or an empty string."""
    matches = difflib.get_close_matches(name, list(candidates), n=1)
    return f"; did you mean '{matches[0]}'?" if matches else ""


def upper_first(text: str) -> str:
    """``post`` → ``Post``."""
    return text[:1].upper() + text[1:]


@dataclass
class Association:
    """A relationship field's ``association`` block."""

    kind: str  # HAS_MANY, HAS_ONE or BELONGS_TO
    associated_with: list[str]
    target_names: list[str]


@dataclass
class FieldDef:
    """One field of a model or non-model type."""

    name: str
    kind: str  # scalar, enum, nonModel or model
    type_name: str
    is_array: bool = False
    is_required: bool = False
    is_array_nullable: bool = True
    is_read_only: bool = False
    server_managed: bool = False  # implicit timestamp/owner field: never in Create/Update inputs
    association: Association | None = None

    @property
    def is_leaf(self) -> bool:
        """Scalar or enum: filterable and stored as a plain attribute."""
        return self.kind in ("scalar", "enum")


@dataclass
class IndexDef:
    """A secondary index: ``fields[0]`` is the partition key, the rest the sort key."""

    name: str
    query_field: str | None
    fields: list[str]


@dataclass
class Relation:
    """How a relationship field finds related items.

    ``pairs`` lists ``(related_field, own_field)``: a related item matches when
    ``related[related_field] == self[own_field]`` for every pair.
    """

    many: bool
    model: str
    pairs: list[tuple[str, str]]


@dataclass
class ModelDef:
    """A resolved ``@model`` type."""

    name: str
    plural: str
    fields: dict[str, FieldDef]
    key_fields: list[str]
    indexes: list[IndexDef] = field(default_factory=list)
    operations: dict[str, str | None] = field(default_factory=dict)
    subscriptions: dict[str, list[str]] = field(default_factory=dict)
    timestamps: dict[str, str] = field(default_factory=dict)  # "createdAt"/"updatedAt" → field name
    owner_fields: list[str] = field(default_factory=list)
    relations: dict[str, Relation] = field(default_factory=dict)
    auth_rules: list[dict] = field(default_factory=list)  # the model-introspection @auth rules, as given

    @property
    def partition_key(self) -> str:
        """The primary key's partition (hash) key field."""
        return self.key_fields[0]

    @property
    def sort_keys(self) -> list[str]:
        """The primary key's sort-key fields, in order (may be empty)."""
        return self.key_fields[1:]

    @property
    def has_custom_key(self) -> bool:
        """True unless the primary key is the default ``id``."""
        return self.key_fields != ["id"]

    @property
    def generates_id(self) -> bool:
        """An ``id: ID`` field is optional on create: the server fills in a UUID."""
        field = self.fields.get("id")
        return field is not None and field.kind == "scalar" and field.type_name == "ID"

    def leaf_fields(self) -> list[FieldDef]:
        """Scalar and enum fields, the ones filter and condition inputs cover."""
        return [f for f in self.fields.values() if f.is_leaf]


@dataclass
class CustomOperation:
    """A custom (non-model) query, mutation or subscription declared in the MIS."""

    name: str
    returns: FieldDef
    arguments: list[FieldDef]


@dataclass
class Schema:
    """Everything the server needs from a MIS."""

    models: dict[str, ModelDef]
    enums: dict[str, list[str]]
    non_models: dict[str, dict[str, FieldDef]]
    inputs: dict[str, list[FieldDef]]
    custom: dict[str, list[CustomOperation]]  # "queries" / "mutations" / "subscriptions"
    conflict_detection: str | None = None  # "optimistic" or "automerge" (``conflicts``); None: off


def load_schema_file(path: str) -> Schema:
    """Read ``path`` in any accepted form and return the resolved schema; an @model ``.graphql`` schema (or a
    folder of them) is read through gqlc's ``schema print --format introspection``."""
    if path.endswith(".graphql") or os.path.isdir(path):
        return resolve_mis(_introspection_from_gqlc(path))
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        raise SchemaFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SchemaFileError(f"{path}: cannot read: {error}") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise SchemaFileError(f"{path}:{error.lineno}:{error.colno}: invalid JSON: {error.msg}") from None
    mis, prefix = extract_mis(document, path)
    try:
        return resolve_mis(mis)
    except SchemaFileError as error:
        raise SchemaFileError(f"{path}: {prefix}{error}") from None


def _introspection_from_gqlc(path: str) -> dict:
    """The model introspection gqlc derives from an @model schema: gqlc is ``$GQLC_BIN``, else on ``PATH``."""
    gqlc = os.environ.get("GQLC_BIN") or shutil.which("gqlc")
    if not gqlc:
        raise SchemaFileError(
            f"{path}: an @model schema is read through gqlc ('gqlc schema print --format introspection'), which was "
            "not found: set GQLC_BIN to the gqlc binary or put gqlc on PATH")
    try:
        completed = subprocess.run([gqlc, "--schema", path, "schema", "print", "--format", "introspection"],
                                   capture_output=True, text=True, timeout=60)
    except OSError as error:
        raise SchemaFileError(f"{path}: cannot run gqlc ({gqlc}): {error}") from None
    if completed.returncode != 0:
        message = completed.stderr.strip().removeprefix("gqlc: ") or f"gqlc exited with status {completed.returncode}"
        raise SchemaFileError(message if message.startswith(path) else f"{path}: {message}")
    return json.loads(completed.stdout)


def extract_mis(document: Any, path: str) -> tuple[dict, str]:
    """Find the MIS inside a config file; return it with the JSON path prefix for messages."""
    if isinstance(document, dict):
        if "models" in document:
            return document, ""
        data = document.get("data")
        if isinstance(data, dict):
            if isinstance(data.get("model_introspection"), dict):
                return data["model_introspection"], "data.model_introspection."
            raise SchemaFileError(
                f"{path}: amplify_outputs.json has no 'data.model_introspection'; "
                "regenerate it with a backend that defines a data schema")
        if isinstance(document.get("modelIntrospection"), dict):
            return document["modelIntrospection"], "modelIntrospection."
    raise SchemaFileError(
        f"{path}: not a model introspection schema; expected a MIS with 'models', an amplify_outputs.json "
        "with 'data.model_introspection', or an amplifyconfiguration.json with 'modelIntrospection'")


def _expect_dict(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise SchemaFileError(f"{where}: expected an object")
    return value


def resolve_mis(mis: dict) -> Schema:
    """Turn a MIS object into a ``Schema`` (raises ``SchemaFileError`` with a JSON path)."""
    raw_models = _expect_dict(mis.get("models"), "models")
    enums = {}
    for key, enum in _expect_dict(mis.get("enums") or {}, "enums").items():
        values = _expect_dict(enum, f"enums.{key}").get("values")
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise SchemaFileError(f"enums.{key}.values: expected a list of strings")
        enums[enum.get("name", key)] = values
    names = _TypeNames(set(raw_models), set(enums), set(_expect_dict(mis.get("nonModels") or {}, "nonModels")),
                       set(_expect_dict(mis.get("inputs") or {}, "inputs")))
    non_models = {
        raw.get("name", key): _parse_fields(_expect_dict(raw, f"nonModels.{key}").get("fields"),
                                            f"nonModels.{key}.fields", names)
        for key, raw in mis.get("nonModels", {}).items()
    }
    inputs = {
        raw.get("name", key): list(_parse_fields(raw.get("attributes"), f"inputs.{key}.attributes", names).values())
        for key, raw in (mis.get("inputs") or {}).items()
    }
    models = {}
    for key, raw in raw_models.items():
        model = _parse_model(_expect_dict(raw, f"models.{key}"), key, names)
        models[model.name] = model
    from .relations import resolve_relations  # local import: relations depends on this module

    resolve_relations(models)
    for model in models.values():
        for index in model.indexes:
            for index_field in index.fields:
                model.fields.setdefault(index_field, FieldDef(index_field, "scalar", "ID"))
    custom = {}
    for group in ("queries", "mutations", "subscriptions"):
        operations = []
        for key, raw in _expect_dict(mis.get(group) or {}, group).items():
            where = f"{group}.{key}"
            returns = _parse_field(_expect_dict(raw, where), raw.get("name", key), where, names)
            arguments = list(_parse_fields(raw.get("arguments") or {}, f"{where}.arguments", names).values())
            operations.append(CustomOperation(returns.name, returns, arguments))
        custom[group] = operations
    return Schema(models, enums, non_models, inputs, custom)


@dataclass
class _TypeNames:
    models: set
    enums: set
    non_models: set
    inputs: set


def _parse_fields(raw: Any, where: str, names: _TypeNames) -> dict[str, FieldDef]:
    fields = {}
    for key, value in _expect_dict(raw, where).items():
        value = _expect_dict(value, f"{where}.{key}")
        # Trust "name" over the map key (custom-operation arguments can differ).
        parsed = _parse_field(value, value.get("name", key), f"{where}.{key}", names)
        fields[parsed.name] = parsed
    return fields


def _parse_field(raw: dict, name: str, where: str, names: _TypeNames) -> FieldDef:
    if not isinstance(name, str) or not name:
        raise SchemaFileError(f"{where}.name: expected a non-empty string")
    kind, type_name = _parse_type(raw.get("type"), f"{where}.type", names)
    association = None
    if "association" in raw:
        association = _parse_association(raw["association"], f"{where}.association")
    return FieldDef(
        name=name, kind=kind, type_name=type_name,
        is_array=bool(raw.get("isArray", False)),
        is_required=bool(raw.get("isRequired", False)),
        is_array_nullable=raw.get("isArrayNullable", True) is not False,
        is_read_only=bool(raw.get("isReadOnly", False)),
        association=association,
    )


def _parse_type(raw: Any, where: str, names: _TypeNames) -> tuple[str, str]:
    if isinstance(raw, str):
        if raw not in SCALARS:
            raise SchemaFileError(f"{where}: unknown scalar '{raw}'{did_you_mean(raw, SCALARS)}")
        return "scalar", raw
    if isinstance(raw, dict) and len(raw) == 1:
        (kind, type_name), = raw.items()
        known = {"model": names.models, "enum": names.enums, "nonModel": names.non_models,
                 "input": names.inputs}.get(kind)
        if known is None:
            raise SchemaFileError(f"{where}: unknown type kind '{kind}'; expected model, enum, nonModel or input")
        if type_name not in known:
            raise SchemaFileError(f"{where}: unknown {kind} '{type_name}'{did_you_mean(str(type_name), known)}")
        return kind, type_name
    raise SchemaFileError(f"{where}: expected a scalar name or an object like {{\"model\": \"Post\"}}")


def _names_list(value: Any, where: str) -> list[str]:
    """Accept the current list form and the older single-string form."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise SchemaFileError(f"{where}: expected a list of field names")


def _parse_association(raw: Any, where: str) -> Association:
    raw = _expect_dict(raw, where)
    kind = raw.get("connectionType")
    if kind not in ("HAS_MANY", "HAS_ONE", "BELONGS_TO"):
        raise SchemaFileError(f"{where}.connectionType: expected HAS_MANY, HAS_ONE or BELONGS_TO, got {kind!r}")
    targets = raw.get("targetNames", raw.get("targetName"))
    return Association(kind, _names_list(raw.get("associatedWith"), f"{where}.associatedWith"),
                       _names_list(targets, f"{where}.targetNames"))


def _parse_model(raw: dict, key: str, names: _TypeNames) -> ModelDef:
    where = f"models.{key}"
    name = raw.get("name", key)
    fields = _parse_fields(raw.get("fields"), f"{where}.fields", names)
    key_info = raw.get("primaryKeyInfo")
    if isinstance(key_info, dict):
        key_fields = [key_info.get("primaryKeyFieldName", "id")] + _names_list(
            key_info.get("sortKeyFieldNames"), f"{where}.primaryKeyInfo.sortKeyFieldNames")
    else:
        key_fields = ["id"]
    for key_field in key_fields:
        if key_field not in fields:
            raise SchemaFileError(
                f"{where}.primaryKeyInfo: key field '{key_field}' is not a field of {name}{did_you_mean(key_field, fields)}")
    properties, indexes, owner_fields, group_fields, auth_rules = {}, [], [], [], []
    for attribute in raw.get("attributes") or []:
        kind, props = attribute.get("type"), attribute.get("properties") or {}
        if kind == "model":
            properties = props
        elif kind == "key" and props.get("name") and props.get("fields"):
            indexes.append(IndexDef(props["name"], props.get("queryField"), list(props["fields"])))
        elif kind == "auth":
            for rule in props.get("rules") or []:
                auth_rules.append(rule)
                if rule.get("allow") == "owner":
                    owner_fields.append(rule.get("ownerField") or "owner")
                if rule.get("allow") == "groups" and rule.get("groupsField"):
                    group_fields.append(rule["groupsField"])
    model = ModelDef(name=name, plural=raw.get("pluralName") or name + "s", fields=fields,
                     key_fields=key_fields, indexes=indexes, auth_rules=auth_rules)
    _apply_model_properties(model, properties)
    _add_implicit_fields(model, owner_fields, group_fields)
    return model


def _apply_model_properties(model: ModelDef, props: dict) -> None:
    """Operation names and timestamps from the ``@model`` arguments (merged over the defaults)."""
    defaults = {
        "queries": {"get": f"get{upper_first(model.name)}", "list": f"list{upper_first(model.plural)}"},
        "mutations": {op: f"{op}{upper_first(model.name)}" for op in ("create", "update", "delete")},
    }
    for group, ops in defaults.items():
        override = props.get(group, {})
        for op, default in ops.items():
            if override is None:
                model.operations[op] = None
            else:
                value = override.get(op, default) if isinstance(override, dict) else default
                model.operations[op] = value if isinstance(value, str) and value else None
    subscriptions = props.get("subscriptions", {})
    if isinstance(subscriptions, dict) and subscriptions.get("level") != "off":
        for op in ("create", "update", "delete"):
            key = "on" + upper_first(op)
            names = subscriptions.get(key, [key + upper_first(model.name)])
            if names and model.operations[op]:
                model.subscriptions[op] = [names] if isinstance(names, str) else list(names)
    timestamps = props.get("timestamps", {})
    if isinstance(timestamps, dict):
        for stamp in ("createdAt", "updatedAt"):
            value = timestamps.get(stamp, stamp)
            if isinstance(value, str) and value:
                model.timestamps[stamp] = value


def _add_implicit_fields(model: ModelDef, owner_fields: list[str], group_fields: list[str]) -> None:
    for stamp in model.timestamps.values():
        if stamp not in model.fields:
            model.fields[stamp] = FieldDef(stamp, "scalar", "AWSDateTime", is_required=True,
                                           is_read_only=True, server_managed=True)
        elif model.fields[stamp].is_read_only:
            model.fields[stamp].is_required = True  # auto-managed timestamps are AWSDateTime!
    for owner in dict.fromkeys(owner_fields):
        model.owner_fields.append(owner)
        if owner not in model.fields:
            model.fields[owner] = FieldDef(owner, "scalar", "String", server_managed=True)
    for group in dict.fromkeys(group_fields):
        if group not in model.fields:
            model.fields[group] = FieldDef(group, "scalar", "String", is_array=True, server_managed=True)
