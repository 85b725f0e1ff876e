"""Verifies AWS Signature Version 4 on incoming requests, as AppSync does for the ``AWS_IAM`` auth mode.

An independent implementation (stdlib ``hashlib``/``hmac`` only) of the published algorithm: the server
recomputes the canonical request from what arrived (method, raw path, query, the headers named in
``SignedHeaders``, the SHA-256 of the body), the string to sign and the signature, and compares it with
the client's in constant time. It also checks the credential scope (day, region, service ``appsync``,
``aws4_request``), that ``x-amz-date`` is within 5 minutes of the server's clock, and the session token of
temporary credentials. Rejections carry AppSync's status, ``errorType`` and message wording.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Iterable
from urllib.parse import parse_qsl, quote

ALGORITHM = "AWS4-HMAC-SHA256"
MAX_SKEW = timedelta(minutes=5)
SIGNATURE_MISMATCH = ("The request signature we calculated does not match the signature you provided. Check your AWS "
                      "Secret Access Key and signing method. Consult the service documentation for details.")


@dataclass(frozen=True)
class IAMCredentials:
    """One access key the server accepts; ``session_token`` makes it temporary (the token is then required)."""

    access_key_id: str
    secret_access_key: str
    session_token: str | None = None

    @staticmethod
    def parse(text: str) -> "IAMCredentials":
        """``ACCESS_KEY_ID:SECRET`` or ``ACCESS_KEY_ID:SECRET:SESSION_TOKEN``."""
        parts = text.split(":", 2)
        if len(parts) < 2 or not parts[0] or not parts[1]:
            raise ValueError("expected ACCESS_KEY_ID:SECRET or ACCESS_KEY_ID:SECRET:SESSION_TOKEN")
        return IAMCredentials(parts[0], parts[1], parts[2] if len(parts) == 3 and parts[2] else None)


class SigV4Rejection(Exception):
    """Why a request is refused: the HTTP status, AppSync ``errorType`` and message."""

    def __init__(self, status: int, error_type: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.error_type = error_type
        self.message = message


def canonical_uri(raw_path: str) -> str:
    """The path as received, each segment percent-encoded once more (every service but S3)."""
    path = raw_path.split("?", 1)[0] or "/"
    return "/".join(quote(segment, safe="~") for segment in path.split("/"))


def canonical_query(raw_path: str) -> str:
    """Parameters decoded, re-encoded with only unreserved characters kept, sorted by name then value."""
    if "?" not in raw_path:
        return ""
    pairs = parse_qsl(raw_path.split("?", 1)[1], keep_blank_values=True)
    encoded = sorted((quote(name, safe="~"), quote(value, safe="~")) for name, value in pairs)
    return "&".join(f"{name}={value}" for name, value in encoded)


def canonical_header_value(values: Iterable[str]) -> str:
    """Each value trimmed with runs of whitespace made one space; several values joined by commas."""
    return ",".join(re.sub(r"\s+", " ", value.strip()) for value in values)


def canonical_request(method: str, raw_path: str, headers: list[tuple[str, str]], signed_headers: list[str],
                      body: bytes) -> str:
    """The canonical request over ``signed_headers`` (lowercase, sorted) of ``headers`` as received."""
    lines = []
    for name in signed_headers:
        values = [value for header, value in headers if header.lower() == name]
        lines.append(f"{name}:{canonical_header_value(values)}\n")
    return "\n".join([method.upper(), canonical_uri(raw_path), canonical_query(raw_path), "".join(lines),
                      ";".join(signed_headers), hashlib.sha256(body).hexdigest()])


def string_to_sign(amz_date: str, scope: str, canonical: str) -> str:
    return "\n".join([ALGORITHM, amz_date, scope, hashlib.sha256(canonical.encode("utf-8")).hexdigest()])


def signing_key(secret: str, day: str, region: str, service: str) -> bytes:
    key = ("AWS4" + secret).encode("utf-8")
    for part in (day, region, service, "aws4_request"):
        key = hmac.new(key, part.encode("utf-8"), hashlib.sha256).digest()
    return key


def signature(secret: str, day: str, region: str, service: str, to_sign: str) -> str:
    return hmac.new(signing_key(secret, day, region, service), to_sign.encode("utf-8"), hashlib.sha256).hexdigest()


def _header(headers: list[tuple[str, str]], name: str) -> str | None:
    for header, value in headers:
        if header.lower() == name:
            return value
    return None


def _parse_authorization(value: str) -> dict[str, str]:
    fields = {}
    for part in value[len(ALGORITHM):].split(","):
        name, _, content = part.strip().partition("=")
        if name:
            fields[name] = content
    missing = [name for name in ("Credential", "SignedHeaders", "Signature") if not fields.get(name)]
    if missing:
        message = " ".join(f"Authorization header requires '{name}' parameter." for name in missing)
        raise SigV4Rejection(403, "IncompleteSignatureException", message)
    return fields


def _parse_date(amz_date: str) -> datetime:
    try:
        return datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)
    except ValueError:
        raise SigV4Rejection(403, "IncompleteSignatureException",
                             f"Date must be in ISO-8601 'basic format'. Got '{amz_date}'.") from None


def verify(method: str, raw_path: str, headers: list[tuple[str, str]], body: bytes,
           accepted: Iterable[IAMCredentials], region: str, now: datetime, service: str = "appsync") -> IAMCredentials:
    """Checks a request's SigV4 ``Authorization``; returns the matching credentials or raises ``SigV4Rejection``."""
    authorization = _header(headers, "authorization")
    if not authorization:
        raise SigV4Rejection(401, "UnauthorizedException", "Valid authorization header not provided.")
    if not authorization.startswith(ALGORITHM + " "):
        raise SigV4Rejection(401, "UnauthorizedException", "You are not authorized to make this call.")
    fields = _parse_authorization(authorization)
    scope_parts = fields["Credential"].split("/")
    if len(scope_parts) != 5:
        raise SigV4Rejection(403, "IncompleteSignatureException",
                             "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term.")
    key_id, day, scope_region, scope_service, terminator = scope_parts
    credentials = next((c for c in accepted if c.access_key_id == key_id), None)
    if credentials is None:
        raise SigV4Rejection(403, "UnrecognizedClientException", "The security token included in the request is invalid.")
    amz_date = _header(headers, "x-amz-date")
    if not amz_date:
        raise SigV4Rejection(403, "IncompleteSignatureException",
                             "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.")
    when = _parse_date(amz_date)
    if terminator != "aws4_request":
        raise SigV4Rejection(403, "InvalidSignatureException",
                             f"Credential should be scoped with a valid terminator: 'aws4_request', not '{terminator}'.")
    if scope_service != service:
        raise SigV4Rejection(403, "InvalidSignatureException", f"Credential should be scoped to correct service: '{service}'.")
    if scope_region != region:
        raise SigV4Rejection(403, "InvalidSignatureException",
                             f"Credential should be scoped to a valid region, not '{scope_region}'.")
    if day != amz_date[:8]:
        raise SigV4Rejection(403, "InvalidSignatureException",
                             f"Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: "
                             f"'{day}' != '{amz_date[:8]}', from '{amz_date}'.")
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    if when < now - MAX_SKEW:
        earliest = (now - MAX_SKEW).strftime("%Y%m%dT%H%M%SZ")
        raise SigV4Rejection(403, "InvalidSignatureException",
                             f"Signature expired: {amz_date} is now earlier than {earliest} ({stamp} - 5 min.)")
    if when > now + MAX_SKEW:
        latest = (now + MAX_SKEW).strftime("%Y%m%dT%H%M%SZ")
        raise SigV4Rejection(403, "InvalidSignatureException",
                             f"Signature not yet current: {amz_date} is still later than {latest} ({stamp} + 5 min.)")
    signed_headers = fields["SignedHeaders"].split(";")
    if "host" not in signed_headers:
        raise SigV4Rejection(403, "InvalidSignatureException", "'Host' must be a 'SignedHeader' in the AWS Authorization.")
    canonical = canonical_request(method, raw_path, headers, signed_headers, body)
    to_sign = string_to_sign(amz_date, "/".join(scope_parts[1:]), canonical)
    expected = signature(credentials.secret_access_key, day, region, service, to_sign)
    if not hmac.compare_digest(expected.encode(), fields["Signature"].encode()):
        # Like AppSync, say what was expected (this echoes the signed x-amz-security-token, as AppSync does).
        raise SigV4Rejection(403, "InvalidSignatureException",
                             f"{SIGNATURE_MISMATCH}\n\nThe Canonical String for this request should have been\n'{canonical}'"
                             f"\n\nThe String-to-Sign should have been\n'{to_sign}'\n")
    token = _header(headers, "x-amz-security-token")
    if credentials.session_token is not None or token is not None:
        if token is None or credentials.session_token is None or not hmac.compare_digest(
                token.encode(), credentials.session_token.encode()):
            raise SigV4Rejection(403, "UnrecognizedClientException",
                                 "The security token included in the request is invalid.")
    return credentials

