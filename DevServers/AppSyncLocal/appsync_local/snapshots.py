"""Start from a gqlc snapshot (``--import DIR``) and write one when stopped (``--export-on-exit DIR``).

The format is gqlc's (docs/moving-data.md): ``DIR/manifest.json`` (``"format": "gqlc-snapshot/1"``, each model's
``file``, ``count`` and ``complete``) and one ``DIR/MODEL.ndjson`` per model, one record per line. Imported records keep
their keys and timestamps (a local server may, unlike AppSync's create inputs); relationship objects and
``__typename`` are dropped. Exported records are the stored fields plus ``__typename``, as ``gqlc list`` prints them.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime, timezone

from .mis import Schema, SchemaFileError, did_you_mean
from .resolvers import now_iso
from .seed import put_item
from .storage import Store

FORMAT = "gqlc-snapshot/1"


def import_snapshot(directory: str, schema: Schema, store: Store) -> int:
    """Insert every record of the snapshot's complete models; returns how many. Raises ``SchemaFileError``."""
    manifest_path = os.path.join(directory, "manifest.json")
    try:
        with open(manifest_path, encoding="utf-8") as handle:
            manifest = json.load(handle)
    except FileNotFoundError:
        raise SchemaFileError(f"{manifest_path}: no such file (is {directory} a gqlc snapshot?)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SchemaFileError(f"{manifest_path}: cannot read: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise SchemaFileError(f"{manifest_path}: format is {manifest.get('format') if isinstance(manifest, dict) else None!r}; "
                              f"expected {FORMAT!r}")
    count, now = 0, now_iso()
    for entry in manifest.get("models", []):
        name, file = entry.get("name"), entry.get("file", "")
        if not entry.get("complete"):
            continue  # an interrupted model's records are not all there; gqlc snapshot --resume finishes it
        model = schema.models.get(name)
        if model is None:
            raise SchemaFileError(f"{manifest_path}: {name}: unknown model{did_you_mean(str(name), schema.models)}")
        if "/" in file or file in ("", "..", "."):
            raise SchemaFileError(f"{manifest_path}: {name}: 'file' must be a file name in the directory")
        path = os.path.join(directory, file)
        try:
            with open(path, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    if not line.strip():
                        continue
                    try:
                        record = json.loads(line)
                    except json.JSONDecodeError as error:
                        raise SchemaFileError(f"{path}:{number}:{error.colno}: invalid JSON: {error.msg}") from None
                    if not isinstance(record, dict):
                        raise SchemaFileError(f"{path}:{number}: expected an object")
                    item = {key: value for key, value in record.items()
                            if key in model.fields and key not in model.relations}
                    put_item(store, model, item, now, f"{path}:{number}")
                    count += 1
        except OSError as error:
            raise SchemaFileError(f"{path}: cannot read: {error}") from None
    return count


def export_snapshot(directory: str, schema: Schema, store: Store, schema_path: str, endpoint: str) -> int:
    """Write every model's records and the manifest (the manifest last, written whole); returns how many records."""
    os.makedirs(directory, exist_ok=True)
    models, total = [], 0
    for name in sorted(schema.models):
        model = schema.models[name]
        file = f"{name}.ndjson"
        count = 0
        with open(os.path.join(directory, file), "w", encoding="utf-8") as handle:
            for _, item in store.all_items(name):
                record = {key: value for key, value in item.items() if key in model.fields}
                record["__typename"] = name
                handle.write(json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n")
                count += 1
        models.append({"name": name, "file": file, "count": count, "complete": True})
        total += count
    with open(schema_path, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    manifest = {"format": FORMAT, "models": models, "schema": {"sha256": digest}, "endpoint": endpoint,
                "takenAt": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    temporary = os.path.join(directory, "manifest.json.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(manifest, handle, indent=2)
        handle.write("\n")
    os.replace(temporary, os.path.join(directory, "manifest.json"))
    return total
