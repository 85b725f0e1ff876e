"""SQLite item store: one table per model, each item stored as JSON.

Every row has ``seq`` (a stable insertion order, the Scan order), ``key`` (the JSON-encoded primary
key, unique) and ``body`` (the item). Updates keep ``seq``. Callers serialize access with a lock;
the store itself uses a single connection in autocommit mode.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Iterator


def encode_key(values: list[Any]) -> str:
    """Canonical text form of a primary-key tuple."""
    return json.dumps(values, separators=(",", ":"), ensure_ascii=False)


class Store:
    """Items of every model, keyed by primary key."""

    def __init__(self, path: str | None = None) -> None:
        self._db = sqlite3.connect(path or ":memory:", check_same_thread=False, isolation_level=None)
        self._tables: set[str] = set()

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()

    def _table(self, model: str) -> str:
        table = '"m_' + model.replace('"', '""') + '"'
        if table not in self._tables:
            self._db.execute(f"CREATE TABLE IF NOT EXISTS {table} ("
                             "seq INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE, body TEXT NOT NULL)")
            self._tables.add(table)
        return table

    def get(self, model: str, key: list[Any]) -> dict | None:
        """The item with this primary key, or None."""
        row = self._db.execute(f"SELECT body FROM {self._table(model)} WHERE key = ?", (encode_key(key),)).fetchone()
        return json.loads(row[0]) if row else None

    def insert(self, model: str, key: list[Any], item: dict) -> None:
        """Add a new item at the end of the Scan order (the key must not exist)."""
        self._db.execute(f"INSERT INTO {self._table(model)} (key, body) VALUES (?, ?)",
                         (encode_key(key), json.dumps(item, ensure_ascii=False)))

    def put(self, model: str, key: list[Any], item: dict) -> None:
        """Insert or replace, keeping the Scan position of an existing item."""
        body = json.dumps(item, ensure_ascii=False)
        updated = self._db.execute(f"UPDATE {self._table(model)} SET body = ? WHERE key = ?",
                                   (body, encode_key(key))).rowcount
        if not updated:
            self.insert(model, key, item)

    def delete(self, model: str, key: list[Any]) -> None:
        """Remove the item with this primary key (no error when absent)."""
        self._db.execute(f"DELETE FROM {self._table(model)} WHERE key = ?", (encode_key(key),))

    def scan(self, model: str, after_seq: int, limit: int) -> list[tuple[int, dict]]:
        """Up to ``limit`` items after position ``after_seq``, in insertion order."""
        rows = self._db.execute(f"SELECT seq, body FROM {self._table(model)} WHERE seq > ? ORDER BY seq LIMIT ?",
                                (after_seq, limit)).fetchall()
        return [(seq, json.loads(body)) for seq, body in rows]

    def all_items(self, model: str) -> Iterator[tuple[int, dict]]:
        """Every item with its position, in insertion order (used by key queries)."""
        for seq, body in self._db.execute(f"SELECT seq, body FROM {self._table(model)} ORDER BY seq"):
            yield seq, json.loads(body)

    def count(self, model: str) -> int:
        """Number of stored items of a model."""
        return self._db.execute(f"SELECT COUNT(*) FROM {self._table(model)}").fetchone()[0]
