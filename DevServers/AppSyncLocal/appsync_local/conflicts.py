"""Conflict detection (``--conflict-detection optimistic|automerge``), as the Gen 1 transformer deploys it for
DataStore apps on a versioned DynamoDB data source.

- Every model type gains ``_version: Int!``, ``_deleted: Boolean`` and ``_lastChangedAt: AWSTimestamp!``;
  update and delete inputs take ``_version``; filter and condition inputs take ``_deleted``; connections
  gain ``startedAt: AWSTimestamp``; ``sync<Plural>(filter, limit, nextToken, lastSync)`` queries are added.
- A create stores ``_version: 1``. An update or delete whose ``_version`` is not the stored one (or is
  missing) conflicts. Under optimistic concurrency the write is rejected: ``errorType: ConflictUnhandled``,
  ``message: "Conflict resolver rejects mutation."`` and the error's ``data`` holding the stored record.
  Under automerge an update is merged (AppSync's documented rules, ``automerge``) and written with the next
  version; a delete cannot be merged and is rejected the same way. A write to a deleted record conflicts.
- A delete is soft: the record stays with ``_deleted: true``; get, list and sync still return it.
- ``sync`` without ``lastSync`` reads the base table (every record); with it, the records whose
  ``_lastChangedAt`` is at or after it (the delta table). ``startedAt`` is when the query ran.
"""

from __future__ import annotations

import time
from typing import Any

from .errors import AppSyncError
from .mis import ModelDef, upper_first

MODES = ("optimistic", "automerge")
CONFLICT_UNHANDLED = "ConflictUnhandled"
METADATA_FIELDS = ("_version: Int!", "_deleted: Boolean", "_lastChangedAt: AWSTimestamp!")


def now_ms() -> int:
    """AppSync's ``AWSTimestamp`` clock for ``_lastChangedAt`` and ``startedAt``, in milliseconds."""
    return time.time_ns() // 1_000_000


def sync_field(model: ModelDef) -> str:
    """``syncPosts``: the sync query of a model (``sync`` + its plural, as ``list``)."""
    return "sync" + upper_first(model.plural)


def stamp_new(item: dict) -> None:
    """Metadata of a created (or seeded) record."""
    item["_version"] = 1
    item["_lastChangedAt"] = now_ms()
    item.pop("_deleted", None)


def rejected(existing: dict) -> AppSyncError:
    """The error AppSync gives when the conflict handler rejects a write; ``data`` is the stored record."""
    return AppSyncError("Conflict resolver rejects mutation.", CONFLICT_UNHANDLED, data=existing)


def check(mode: str, existing: dict, given: Any, deleting: bool) -> bool:
    """Whether a write with ``_version`` ``given`` may go ahead as is; False means merge (automerge update);
    raises the rejection otherwise."""
    if given is not None and given == existing.get("_version") and not existing.get("_deleted"):
        return True
    if mode == "automerge" and not deleting and not existing.get("_deleted"):
        return False
    raise rejected(existing)


def automerge(existing: Any, incoming: Any) -> Any:
    """AppSync's automerge of one value: a map merges field by field; lists concatenate (the incoming values
    appended, duplicates kept); a field the server holds no value for takes the incoming one; otherwise the
    server's scalar wins."""
    if isinstance(existing, dict) and isinstance(incoming, dict):
        merged = dict(existing)
        for name, value in incoming.items():
            merged[name] = automerge(existing.get(name), value)
        return merged
    if existing is None:
        return incoming
    if isinstance(existing, list) and isinstance(incoming, list):
        return existing + incoming
    return existing


def bump(item: dict, existing: dict) -> None:
    """The next version of a written record."""
    item["_version"] = int(existing.get("_version") or 0) + 1
    item["_lastChangedAt"] = now_ms()


def in_delta(item: dict, last_sync: int | None) -> bool:
    """Whether a sync with ``lastSync`` returns the record: every record without it, else the changed ones."""
    return last_sync is None or int(item.get("_lastChangedAt") or 0) >= last_sync
