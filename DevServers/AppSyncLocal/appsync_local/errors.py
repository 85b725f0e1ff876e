"""Errors raised by resolvers and their AppSync wire shape.

AppSync puts ``errorType``, ``errorInfo`` and ``data`` at the root of each error object (not under
``extensions``), next to ``path``, ``locations`` (with ``sourceName: null``) and ``message``.
"""

from __future__ import annotations

import uuid
from typing import Any

from graphql import GraphQLError

CONDITIONAL_CHECK_FAILED = "DynamoDB:ConditionalCheckFailedException"
DYNAMODB_EXCEPTION = "DynamoDB:DynamoDbException"
INVALID_TOKEN = "DynamoDB:UserIllegalArgumentException"
INVALID_ARGUMENTS = "InvalidArgumentsError"
UNSUPPORTED = "UnsupportedOperation"


class AppSyncError(Exception):
    """A resolver error: becomes ``{"errorType": …, "message": …}`` with ``data: null`` for the field."""

    def __init__(self, message: str, error_type: str, error_info: Any = None, data: Any = None) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.error_info = error_info
        self.data = data  # e.g. the stored record of a ConflictUnhandled error


def conditional_check_failed() -> AppSyncError:
    """The error DynamoDB gives when a write's condition (including key existence) fails."""
    return AppSyncError(
        f"The conditional request failed (Service: DynamoDb, Status Code: 400, Request ID: {uuid.uuid4()})",
        CONDITIONAL_CHECK_FAILED)


def invalid_token() -> AppSyncError:
    """The error AppSync gives for a nextToken it did not issue or that was altered."""
    return AppSyncError(
        "com.amazonaws.deepdish.common.pagination.InvalidPaginationTokenException: Invalid pagination token given.",
        INVALID_TOKEN)


def locations_of(error: GraphQLError) -> list[dict] | None:
    """AppSync-style locations (with ``sourceName: null``), or None."""
    if not error.locations:
        return None
    return [{"line": loc.line, "column": loc.column, "sourceName": None} for loc in error.locations]


def field_error(error: GraphQLError) -> dict:
    """Shape an execution error (a resolver failure or a non-null violation)."""
    original = error.original_error
    data = None
    if isinstance(original, AppSyncError):
        error_type, error_info, message, data = original.error_type, original.error_info, str(original), original.data
    else:
        error_type, error_info, message = None, None, error.message
    return {"path": error.path, "data": data, "errorType": error_type, "errorInfo": error_info,
            "locations": locations_of(error), "message": message}


def request_error(error: GraphQLError, prefix: str = "Validation error: ") -> dict:
    """Shape a document or variable error; like AppSync, these carry no errorType."""
    return {"path": None, "locations": locations_of(error), "message": prefix + error.message}


def http_error_body(error_type: str, message: str) -> dict:
    """Body of a non-200 response (400, 401, 429, 500)."""
    return {"errors": [{"errorType": error_type, "message": message}]}
