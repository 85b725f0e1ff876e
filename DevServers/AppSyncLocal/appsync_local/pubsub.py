"""Subscriptions registered over the real-time endpoint, and the events mutations publish to them.

A successful ``create``/``update``/``delete`` resolver calls ``PubSub.publish`` (while the request holds
the app lock). Like AppSync:
- the event record is the mutation's result as the mutation selected it: top-level fields the mutation
  did not select arrive as ``null`` (relationship fields still resolve from the store);
- a subscription receives it when its field listens to that mutation (``@aws_subscribe``), its
  ``filter`` (``ModelSubscription<M>FilterInput``) matches the record, and its other arguments (owner
  fields) equal the record's fields, and the model's auth rules let the subscriber hear it (see
  ``rules.subscription_access``: owner-only subscribers hear their own records);
- the subscription document is executed against the record with graphql-core, so its selection set
  and aliases shape the ``data`` payload.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

from graphql import (DocumentNode, FragmentDefinitionNode, GraphQLError, GraphQLSchema, OperationType, execute,
                     get_named_type, get_operation_ast, parse, validate)
from graphql.execution.collect_fields import collect_fields
from graphql.execution.values import get_argument_values, get_variable_values

from .errors import UNSUPPORTED, AppSyncError, field_error, request_error
from .filters import compare, field_matches, matches
from .mis import ModelDef


@dataclass
class Subscription:
    """One started subscription on one connection."""

    id: str
    field_name: str
    document: DocumentNode
    operation_name: str | None
    variables: dict[str, Any]
    arguments: dict[str, Any]  # coerced field arguments (filter, owner fields)
    deliver: Callable[["Subscription", dict], None]  # sends a ``data`` payload
    connection: int = 0
    response_key: str = ""
    access: Any = None  # a rules.Decision: only records the caller may hear (owner rules), or None for every record


def subscription_filter_matches(condition: dict | None, item: dict) -> bool:
    """True when ``item`` satisfies a ``ModelSubscription<M>FilterInput`` value (fields and ``and`` ANDed,
    ``or`` ORed); operators as in list filters, plus ``in`` / ``notIn``."""
    return matches(condition, item, _subscription_field_matches)


def _subscription_field_matches(item: dict, name: str, operators: dict) -> bool:
    operators = dict(operators)
    one_of, none_of = operators.pop("in", None), operators.pop("notIn", None)
    actual = item.get(name)
    try:
        if not field_matches(item, name, operators):
            return False
    except AppSyncError:  # e.g. between with bad bounds: matches nothing
        return False
    if one_of is not None and not any(compare("eq", actual, option) for option in one_of):
        return False
    return none_of is None or not any(compare("eq", actual, option) for option in none_of)


@dataclass
class PubSub:
    """Registry of subscriptions, keyed by (connection, id)."""

    schema: GraphQLSchema
    # subscription field → (model name, create/update/delete), or (custom mutation name, "custom")
    listeners: dict[str, tuple[str, str]]
    context: Any = None  # the resolvers' context, for relationship fields in events
    _subscriptions: dict[tuple[int, str], Subscription] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, subscription: Subscription) -> bool:
        """Registers a subscription; False when its connection already has one with that id."""
        with self._lock:
            key = (subscription.connection, subscription.id)
            if key in self._subscriptions:
                return False
            self._subscriptions[key] = subscription
            return True

    def remove(self, connection: int, subscription_id: str) -> Subscription | None:
        """Unregisters one subscription; returns it, or None when unknown."""
        with self._lock:
            return self._subscriptions.pop((connection, subscription_id), None)

    def remove_connection(self, connection: int) -> list[Subscription]:
        """Unregisters every subscription of a connection."""
        with self._lock:
            gone = [key for key in self._subscriptions if key[0] == connection]
            return [self._subscriptions.pop(key) for key in gone]

    def publish(self, model: ModelDef, op: str, item: dict, info) -> None:
        """Delivers a mutation's result to the matching subscriptions, in registration order."""
        self._publish((model.name, op), item, info)

    def publish_custom(self, mutation: str, item: Any, info) -> None:
        """Delivers a custom mutation's result to the custom subscriptions that listen to it (``--subscription-source``)."""
        if isinstance(item, dict):
            self._publish((mutation, "custom"), item, info)

    def _publish(self, source: tuple[str, str], item: dict, info) -> None:
        with self._lock:
            targets = [s for s in self._subscriptions.values() if self.listeners.get(s.field_name) == source]
        if not targets:
            return
        record = _as_selected(item, info)
        for subscription in targets:
            if not _arguments_match(subscription.arguments, record):
                continue
            if subscription.access is not None and not subscription.access.owns(record):
                continue
            subscription.deliver(subscription, self.event_payload(subscription, record))

    def event_payload(self, subscription: Subscription, record: dict) -> dict:
        """The ``data`` message payload: the subscription document executed against the record."""
        result = execute(self.schema, subscription.document, root_value={subscription.field_name: record},
                         context_value=self.context, variable_values=subscription.variables,
                         operation_name=subscription.operation_name)
        payload: dict[str, Any] = {"data": result.data}
        if result.errors:
            payload["errors"] = [field_error(error) for error in result.errors]
        return payload


