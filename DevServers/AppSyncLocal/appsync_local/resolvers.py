"""Resolvers for model queries, mutations and relationship fields.

Each resolver reads ``info.context``, a ``ResolverContext`` holding the store and the token codec.
Behaviour mirrors the Amplify VTL resolvers on DynamoDB:
- ``get``: GetItem by the full primary key.
- ``list`` without a partition-key argument: Scan in insertion order. With one (custom keys), and
  every index query field: Query on that key, ordered by the sort key, honouring ``sortDirection``.
- ``hasMany`` fields: Query on the child's foreign key(s), ordered by the rest of the child key or
  index that starts with them (with its sort-key condition argument); ``hasOne``/``belongsTo``: lookup.
- ``create``: PutItem with ``attribute_not_exists(key)`` plus ``condition``; ``update``/``delete``:
  ``attribute_exists(key)`` plus ``condition``. A failed check is ConditionalCheckFailedException.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from typing import Any, Callable

from graphql import GraphQLSchema

from . import conflicts, errors
from .errors import AppSyncError
from .filters import key_matches, matches, sort_value, values_equal
from .mis import CustomOperation, ModelDef, Relation, Schema
from .relations import child_sort_key
from .rules import Identity, guard
from .paging import TokenCodec, check_limit, read_page, sort_position
from .sdl import sort_key_argument
from .storage import Store, encode_key


@dataclass
class ResolverContext:
    """What every resolver needs; one per server, passed as the GraphQL context value."""

    store: Store
    codec: TokenCodec
    models: dict[str, ModelDef]
    on_mutation: Callable[[ModelDef, str, dict, Any], None] | None = None  # (model, op, result, info)
    on_custom_mutation: Callable[[str, Any, Any], None] | None = None  # (mutation name, result, info)
    identity: Identity | None = None  # the caller, when auth rules are enforced (a user pool is configured)
    conflict_detection: str | None = None  # "optimistic" / "automerge" (``conflicts``); None: off


def now_iso() -> str:
    """Current time as AppSync writes timestamps: ``YYYY-MM-DDThh:mm:ss.sssZ``."""
    now = datetime.datetime.now(datetime.timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def key_of(model: ModelDef, item: dict) -> list[Any]:
    """The primary-key tuple of an item; DynamoDB rejects missing or empty key attributes."""
    values = []
    for name in model.key_fields:
        value = item.get(name)
        if value is None:
            raise AppSyncError(f"One or more parameter values were invalid: Missing the key {name} in the item",
                               errors.DYNAMODB_EXCEPTION)
        values.append(value)
    _check_key_values(model, item)
    return values


def _check_key_values(model: ModelDef, item: dict) -> None:
    index_fields = {name for index in model.indexes for name in index.fields}
    for name in model.key_fields + sorted(index_fields):
        if item.get(name) == "":
            raise AppSyncError("One or more parameter values are not valid. The AttributeValue for a key attribute "
                               f"cannot contain an empty string value. Key: {name}", errors.DYNAMODB_EXCEPTION)


def connection(context: ResolverContext, scope: str, page) -> dict:
    """A ``Model<X>Connection`` value for a page."""
    token = context.codec.encode(scope, page.cursor) if page.cursor is not None else None
    return {"items": page.items, "nextToken": token}


def scan(context: ResolverContext, model: ModelDef, args: dict) -> dict:
    """A Scan page in insertion order."""
    limit = check_limit(args.get("limit"))
    scope = f"scan:{model.name}"
    after = context.codec.decode(args["nextToken"], scope) if args.get("nextToken") else None
    rows = context.store.scan(model.name, after[0] if after else 0, limit)
    page = read_page([([seq], item) for seq, item in rows], limit, None, False, args.get("filter"))
    return connection(context, scope, page)


def query(context: ResolverContext, model: ModelDef, equalities: list[tuple[str, Any]], sort_keys: list[str],
          sort_condition: dict | None, args: dict, scope: str) -> dict:
    """A Query page: items whose fields equal ``equalities``, ordered by ``sort_keys``."""
    limit = check_limit(args.get("limit"))
    descending = args.get("sortDirection") == "DESC"
    scope = f"{scope}:{encode_key([value for _, value in equalities])}:{'DESC' if descending else 'ASC'}"
    after = context.codec.decode(args["nextToken"], scope) if args.get("nextToken") else None

    def candidates():
        for seq, item in context.store.all_items(model.name):
            if not all(values_equal(item.get(name), value) for name, value in equalities):
                continue
            value = sort_value(item, sort_keys) if sort_keys else None
            if sort_keys and (value is None or not key_matches(value, sort_condition, sort_keys)):
                continue  # sparse index, or outside the key condition
            yield sort_position(value, seq), item

    page = read_page(candidates(), limit, after, descending, args.get("filter"))
    return connection(context, scope, page)


def make_list_resolver(model: ModelDef, partition_key: str | None, sort_keys: list[str], key_name: str) -> Callable:
    """Resolver for ``list<Plural>`` (``partition_key`` None for id-keyed models) and index queries."""
    sort_argument = sort_key_argument(sort_keys) if sort_keys else None

    def resolve(_source: Any, info, **args) -> dict:
        context: ResolverContext = info.context
        if partition_key is None or args.get(partition_key) is None:
            if sort_argument and args.get(sort_argument):
                raise AppSyncError(f"When providing argument '{sort_argument}' you must also provide "
                                   f"arguments {partition_key}", errors.INVALID_ARGUMENTS)
            if args.get("sortDirection"):
                raise AppSyncError("sortDirection is not supported for List operations without a Sort key defined.",
                                   errors.INVALID_ARGUMENTS)
            return scan(context, model, args)
        return query(context, model, [(partition_key, args[partition_key])], sort_keys,
                     args.get(sort_argument) if sort_argument else None, args, f"query:{model.name}:{key_name}")
    return resolve


def make_sync_resolver(model: ModelDef) -> Callable:
    """Resolver for ``sync<Plural>`` (conflict detection): a Scan of the base table without ``lastSync``, of the
    records changed since it with it; ``startedAt`` is when the query ran."""
    def resolve(_source: Any, info, **args) -> dict:
        context: ResolverContext = info.context
        started, last_sync = conflicts.now_ms(), args.get("lastSync")
        limit = check_limit(args.get("limit"))
        scope = f"sync:{model.name}:{last_sync}"
        after = context.codec.decode(args["nextToken"], scope) if args.get("nextToken") else None
        changed = [([seq], item) for seq, item in context.store.all_items(model.name)
                   if conflicts.in_delta(item, last_sync)]
        page = read_page(changed, limit, after, False, args.get("filter"))
        return {**connection(context, scope, page), "startedAt": started}
    return resolve


def make_get_resolver(model: ModelDef) -> Callable:
    """Resolver for ``get<Model>``: GetItem by every key argument."""
    def resolve(_source: Any, info, **args) -> dict | None:
        return info.context.store.get(model.name, [args[name] for name in model.key_fields])
    return resolve


def make_relation_resolver(owner: ModelDef, field_name: str, relation: Relation,
                           models: dict[str, ModelDef]) -> Callable:
    """Resolver for a hasMany (connection) or hasOne/belongsTo (object) field."""
    related_fields = [related for related, _ in relation.pairs]
    key_name, sort_keys = child_sort_key(models[relation.model], related_fields) if relation.many else ("", [])
    sort_argument = sort_key_argument(sort_keys) if sort_keys else None  # absent from the SDL: args lack it

    def resolve(source: dict, info, **args) -> Any:
        context: ResolverContext = info.context
        related = context.models[relation.model]
        values = [source.get(own) for _, own in relation.pairs]
        if relation.many:
            if not relation.pairs or any(value is None for value in values):
                return {"items": [], "nextToken": None}
            return query(context, related, list(zip(related_fields, values)), sort_keys,
                         args.get(sort_argument) if sort_argument else None, args,
                         f"relation:{owner.name}.{field_name}")
        if not relation.pairs or any(value is None for value in values):
            return None
        if related_fields == related.key_fields:
            return context.store.get(related.name, values)
        for _, item in context.store.all_items(related.name):
            if all(item.get(name) == value for name, value in zip(related_fields, values)):
                return item
        return None
    return resolve


def make_mutation_resolver(model: ModelDef, op: str) -> Callable:
    """Resolver for ``create``/``update``/``delete``; a success is passed to ``context.on_mutation``."""

    def resolve(_source: Any, info, input: dict, condition: dict | None = None) -> dict:
        item = apply(info, input, condition)
        if info.context.on_mutation is not None:
            info.context.on_mutation(model, op, item, info)
        return item

    def apply(info, input: dict, condition: dict | None) -> dict:
        context: ResolverContext = info.context
        store, now = context.store, now_iso()
        if op == "create":
            item = dict(input)
            if model.generates_id and item.get("id") is None:
                item["id"] = str(uuid.uuid4())
            for stamp in model.timestamps.values():
                if item.get(stamp) is None:
                    item[stamp] = now
            if context.conflict_detection:
                conflicts.stamp_new(item)
            key = key_of(model, item)
            if store.get(model.name, key) is not None or not matches(condition, {}):
                raise errors.conditional_check_failed()
            store.insert(model.name, key, item)
            return item
        key = [input[name] for name in model.key_fields]
        existing = store.get(model.name, key)
        if existing is None or not matches(condition, existing):
            raise errors.conditional_check_failed()
        mode = context.conflict_detection
        as_is = conflicts.check(mode, existing, input.get("_version"), op == "delete") if mode else True
        if op == "delete":
            if not mode:
                store.delete(model.name, key)
                return existing
            deleted = {**existing, "_deleted": True}  # a soft delete: the record stays, marked
            conflicts.bump(deleted, existing)
            store.put(model.name, key, deleted)
            return deleted
        if not as_is:
            merged = conflicts.automerge(existing, {k: v for k, v in input.items() if k != "_version"})
            if "updatedAt" in model.timestamps:
                merged[model.timestamps["updatedAt"]] = now
            conflicts.bump(merged, existing)
            store.put(model.name, key, merged)
            return merged
        updated = dict(existing)
        for name, value in input.items():
            if name in model.key_fields or name == "_version":
                continue
            if value is None:
                updated.pop(name, None)  # Amplify's update removes attributes set to null
            else:
                updated[name] = value
        if "updatedAt" in model.timestamps and input.get(model.timestamps["updatedAt"]) is None:
            updated[model.timestamps["updatedAt"]] = now
        _check_key_values(model, updated)
        if mode:
            conflicts.bump(updated, existing)
        store.put(model.name, key, updated)
        return updated
    return resolve


def make_custom_resolver(operation: CustomOperation, canned: dict | None) -> Callable:
    """Resolver for a custom query or mutation: its canned answer (``--custom-results``), else an echo of
    its arguments (``echo_arguments``)."""
    def resolve(_source: Any, info, **args) -> Any:
        if canned is None:
            result = echo_arguments(operation, args)
        elif "error" in canned:
            error = canned["error"]
            raise AppSyncError(error.get("message", "canned error"), error.get("errorType"), error.get("errorInfo"))
        else:
            result = canned.get("result")
        if info.operation.operation.value == "mutation" and info.context.on_custom_mutation is not None:
            info.context.on_custom_mutation(operation.name, result, info)
        return result
    return resolve


def echo_arguments(operation: CustomOperation, args: dict) -> Any:
    """What a custom operation without a canned answer returns, built from its arguments (as graphql-core
    parsed them: AWSJSON values decoded, input objects as dicts):

    - a scalar or enum result: the first argument given whose list-ness matches the result's;
    - an object result (embedded type or model): each field from the argument of the same name, if given;
      a list result is a list of that one object.
    """
    returns = operation.returns
    if returns.kind in ("scalar", "enum"):
        for argument in operation.arguments:
            value = args.get(argument.name)
            if value is not None and isinstance(value, list) == returns.is_array:
                return value
        return None
    echoed = {name: value for name, value in args.items()}
    return [echoed] if returns.is_array else echoed


def install_resolvers(gql: GraphQLSchema, schema: Schema, custom_results: dict | None = None) -> None:
    """Attach resolvers to the root and model types of a schema built from the generated SDL;
    ``custom_results`` holds canned answers of custom operations by name (``--custom-results``)."""
    query_fields = gql.query_type.fields
    mutation_fields = gql.mutation_type.fields if gql.mutation_type else {}
    for model in schema.models.values():
        ops = model.operations
        if ops.get("get"):
            query_fields[ops["get"]].resolve = guard(make_get_resolver(model), model, "get", ops["get"], "Query")
        if ops.get("list"):
            partition = model.partition_key if model.has_custom_key else None
            query_fields[ops["list"]].resolve = guard(
                make_list_resolver(model, partition, model.sort_keys, "Primary"), model, "list", ops["list"], "Query")
        if schema.conflict_detection and ops.get("list"):
            sync = conflicts.sync_field(model)
            query_fields[sync].resolve = guard(make_sync_resolver(model), model, "list", sync, "Query")
        for index in model.indexes:
            if index.query_field:
                query_fields[index.query_field].resolve = guard(make_list_resolver(
                    model, index.fields[0], index.fields[1:], index.name), model, "list", index.query_field, "Query")
        for op in ("create", "update", "delete"):
            if ops.get(op):
                mutation_fields[ops[op]].resolve = guard(make_mutation_resolver(model, op), model, op, ops[op],
                                                         "Mutation")
        object_fields = gql.type_map[model.name].fields
        for field_name, relation in model.relations.items():
            object_fields[field_name].resolve = make_relation_resolver(model, field_name, relation, schema.models)
    for group, fields in (("queries", query_fields), ("mutations", mutation_fields)):
        for operation in schema.custom.get(group, []):
            fields[operation.name].resolve = make_custom_resolver(operation, (custom_results or {}).get(operation.name))
