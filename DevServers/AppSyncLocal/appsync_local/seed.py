"""Load seed data: ``{"Post": [{…}, …], "Comment": […]}`` into the store.

Items keep their listed order (which becomes the Scan order). Missing ``id`` values of id-keyed
models are generated, missing timestamps are set to the load time, and an item whose key already
exists replaces it (so re-seeding a persistent ``--db`` is idempotent).
"""

from __future__ import annotations

import json
import uuid

from .conflicts import stamp_new
from .errors import AppSyncError
from .mis import Schema, SchemaFileError, did_you_mean
from .resolvers import key_of, now_iso
from .storage import Store


def read_json(path: str, what: str):
    """The JSON in ``path``; a missing, unreadable or invalid file is a ``SchemaFileError`` naming it."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        raise SchemaFileError(f"{path}: no such {what}") from None
    except json.JSONDecodeError as error:
        raise SchemaFileError(f"{path}:{error.lineno}:{error.colno}: invalid JSON: {error.msg}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SchemaFileError(f"{path}: cannot read: {error}") from None


def load_seed(path: str, schema: Schema, store: Store) -> int:
    """Insert every seed item; returns the number of items. Raises ``SchemaFileError`` on bad data."""
    data = read_json(path, "seed file")
    if not isinstance(data, dict):
        raise SchemaFileError(f"{path}: expected an object like {{\"Post\": [{{…}}]}}")
    count, now = 0, now_iso()
    for model_name, items in data.items():
        model = schema.models.get(model_name)
        if model is None:
            raise SchemaFileError(f"{path}: {model_name}: unknown model{did_you_mean(model_name, schema.models)}")
        if not isinstance(items, list):
            raise SchemaFileError(f"{path}: {model_name}: expected a list of items")
        for position, raw in enumerate(items):
            where = f"{path}: {model_name}[{position}]"
            if not isinstance(raw, dict):
                raise SchemaFileError(f"{where}: expected an object")
            unknown = [name for name in raw if name not in model.fields or name in model.relations]
            if unknown:
                raise SchemaFileError(f"{where}: '{unknown[0]}' is not a stored field of {model_name}"
                                      f"{did_you_mean(unknown[0], model.fields)}")
            item = dict(raw)
            if model.generates_id and item.get("id") is None:
                item["id"] = str(uuid.uuid4())
            put_item(store, model, item, now, where, versioned=schema.conflict_detection)
            count += 1
    return count


def put_item(store: Store, model, item: dict, now: str, where: str, versioned: bool = False) -> None:
    """Store ``item`` (missing timestamps set to ``now``, and the version fields when ``versioned``), replacing one
    with its key; ``where`` names it in errors."""
    for stamp in model.timestamps.values():
        item.setdefault(stamp, now)
    if versioned:
        stamp_new(item)
    try:
        key = key_of(model, item)
    except AppSyncError as error:
        raise SchemaFileError(f"{where}: {error}") from None
    store.put(model.name, key, item)
