"""Page reads with DynamoDB semantics, and opaque, tamper-proof ``nextToken`` values.

A page *reads* ``limit`` items (default 100) in key order and only then applies the filter, so a
page can be short or empty while ``nextToken`` is non-null. A token is returned whenever the read
stopped at ``limit`` (like DynamoDB's LastEvaluatedKey), so a full last page carries a token that
yields an empty final page.

Token format: ``base64url(nonce ‖ ciphertext ‖ tag)`` where the plaintext is a JSON cursor
``{"s": scope, "c": position}``, encrypted with a SHA-256 keystream and authenticated with
HMAC-SHA256 under a per-process random key. The cursor is a position (Scan sequence number, or
sort-key value plus sequence), never an offset, so writes between pages do not shift results. A
token from another server process, another query (scope) or with any changed byte is rejected
with AppSync's "Invalid pagination token given." error.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from dataclasses import dataclass
from typing import Any, Iterable

from .errors import DYNAMODB_EXCEPTION, AppSyncError, invalid_token
from .filters import attribute_type, matches

DEFAULT_LIMIT = 100
_NONCE, _TAG = 12, 16


class TokenCodec:
    """Encrypts and authenticates page cursors."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._key = secret or os.urandom(32)

    def _keystream(self, nonce: bytes, length: int) -> bytes:
        blocks, counter = [], 0
        while sum(map(len, blocks)) < length:
            blocks.append(hashlib.sha256(self._key + nonce + counter.to_bytes(4, "big")).digest())
            counter += 1
        return b"".join(blocks)[:length]

    def encode(self, scope: str, cursor: Any) -> str:
        """An opaque token for ``cursor``, valid only for queries with the same ``scope``."""
        plain = json.dumps({"s": scope, "c": cursor}, separators=(",", ":")).encode()
        nonce = os.urandom(_NONCE)
        cipher = bytes(a ^ b for a, b in zip(plain, self._keystream(nonce, len(plain))))
        tag = hmac.new(self._key, nonce + cipher, hashlib.sha256).digest()[:_TAG]
        return base64.urlsafe_b64encode(nonce + cipher + tag).decode().rstrip("=")

    def decode(self, token: str, scope: str) -> Any:
        """The cursor inside ``token``; raises the AppSync pagination error when it is not ours."""
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        except (ValueError, TypeError):
            raise invalid_token() from None
        # base64 ignores the spare bits of the last character; demand the one canonical spelling,
        # so that any change to the token's text is refused, as a change to its bytes is.
        if base64.urlsafe_b64encode(raw).decode().rstrip("=") != token:
            raise invalid_token()
        if len(raw) <= _NONCE + _TAG:
            raise invalid_token()
        nonce, cipher, tag = raw[:_NONCE], raw[_NONCE:-_TAG], raw[-_TAG:]
        expected = hmac.new(self._key, nonce + cipher, hashlib.sha256).digest()[:_TAG]
        if not hmac.compare_digest(tag, expected):
            raise invalid_token()
        payload = json.loads(bytes(a ^ b for a, b in zip(cipher, self._keystream(nonce, len(cipher)))))
        if payload.get("s") != scope:
            raise invalid_token()
        return payload["c"]


@dataclass
class Page:
    """One page: the filtered items and the cursor to continue from (None when the read ended)."""

    items: list[dict]
    cursor: Any


def check_limit(limit: int | None) -> int:
    """The effective page size; DynamoDB rejects a limit below 1."""
    if limit is None:
        return DEFAULT_LIMIT
    if limit < 1:
        raise AppSyncError(f"1 validation error detected: Value '{limit}' at 'limit' failed to satisfy constraint: "
                           "Member must have value greater than or equal to 1", DYNAMODB_EXCEPTION)
    return limit


def sort_position(value: Any, seq: int) -> list:
    """A total order over sort-key values of any type, ties broken by insertion order."""
    rank = {"number": 0, "string": 1}.get(attribute_type(value), 2) if value is not None else -1
    return [rank, value if rank in (0, 1) else None, seq]


def read_page(positioned: Iterable[tuple[list, dict]], limit: int, after: list | None, descending: bool,
              condition: dict | None) -> Page:
    """Read ``limit`` items in position order after ``after``, then filter them.

    ``positioned`` yields ``(position, item)`` pairs (positions from ``sort_position`` or a Scan
    sequence wrapped in a list); it need not be sorted.
    """
    ordered = sorted(positioned, key=lambda pair: pair[0], reverse=descending)
    if after is not None:
        ordered = [pair for pair in ordered if (pair[0] < after if descending else pair[0] > after)]
    read = ordered[:limit]
    cursor = read[-1][0] if len(read) == limit else None
    return Page([item for _, item in read if matches(condition, item)], cursor)
