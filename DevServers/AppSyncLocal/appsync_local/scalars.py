"""Validation and serialization of the AWS AppSync scalars.

Parsers raise ``ValueError``; graphql-core turns that into a located validation error (literals) or
a variable-coercion error naming the expected type.

Rules (AppSync scalar reference): AWSDate ``YYYY-MM-DD``, AWSTime ``hh:mm[:ss[.s…]]`` and
AWSDateTime ``YYYY-MM-DDThh:mm[:ss[.s…]]`` with a time-zone offset (``Z`` or ``±hh:mm[:ss]``),
optional on AWSDate/AWSTime and compulsory on AWSDateTime; AWSTimestamp is an Int of epoch
seconds; AWSJSON is a string holding JSON (stored parsed, returned re-serialized as a string);
AWSEmail ``local@domain``; AWSURL needs a scheme; AWSPhone digits with optional ``+``, spaces,
hyphens, dots and parentheses; AWSIPAddress an IPv4/IPv6 address, optionally with a prefix length.
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import re
from typing import Any, Callable

from graphql import GraphQLSchema, IntValueNode, StringValueNode, ValueNode

_OFFSET = r"(Z|[+-](\d{2}):(\d{2})(:(\d{2}))?)"
_TIME = r"(\d{2}):(\d{2})(:(\d{2})(\.\d{1,9})?)?"
_DATE = r"(-?\d{4})-(\d{2})-(\d{2})"
# Whole-string matches over ASCII digits: ``$`` would also match before a final newline, and ``\d`` any
# Unicode digit, both laxer than AppSync.
_DATE_RE = re.compile(rf"{_DATE}{_OFFSET}?", re.ASCII)
_TIME_RE = re.compile(rf"{_TIME}{_OFFSET}?", re.ASCII)
_DATETIME_RE = re.compile(rf"{_DATE}T{_TIME}{_OFFSET}", re.ASCII)
_EMAIL_RE = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_URL_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]+")
_PHONE_RE = re.compile(r"\+?[0-9 ().-]{3,}")
_PREFIX_RE = re.compile(r"0|[1-9][0-9]{0,2}", re.ASCII)


def _valid_offset(match: re.Match, first: int) -> bool:
    """The offset groups starting at ``first`` (whole, hours, minutes, :seconds, seconds) are in range."""
    hours, minutes, seconds = match.group(first + 1, first + 2, first + 4)
    if hours is None:
        return True
    return int(hours) < 24 and int(minutes) < 60 and (seconds is None or int(seconds) < 60)


def _valid_date(year: str, month: str, day: str) -> bool:
    try:
        datetime.date(abs(int(year)) or 1, int(month), int(day))
        return True
    except ValueError:
        return False


def _valid_time(hours: str, minutes: str, seconds: str | None) -> bool:
    return int(hours) < 24 and int(minutes) < 60 and (seconds is None or int(seconds) < 60)


def check_date(value: str) -> bool:
    """AWSDate: ``YYYY-MM-DD`` with an optional offset."""
    match = _DATE_RE.fullmatch(value)
    return bool(match) and _valid_date(*match.group(1, 2, 3)) and _valid_offset(match, 4)


def check_time(value: str) -> bool:
    """AWSTime: ``hh:mm[:ss[.fraction]]`` with an optional offset."""
    match = _TIME_RE.fullmatch(value)
    return bool(match) and _valid_time(match.group(1), match.group(2), match.group(4)) and _valid_offset(match, 6)


def check_datetime(value: str) -> bool:
    """AWSDateTime: date ``T`` time with a compulsory offset."""
    match = _DATETIME_RE.fullmatch(value)
    return bool(match) and _valid_date(*match.group(1, 2, 3)) and _valid_time(
        match.group(4), match.group(5), match.group(7)) and _valid_offset(match, 9)


def check_url(value: str) -> bool:
    """AWSURL: a scheme, a host after ``//`` if present, and no ``//`` in the path."""
    if not _URL_RE.fullmatch(value):
        return False
    rest = value.partition(":")[2]
    if rest.startswith("//"):
        host, slash, path = rest[2:].partition("/")
        if not host:
            return False
        rest = slash + path
    return "//" not in rest.split("?", 1)[0]


def check_ip(value: str) -> bool:
    """AWSIPAddress: IPv4 (dotted quad) or IPv6 (no brackets, no zone), optionally with a decimal prefix length."""
    address, slash, prefix = value.partition("/")
    if "%" in address or (slash and not _PREFIX_RE.fullmatch(prefix)):
        return False
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not slash or int(prefix) <= parsed.max_prefixlen


def check_phone(value: str) -> bool:
    """AWSPhone: digits with an optional ``+`` and spaces, hyphens, dots or parentheses."""
    return bool(_PHONE_RE.fullmatch(value)) and sum(c.isdigit() for c in value) >= 3


STRING_CHECKS: dict[str, Callable[[str], bool]] = {
    "AWSDate": check_date,
    "AWSTime": check_time,
    "AWSDateTime": check_datetime,
    "AWSEmail": lambda v: bool(_EMAIL_RE.fullmatch(v)),
    "AWSURL": check_url,
    "AWSPhone": check_phone,
    "AWSIPAddress": check_ip,
}


def _string_parser(name: str, check: Callable[[str], bool]) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        if not isinstance(value, str) or not check(value):
            raise ValueError(f"Invalid {name} value: {json.dumps(value)}")
        return value
    return parse


def parse_json(value: Any) -> Any:
    """AWSJSON input: a string that holds JSON; returns the parsed value."""
    if not isinstance(value, str):
        raise ValueError(f"Invalid AWSJSON value: expected a JSON-encoded string, got {json.dumps(value)}")
    try:
        return json.loads(value)
    except json.JSONDecodeError as error:
        raise ValueError(f"Invalid AWSJSON value: {error.msg} at character {error.pos}") from None


def serialize_json(value: Any) -> str:
    """AWSJSON output: always a string."""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def parse_timestamp(value: Any) -> int:
    """AWSTimestamp input: an integer of epoch seconds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"Invalid AWSTimestamp value: {json.dumps(value)}; expected an integer of epoch seconds")
    return value


def _literal(parse: Callable[[Any], Any], node_type: type) -> Callable[..., Any]:
    def parse_literal(node: ValueNode, _variables: Any = None) -> Any:
        if not isinstance(node, node_type):
            raise ValueError(f"expected {'a string' if node_type is StringValueNode else 'an integer'} literal")
        return parse(int(node.value) if node_type is IntValueNode else node.value)
    return parse_literal


def install_scalars(schema: GraphQLSchema) -> None:
    """Attach parse/serialize functions to the AWS scalars of a schema built from SDL."""
    for name, check in STRING_CHECKS.items():
        scalar = schema.type_map.get(name)
        if scalar is not None:
            scalar.parse_value = _string_parser(name, check)
            scalar.parse_literal = _literal(scalar.parse_value, StringValueNode)
            scalar.serialize = str
    if "AWSJSON" in schema.type_map:
        scalar = schema.type_map["AWSJSON"]
        scalar.parse_value = parse_json
        scalar.parse_literal = _literal(parse_json, StringValueNode)
        scalar.serialize = serialize_json
    if "AWSTimestamp" in schema.type_map:
        scalar = schema.type_map["AWSTimestamp"]
        scalar.parse_value = parse_timestamp
        scalar.parse_literal = _literal(parse_timestamp, IntValueNode)
        scalar.serialize = int
