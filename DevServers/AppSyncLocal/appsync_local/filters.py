"""DynamoDB-style evaluation of Amplify filter, condition and key-condition inputs.

Semantics follow DynamoDB expressions over attribute types (S, N, BOOL, NULL, L, M):
- ``eq``/``ne`` compare type and value; a missing attribute is never equal, so ``ne`` matches it.
- ``le lt ge gt between`` need the same ordered type (number or string); otherwise false.
- ``contains`` is a substring test on strings and a membership test on lists; ``notContains``
  negates it (so a missing attribute matches ``notContains``).
- ``beginsWith`` works on strings; ``size`` on strings (characters), lists and maps.
- ``attributeExists``/``attributeType`` look at presence and the stored type (``_null`` for null).
- Several operators in one field input, and several fields, are ANDed; ``and``/``or``/``not`` nest.
"""

from __future__ import annotations

from typing import Any, Callable

from .errors import DYNAMODB_EXCEPTION, AppSyncError

_MISSING = object()


def attribute_type(value: Any) -> str:
    """The ModelAttributeTypes name of a stored value."""
    if value is None:
        return "_null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    return "map"


def _same_type(left: Any, right: Any) -> bool:
    return attribute_type(left) == attribute_type(right)


def _equal(left: Any, right: Any) -> bool:
    return left is not _MISSING and _same_type(left, right) and left == right


def values_equal(left: Any, right: Any) -> bool:
    """Equality as DynamoDB sees it: same attribute type and value (None is only equal to None)."""
    return _same_type(left, right) and left == right


def _ordered(left: Any, right: Any) -> bool:
    """Both values are numbers, or both strings: the types DynamoDB can order."""
    return left is not _MISSING and _same_type(left, right) and attribute_type(left) in ("number", "string")


def _between(value: Any, bounds: Any, where: str) -> bool:
    if not isinstance(bounds, list) or len(bounds) != 2 or None in bounds:
        raise AppSyncError(f"Invalid {where}: between needs exactly two non-null values, got {bounds!r}",
                           DYNAMODB_EXCEPTION)
    low, high = bounds
    if _ordered(low, high) and low > high:
        raise AppSyncError(f"Invalid {where}: The BETWEEN operator requires upper bound to be greater than "
                           f"or equal to lower bound; lower bound operand: {low!r}, upper bound operand: {high!r}",
                           DYNAMODB_EXCEPTION)
    return _ordered(value, low) and _ordered(value, high) and low <= value <= high


def _contains(value: Any, operand: Any) -> bool:
    if isinstance(value, str):
        return isinstance(operand, str) and operand in value
    if isinstance(value, list):
        return any(_equal(element, operand) for element in value)
    return False


def _size(value: Any) -> int | None:
    if isinstance(value, (str, list, dict)):
        return len(value)
    return None


def compare(op: str, value: Any, operand: Any, where: str = "FilterExpression") -> bool:
    """Apply one comparison operator (``eq ne le lt ge gt between beginsWith``) to a value."""
    if op == "eq":
        return _equal(value, operand)
    if op == "ne":
        return not _equal(value, operand)
    if op == "between":
        return _between(value, operand, where)
    if op == "beginsWith":
        return isinstance(value, str) and isinstance(operand, str) and value.startswith(operand)
    if not _ordered(value, operand):
        return False
    return {"lt": value < operand, "le": value <= operand, "gt": value > operand, "ge": value >= operand}[op]


def field_matches(item: dict, name: str, operators: dict) -> bool:
    """Evaluate one field's operator input (e.g. ``{"gt": 3, "lt": 9}``) against an item."""
    value = item.get(name, _MISSING)
    for op, operand in operators.items():
        if op == "attributeExists":
            if operand is not None and (value is not _MISSING) != operand:
                return False
        elif op == "attributeType":
            if operand is not None and (value is _MISSING or attribute_type(value) != operand):
                return False
        elif op == "size":
            size = None if value is _MISSING else _size(value)
            if operand and (size is None or not all(compare(k, size, v) for k, v in operand.items() if v is not None)):
                return False
        elif op in ("contains", "notContains"):
            if operand is None:
                continue
            found = value is not _MISSING and _contains(value, operand)
            if found != (op == "contains"):
                return False
        elif op in ("eq", "ne") or operand is not None:
            if not compare(op, value, operand):
                return False
    return True


def matches(condition: dict | None, item: dict,
            field_test: Callable[[dict, str, dict], bool] | None = None) -> bool:
    """True when ``item`` satisfies a ``Model<X>FilterInput`` / ``ConditionInput`` value; ``field_test``
    replaces ``field_matches`` for one field's operators (subscription filters have more)."""
    if not condition:
        return True
    test = field_test or field_matches
    for key, value in condition.items():
        if value is None:
            continue
        if key == "and":
            if not all(matches(part, item, test) for part in value if part is not None):
                return False
        elif key == "or":
            parts = [part for part in value if part is not None]
            if parts and not any(matches(part, item, test) for part in parts):
                return False
        elif key == "not":
            if matches(value, item, test):
                return False
        elif not test(item, key, value):
            return False
    return True
    for key, value in condition.items():
        if value is None:
            continue
        if key == "and":
            if not all(matches(part, item) for part in value if part is not None):
                return False
        elif key == "or":
            parts = [part for part in value if part is not None]
            if parts and not any(matches(part, item) for part in parts):
                return False
        elif key == "not":
            if matches(value, item):
                return False
        elif not field_matches(item, key, value):
            return False
    return True


def composite_text(values: list[Any]) -> str:
    """Amplify's composite sort-key attribute: the values joined with ``#``."""
    def text(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)
    return "#".join(text(value) for value in values)


def sort_value(item: dict, sort_keys: list[str]) -> Any:
    """The sort-key value of an item (the attribute itself, or the composite string), or ``None``."""
    values = [item.get(name) for name in sort_keys]
    if any(value is None for value in values):
        return None
    return values[0] if len(values) == 1 else composite_text(values)


def key_operand(operand: Any, sort_keys: list[str]) -> Any:
    """Turn a sort-key condition operand into a comparable value (composite inputs are joined)."""
    if len(sort_keys) == 1:
        return operand
    if isinstance(operand, list):
        return [key_operand(part, sort_keys) for part in operand]
    parts = []
    for name in sort_keys:
        if operand.get(name) is None:
            break
        parts.append(operand[name])
    return composite_text(parts)


def key_matches(value: Any, condition: dict | None, sort_keys: list[str]) -> bool:
    """Evaluate a sort-key condition (``eq le lt ge gt between beginsWith``) on a sort-key value."""
    if not condition:
        return True
    for op, operand in condition.items():
        if operand is None:
            continue
        if not compare(op, value, key_operand(operand, sort_keys), "KeyConditionExpression"):
            return False
    return True
