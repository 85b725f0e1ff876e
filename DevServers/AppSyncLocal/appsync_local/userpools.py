"""Cognito user-pool auth as AppSync does it: the raw JWT in ``Authorization``, verified against the pool's JWKS.

The JWKS comes from the URL the server is given (moto's ``/<pool>/.well-known/jwks.json`` in tests), never from the
token's ``iss``. A token is accepted when it is RS256 with a known ``kid`` and a valid signature (RSASSA-PKCS1-v1_5
with SHA-256, checked here with Python integers), ``exp`` is after the server's clock, ``iss`` is
``https://cognito-idp.<region>.amazonaws.com/<pool>`` and ``token_use`` is ``id`` or ``access``. Refusals are
AppSync's 401 ``UnauthorizedException`` bodies.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

# DER prefix of DigestInfo for SHA-256 (RFC 8017 §9.2, note 1).
SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")


class TokenRejection(Exception):
    """Why a token was refused: AppSync's 401 message."""


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class UserPoolVerifier:
    """Verifies user-pool JWTs for one pool; ``clock`` gives "now" (injectable for expiry tests)."""

    pool_id: str
    jwks_url: str
    clock: Callable[[], datetime]
    _keys: dict = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def issuer(self) -> str:
        region = self.pool_id.split("_", 1)[0]
        return f"https://cognito-idp.{region}.amazonaws.com/{self.pool_id}"

    def _key(self, kid: str) -> tuple[int, int] | None:
        with self._lock:
            if kid not in self._keys:
                opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
                with opener.open(self.jwks_url, timeout=10) as response:
                    document = json.load(response)
                for key in document.get("keys", []):
                    if key.get("kty") == "RSA":
                        self._keys[key["kid"]] = (int.from_bytes(_b64url(key["n"]), "big"),
                                                  int.from_bytes(_b64url(key["e"]), "big"))
            return self._keys.get(kid)

    def verify(self, token: str) -> dict:
        """The token's claims; raises ``TokenRejection`` with AppSync's message."""
        try:
            header_text, payload_text, signature_text = token.split(".")
            header = json.loads(_b64url(header_text))
            claims = json.loads(_b64url(payload_text))
            signature = int.from_bytes(_b64url(signature_text), "big")
        except (ValueError, TypeError):
            raise TokenRejection("Unable to parse JWT token.") from None
        if not isinstance(header, dict) or not isinstance(claims, dict) or header.get("alg") != "RS256":
            raise TokenRejection("Unable to parse JWT token.")
        key = self._key(str(header.get("kid")))
        if key is None:
            raise TokenRejection("You are not authorized to make this call.")
        modulus, exponent = key
        size = (modulus.bit_length() + 7) // 8
        digest = hashlib.sha256(f"{header_text}.{payload_text}".encode()).digest()
        expected = b"\x00\x01" + b"\xff" * (size - 3 - len(SHA256_DIGEST_INFO) - len(digest)) + b"\x00" \
            + SHA256_DIGEST_INFO + digest
        if signature >= modulus or pow(signature, exponent, modulus).to_bytes(size, "big") != expected:
            raise TokenRejection("You are not authorized to make this call.")
        if not isinstance(claims.get("exp"), (int, float)) or self.clock().timestamp() >= claims["exp"]:
            raise TokenRejection("Token has expired.")
        if claims.get("iss") != self.issuer or claims.get("token_use") not in ("id", "access"):
            raise TokenRejection("You are not authorized to make this call.")
        return claims


def clock_from_file(path: str | None, fallback: Callable[[], datetime]) -> Callable[[], datetime]:
    """A clock that reads Unix seconds from ``path`` when the file exists (tests move time by writing it)."""
    if not path:
        return fallback

    def now() -> datetime:
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read().strip()
        except FileNotFoundError:
            return fallback()
        return datetime.fromtimestamp(float(text), fallback().tzinfo) if text else fallback()
    return now
