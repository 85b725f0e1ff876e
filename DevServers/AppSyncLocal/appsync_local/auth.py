"""The API-key / IAM decision shared by the HTTP endpoint and the real-time endpoint.

With ``api_key`` the ``x-api-key`` header must match; with ``iam_credentials`` the request must be
signed with SigV4 for ``iam_region`` (see ``sigv4``). With both, either is accepted, as on an AppSync
API with an additional auth mode: a request with ``x-api-key`` is checked as an API-key request,
any other as IAM. With ``sts_url`` (moto-local's URL) the temporary credentials moto's STS issued
(``AssumeRole``, ``AssumeRoleWithWebIdentity``) are accepted too, read from moto's documented state
endpoint ``/moto-api/data.json`` (its ``sts.AssumedRole`` records: key id, secret, session token), as
AppSync accepts credentials STS issued. Over HTTP the headers are the request's; over the real-time endpoint they are the
auth "header" object the client sends (see ``realtime``).
"""

from __future__ import annotations

import hmac
import json
import urllib.request
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Iterable

from .rules import Identity
from .sigv4 import IAMCredentials, SigV4Rejection, verify
from .userpools import TokenRejection, UserPoolVerifier


@dataclass(frozen=True)
class AuthPolicy:
    """What a request must carry."""

    api_key: str | None
    iam_credentials: tuple[IAMCredentials, ...]
    iam_region: str
    sts_url: str | None = None
    user_pool: UserPoolVerifier | None = None

    @property
    def signs(self) -> bool:
        """Whether IAM (SigV4) requests are accepted."""
        return bool(self.iam_credentials) or self.sts_url is not None

    def accepted(self) -> tuple[IAMCredentials, ...]:
        """The fixed keys and, with ``sts_url``, every key moto's STS has issued so far."""
        if self.sts_url is None:
            return self.iam_credentials
        return self.iam_credentials + sts_issued(self.sts_url)


def sts_issued(sts_url: str) -> tuple[IAMCredentials, ...]:
    """The temporary credentials moto has issued, from ``GET /moto-api/data.json`` (``sts`` → ``AssumedRole``)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(sts_url.rstrip("/") + "/moto-api/data.json", timeout=10) as response:
        data = json.loads(response.read())
    roles = data.get("sts", {}).get("AssumedRole", [])
    return tuple(IAMCredentials(role["access_key_id"], role["secret_access_key"], role["session_token"])
                 for role in roles)


@dataclass(frozen=True)
class Refusal:
    """Why a request was refused, as AppSync says it: HTTP status, errorType and message."""

    status: int
    error_type: str
    message: str


def header_value(headers: Iterable[tuple[str, str]], name: str) -> str | None:
    """The first value of a header, by case-insensitive name."""
    return next((value for key, value in headers if key.lower() == name), None)


def authorize(policy: AuthPolicy, method: str, raw_path: str, headers: list[tuple[str, str]], body: bytes,
              now: datetime, on_verified: Callable[[str], None] | None = None) -> Refusal | None:
    """None when the request may proceed; otherwise the refusal. ``on_verified`` gets the key id of a verified
    SigV4 signature."""
    given_key = header_value(headers, "x-api-key")
    if policy.api_key is not None and (given_key or not policy.signs):
        if not given_key:
            return Refusal(401, "UnauthorizedException", "Valid authorization header not provided.")
        if not hmac.compare_digest(given_key.encode(), policy.api_key.encode()):
            return Refusal(401, "UnauthorizedException", "You are not authorized to make this call.")
        return None
    if policy.signs:
        try:
            verified = verify(method, raw_path, headers, body, policy.accepted(), policy.iam_region, now)
        except SigV4Rejection as rejection:
            return Refusal(rejection.status, rejection.error_type, rejection.message)
        if on_verified is not None:
            on_verified(verified.access_key_id)
    return None


def identify(policy: AuthPolicy, method: str, raw_path: str, headers: list[tuple[str, str]], body: bytes,
             now: datetime, on_verified: Callable[[str], None] | None = None) -> tuple[Refusal | None, Identity | None]:
    """The refusal, or who is calling. Without a user pool there is no identity (rules are not enforced).

    With one, a request whose ``Authorization`` is not a SigV4 signature is a user-pool request (its JWT is
    verified); others are checked as before and identified as ``apiKey`` or ``iam`` callers.
    """
    authorization = header_value(headers, "authorization")
    if policy.user_pool is not None and authorization and not authorization.startswith("AWS4-HMAC-SHA256"):
        try:
            return None, Identity("userPools", policy.user_pool.verify(authorization))
        except TokenRejection as rejection:
            return Refusal(401, "UnauthorizedException", str(rejection)), None
    if policy.user_pool is not None and not authorization and not header_value(headers, "x-api-key"):
        return Refusal(401, "UnauthorizedException", "Valid authorization header not provided."), None
    refusal = authorize(policy, method, raw_path, headers, body, now, on_verified)
    if refusal is not None or policy.user_pool is None:
        return refusal, None
    return None, Identity("apiKey" if header_value(headers, "x-api-key") else "iam")