def _arguments_match(arguments: dict[str, Any], record: dict) -> bool:
    for name, value in arguments.items():
        if name == "filter":
            if not subscription_filter_matches(value, record):
                return False
        elif value is not None and record.get(name) != value:
            return False
    return True


def _as_selected(item: dict, info) -> dict:
    """The mutation's result with the top-level fields it did not select set to None."""
    try:
        node = info.field_nodes[0]
        collected = collect_fields(info.schema, info.fragments, info.variable_values,
                                   get_named_type(info.return_type), node.selection_set)
    except (GraphQLError, AttributeError, IndexError):
        return dict(item)
    selected = {node.name.value for nodes in collected.values() for node in nodes}
    return {name: (value if name in selected else None) for name, value in item.items()}


def prepare_subscription(schema: GraphQLSchema, data: str) -> tuple[dict[str, Any], list[dict]]:
    """Reads a ``start`` message's ``payload.data`` (a JSON string of ``{query, variables, operationName}``).

    Returns (fields for ``Subscription``: field_name, document, operation_name, variables, arguments; no
    errors) or ({}, errors shaped as AppSync's request errors).
    """
    from .execution import validation_prefix  # execution imports this module
    try:
        request = json.loads(data) if isinstance(data, str) else None
    except ValueError:
        request = None
    if not isinstance(request, dict) or not isinstance(request.get("query"), str):
        return {}, [_request_error("BadRequestException", "The start payload's data must be a JSON string of an "
                                                         "object with a query.")]
    variables = request.get("variables") or {}
    operation_name = request.get("operationName")
    try:
        document = parse(request["query"])
    except GraphQLError as error:
        return {}, [request_error(error, "Invalid Syntax : ")]
    problems = validate(schema, document)
    if problems:
        return {}, [request_error(error, validation_prefix(error.message)) for error in problems]
    operation = get_operation_ast(document, operation_name)
    if operation is None or operation.operation != OperationType.SUBSCRIPTION or not isinstance(variables, dict):
        return {}, [_request_error(UNSUPPORTED, "Only subscription operations can be started over the real-time "
                                                "endpoint; queries and mutations go to /graphql.")]
    coerced = get_variable_values(schema, operation.variable_definitions or [], variables)
    if isinstance(coerced, list):
        return {}, [request_error(error, validation_prefix(error.message)) for error in coerced]
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    root = schema.subscription_type
    response_key, nodes = next(iter(collect_fields(schema, fragments, coerced, root, operation.selection_set).items()))
    field_name = nodes[0].name.value
    try:
        arguments = get_argument_values(root.fields[field_name], nodes[0], coerced)
    except GraphQLError as error:
        return {}, [request_error(error, validation_prefix(error.message))]
    return {"field_name": field_name, "document": document, "operation_name": operation_name, "variables": coerced,
            "arguments": arguments, "response_key": response_key}, []


def _request_error(error_type: str, message: str) -> dict:
    return {"errorType": error_type, "message": message}
