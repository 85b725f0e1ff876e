"""Custom operations' test settings: canned answers of custom queries and mutations (``--custom-results``) and
the custom mutations that custom subscriptions hear (``--subscription-source``)."""

from __future__ import annotations

from .mis import Schema, SchemaFileError, did_you_mean
from .seed import read_json


def load_custom_results(path: str | None, schema: Schema) -> dict | None:
    """The ``--custom-results`` file: ``{"name": {"result": VALUE} | {"error": {"errorType", "message"}}}`` for
    custom queries and mutations of ``schema``. Raises ``SchemaFileError`` on bad data."""
    if path is None:
        return None
    data = read_json(path, "custom results file")
    if not isinstance(data, dict):
        raise SchemaFileError(f"{path}: expected an object like {{\"echo\": {{\"result\": …}}}}")
    names = [op.name for group in ("queries", "mutations") for op in schema.custom.get(group, [])]
    for name, entry in data.items():
        if name not in names:
            raise SchemaFileError(f"{path}: {name}: not a custom query or mutation of the schema"
                                  f"{did_you_mean(name, names)}")
        if not isinstance(entry, dict) or len(entry) != 1 or next(iter(entry)) not in ("result", "error"):
            raise SchemaFileError(f"{path}: {name}: expected {{\"result\": VALUE}} or {{\"error\": {{…}}}}")
        if "error" in entry and not isinstance(entry["error"], dict):
            raise SchemaFileError(f"{path}: {name}.error: expected an object with errorType and message")
    return data


def check_subscription_sources(sources: dict[str, str], schema: Schema) -> dict[str, str]:
    """``--subscription-source`` pairs: each a custom subscription and a custom mutation of ``schema``."""
    subscriptions = [op.name for op in schema.custom.get("subscriptions", [])]
    mutations = [op.name for op in schema.custom.get("mutations", [])]
    for subscription, mutation in sources.items():
        if subscription not in subscriptions:
            raise SchemaFileError(f"--subscription-source: {subscription}: not a custom subscription of the schema"
                                  f"{did_you_mean(subscription, subscriptions)}")
        if mutation not in mutations:
            raise SchemaFileError(f"--subscription-source: {mutation}: not a custom mutation of the schema"
                                  f"{did_you_mean(mutation, mutations)}")
    return sources
