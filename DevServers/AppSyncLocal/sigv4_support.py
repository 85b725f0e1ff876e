"""Helpers, constants and fixtures of test_appsync_sigv4.py, shared with other test modules."""

from __future__ import annotations
import json
from datetime import datetime, timezone
import pytest
from appsync_local import sigv4
from appsync_local.sigv4 import IAMCredentials, SigV4Rejection, verify


SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"


KEY = IAMCredentials("AKIDEXAMPLE", SECRET)


TEMPORARY = IAMCredentials("ASIAEXAMPLE", "tempSecret", "session-token-value")


NOW = datetime(2024, 3, 15, 9, 30, tzinfo=timezone.utc)


HOST = "abc.appsync-api.eu-west-1.amazonaws.com"


BODY = b'{"query":"{ listPosts { items { id } } }"}'


QUERY = {"query": '{ getPost(id: "p2") { title } }'}


KNIFE = {"data": {"getPost": {"title": "Choosing a first chef's knife"}}}


AWS_EXAMPLE_HEADERS = [
    ("Content-type", "application/x-www-form-urlencoded; charset=utf-8"),
    ("host", "iam.amazonaws.com"),
    ("x-amz-date", "20110909T233600Z"),
    ("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20110909/us-east-1/iam/aws4_request, "
                      "SignedHeaders=content-type;host;x-amz-date, "
                      "Signature=ced6826de92d2bdeed8f846f0bf508e8559e98e4b0199114b84c54174deb456c"),
]


AWS_EXAMPLE_BODY = b"Action=ListUsers&Version=2010-05-08"


AWS_EXAMPLE_NOW = datetime(2011, 9, 9, 23, 36, tzinfo=timezone.utc)


def sign(credentials: IAMCredentials, when: datetime = NOW, region: str = "eu-west-1", service: str = "appsync",
         body: bytes = BODY, host: str = HOST, path: str = "/graphql") -> list[tuple[str, str]]:
    """Headers of a request signed the way gqlc signs it (content-type, host, x-amz-*)."""
    amz_date = when.strftime("%Y%m%dT%H%M%SZ")
    headers = [("Content-Type", "application/json"), ("Host", host), ("X-Amz-Date", amz_date)]
    if credentials.session_token:
        headers.append(("X-Amz-Security-Token", credentials.session_token))
    signed = sorted(name.lower() for name, _ in headers)
    scope = f"{amz_date[:8]}/{region}/{service}/aws4_request"
    canonical = sigv4.canonical_request("POST", path, headers, signed, body)
    signature = sigv4.signature(credentials.secret_access_key, amz_date[:8], region, service,
                                sigv4.string_to_sign(amz_date, scope, canonical))
    headers.append(("Authorization", f"{sigv4.ALGORITHM} Credential={credentials.access_key_id}/{scope}, "
                                     f"SignedHeaders={';'.join(signed)}, Signature={signature}"))
    return headers


def rejection(headers, body=BODY, now=NOW, accepted=(KEY, TEMPORARY), region="eu-west-1") -> SigV4Rejection:
    with pytest.raises(SigV4Rejection) as caught:
        verify("POST", "/graphql", headers, body, accepted, region, now)
    return caught.value


def replaced(headers, name, value):
    return [(n, value if n.lower() == name else v) for n, v in headers]


def signed_post(server, credentials: IAMCredentials, payload=QUERY, region="us-east-1", extra=None):
    body = json.dumps(payload).encode()
    host = f"{server.host}:{server.port}"
    headers = dict(sign(credentials, datetime.now(timezone.utc), region=region, body=body, host=host))
    headers.pop("Host")
    headers.update(extra or {})
    return server.post(None, raw=body, headers=headers)
