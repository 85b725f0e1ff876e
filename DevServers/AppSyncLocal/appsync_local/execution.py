"""Execute GraphQL requests and shape the responses like AppSync.

- Body problems give HTTP 400 ``MalformedHttpRequestException`` ("Request body is empty." or
  "Unable to parse GraphQL query." for non-JSON, non-object or query-less bodies).
- Syntax, validation and variable errors give HTTP 200 with ``data: null`` and errors that carry
  ``path: null``, ``locations`` and ``message`` but no ``errorType`` (AppSync's shape).
- Resolver errors give HTTP 200 with partial ``data`` and errors carrying ``errorType``,
  ``errorInfo``, ``data: null``, ``path`` and ``locations`` at the root of each error.
"""

from __future__ import annotations

import json
import re
import sys
import threading
import traceback
from typing import Any

from graphql import GraphQLError, OperationType, build_schema, execute, get_operation_ast, parse, validate

from .errors import AppSyncError, field_error, http_error_body, request_error
from .mis import Schema
from .paging import TokenCodec
from .pubsub import PubSub
from .resolvers import ResolverContext, install_resolvers
from .rules import Identity
from .scalars import install_scalars
from .sdl import generate_sdl
from .storage import Store

MALFORMED = "MalformedHttpRequestException"

_VALIDATION_KINDS = [
    (r"^Cannot query field", "FieldUndefined"),
    (r"^Unknown argument", "UnknownArgument"),
    (r"^Unknown type", "UnknownType"),
    (r"^Field '.*' argument '.*' of type '.*' is required", "MissingFieldArgument"),
    (r"must have a selection of subfields", "SubSelectionRequired"),
    (r"must not have a selection since type", "SubSelectionNotAllowed"),
    (r"^Variable '.*' is never used", "UnusedVariable"),
    (r"^Variable '.*' is not defined", "UndefinedVariable"),
    (r"(Expected value of type|cannot represent|^Invalid AWS|^Expected a)", "WrongType"),
]


def validation_prefix(message: str) -> str:
    """AppSync-style prefix, e.g. ``Validation error of type FieldUndefined: ``."""
    for pattern, kind in _VALIDATION_KINDS:
        if re.search(pattern, message):
            return f"Validation error of type {kind}: "
    return "Validation error: "


class App:
    """The GraphQL application: generated schema, resolvers and storage."""

    def __init__(self, schema: Schema, store: Store | None = None, codec: TokenCodec | None = None,
                 custom_results: dict | None = None, subscription_sources: dict[str, str] | None = None) -> None:
        self.schema = schema
        self.sdl = generate_sdl(schema)
        self.graphql_schema = build_schema(self.sdl)
        install_scalars(self.graphql_schema)
        install_resolvers(self.graphql_schema, schema, custom_results)
        self.store = store or Store()
        self.context = ResolverContext(self.store, codec or TokenCodec(), schema.models,
                                       conflict_detection=schema.conflict_detection)
        listeners = {name: (model.name, op) for model in schema.models.values()
                     for op, names in model.subscriptions.items() for name in names}
        # A custom subscription hears the custom mutation it is for (`a.subscription().for(a.ref('likePost'))`).
        listeners.update({name: (mutation, "custom") for name, mutation in (subscription_sources or {}).items()})
        self.pubsub = PubSub(self.graphql_schema, listeners, self.context)
        self.context.on_mutation = self.pubsub.publish
        self.context.on_custom_mutation = self.pubsub.publish_custom
        self.lock = threading.Lock()  # one request at a time: consistent reads and conditional writes

    def handle_body(self, body: bytes, identity: Identity | None = None) -> tuple[int, dict]:
        """Parse an HTTP request body and execute it; returns (status, response JSON)."""
        if not body.strip():
            return 400, http_error_body(MALFORMED, "Request body is empty.")
        try:
            request = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return 400, http_error_body(MALFORMED, "Unable to parse GraphQL query.")
        query = request.get("query") if isinstance(request, dict) else None
        variables = request.get("variables") if isinstance(request, dict) else None
        operation_name = request.get("operationName") if isinstance(request, dict) else None
        if (not isinstance(query, str) or not query.strip() or not isinstance(variables, (dict, type(None)))
                or not isinstance(operation_name, (str, type(None)))):
            return 400, http_error_body(MALFORMED, "Unable to parse GraphQL query.")
        return 200, self.execute(query, variables, operation_name, identity)

    def execute(self, query: str, variables: dict | None = None, operation_name: str | None = None,
                identity: Identity | None = None) -> dict:
        """Run one GraphQL operation and return the AppSync-shaped response."""
        try:
            document = parse(query)
        except GraphQLError as error:
            return {"data": None, "errors": [request_error(error, "Invalid Syntax : ")]}
        problems = validate(self.graphql_schema, document)
        if problems:
            return {"data": None, "errors": [request_error(e, validation_prefix(e.message)) for e in problems]}
        operation = get_operation_ast(document, operation_name)
        if operation is not None and operation.operation == OperationType.SUBSCRIPTION:
            return {"data": None, "errors": [{
                "path": None, "data": None, "errorType": "UnsupportedOperation", "errorInfo": None, "locations": None,
                "message": "Subscriptions are delivered over the real-time WebSocket endpoint "
                           "(/graphql/realtime), not over HTTP."}]}
        with self.lock:
            self.context.identity = identity
            result = execute(self.graphql_schema, document, context_value=self.context,
                             variable_values=variables, operation_name=operation_name)
        response: dict[str, Any] = {"data": result.data}
        if result.errors:
            if result.data is None and all(error.path is None for error in result.errors):
                response["errors"] = [request_error(error, "") for error in result.errors]
            else:
                response["errors"] = [field_error(error) for error in result.errors]
                _report_unexpected(result.errors)
        return response


def _report_unexpected(errors: list[GraphQLError]) -> None:
    """Print tracebacks of resolver crashes (bugs, not AppSync errors) to stderr."""
    for error in errors:
        original = error.original_error
        if original is not None and not isinstance(original, (AppSyncError, GraphQLError)):
            traceback.print_exception(type(original), original, original.__traceback__, file=sys.stderr)
