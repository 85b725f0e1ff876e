"""The server's SigV4 verifier: AWS's published example, each rejection AppSync gives, and the running server."""

from __future__ import annotations
import hashlib
from datetime import timedelta
import pytest
from appsync_local import sigv4
from appsync_local.sigv4 import IAMCredentials, verify
from local_app import EXAMPLES
from sigv4_support import (  # noqa: F401 - fixtures among them
    SECRET,
    KEY,
    TEMPORARY,
    NOW,
    HOST,
    BODY,
    QUERY,
    KNIFE,
    AWS_EXAMPLE_HEADERS,
    AWS_EXAMPLE_BODY,
    AWS_EXAMPLE_NOW,
    sign,
    rejection,
    replaced,
    signed_post,
)


def test_the_aws_documentation_example_verifies():
    canonical = sigv4.canonical_request("POST", "/", AWS_EXAMPLE_HEADERS, ["content-type", "host", "x-amz-date"],
                                        AWS_EXAMPLE_BODY)
    assert hashlib.sha256(canonical.encode()).hexdigest() == "3511de7e95d28ecd39e9513b642aee07e54f4941150d8df8bf94b328ef7e55e2"
    assert sigv4.signing_key(SECRET, "20110909", "us-east-1", "iam").hex() == (
        "98f1d889fec4f4421adc522bab0ce1f82e6929c262ed15e5a94c90efd1e3b0e7")
    assert verify("POST", "/", AWS_EXAMPLE_HEADERS, AWS_EXAMPLE_BODY, [KEY], "us-east-1", AWS_EXAMPLE_NOW,
                  service="iam") == KEY


def test_a_changed_body_or_header_breaks_the_signature_and_the_answer_shows_the_canonical_request():
    for headers, body in ((sign(KEY), BODY + b" "), (replaced(sign(KEY), "content-type", "text/plain"), BODY)):
        error = rejection(headers, body)
        assert (error.status, error.error_type) == (403, "InvalidSignatureException")
        assert error.message.startswith(sigv4.SIGNATURE_MISMATCH)
        assert "The Canonical String for this request should have been\n'POST\n/graphql\n" in error.message
    assert verify("POST", "/graphql", sign(KEY), BODY, [KEY], "eu-west-1", NOW) == KEY


def test_header_values_are_trimmed_and_spaces_collapsed():
    headers = replaced(sign(KEY), "content-type", "  application/json  ")
    assert verify("POST", "/graphql", headers, BODY, [KEY], "eu-west-1", NOW) == KEY
    assert sigv4.canonical_header_value(["  a   b\t c ", "d"]) == "a b c,d"


def test_the_clock_may_be_five_minutes_off_but_no_more():
    assert verify("POST", "/graphql", sign(KEY, NOW - timedelta(minutes=5)), BODY, [KEY], "eu-west-1", NOW) == KEY
    assert verify("POST", "/graphql", sign(KEY, NOW + timedelta(minutes=5)), BODY, [KEY], "eu-west-1", NOW) == KEY
    old = rejection(sign(KEY, NOW - timedelta(minutes=5, seconds=1)))
    assert (old.status, old.error_type) == (403, "InvalidSignatureException")
    assert old.message == "Signature expired: 20240315T092459Z is now earlier than 20240315T092500Z (20240315T093000Z - 5 min.)"
    early = rejection(sign(KEY, NOW + timedelta(minutes=6)))
    assert early.message.startswith("Signature not yet current: 20240315T093600Z is still later than")


@pytest.mark.parametrize("kwargs, message", [
    ({"region": "us-east-1"}, "Credential should be scoped to a valid region, not 'us-east-1'."),
    ({"service": "execute-api"}, "Credential should be scoped to correct service: 'appsync'."),
])
def test_the_credential_scope_is_checked(kwargs, message):
    error = rejection(sign(KEY, **kwargs))
    assert (error.status, error.error_type, error.message) == (403, "InvalidSignatureException", message)


def test_unknown_keys_and_wrong_session_tokens_are_unrecognized_clients():
    for headers in (sign(IAMCredentials("AKIDUNKNOWN", SECRET)),
                    sign(IAMCredentials("ASIAEXAMPLE", "tempSecret", "another-token")),
                    sign(IAMCredentials("ASIAEXAMPLE", "tempSecret"))):
        error = rejection(headers)
        assert (error.status, error.error_type, error.message) == (
            403, "UnrecognizedClientException", "The security token included in the request is invalid.")
    assert verify("POST", "/graphql", sign(TEMPORARY), BODY, [KEY, TEMPORARY], "eu-west-1", NOW) == TEMPORARY


def test_missing_or_incomplete_authorization():
    unsigned = [(n, v) for n, v in sign(KEY) if n != "Authorization"]
    assert (rejection(unsigned).status, rejection(unsigned).error_type) == (401, "UnauthorizedException")
    incomplete = unsigned + [("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240315/eu-west-1/appsync/aws4_request")]
    error = rejection(incomplete)
    assert (error.status, error.error_type) == (403, "IncompleteSignatureException")
    assert "requires 'Signature' parameter" in error.message and "requires 'SignedHeaders' parameter" in error.message
    no_date = [(n, v) for n, v in sign(KEY) if n != "X-Amz-Date"]
    assert rejection(no_date).error_type == "IncompleteSignatureException"


def test_paths_and_queries_are_canonicalised():
    assert sigv4.canonical_uri("/a%20b/c~d?x=1") == "/a%2520b/c~d"
    assert sigv4.canonical_uri("") == "/"
    assert sigv4.canonical_query("/p?b=2&a=x%2Fy&a=1&c") == "a=1&a=x%2Fy&b=2&c="


def test_credentials_option_syntax():
    assert IAMCredentials.parse("AKID:se:cret") == IAMCredentials("AKID", "se", "cret")
    assert IAMCredentials.parse("AKID:secret") == IAMCredentials("AKID", "secret")
    for bad in ("AKID", ":secret", "AKID:"):
        with pytest.raises(ValueError):
            IAMCredentials.parse(bad)


def test_the_server_requires_a_valid_signature(start_appsync):
    server = start_appsync(EXAMPLES / "blog.json", seed=EXAMPLES / "blog-seed.json",
                           args=["--iam-credentials", f"{KEY.access_key_id}:{SECRET}",
                                 "--iam-credentials", "ASIAEXAMPLE:tempSecret:session-token-value"])
    assert signed_post(server, KEY) == (200, KNIFE)
    assert signed_post(server, TEMPORARY) == (200, KNIFE)
    status, body = signed_post(server, IAMCredentials(KEY.access_key_id, "wrong"))
    assert status == 403 and body["errors"][0]["errorType"] == "InvalidSignatureException"
    status, body = signed_post(server, KEY, region="eu-west-1")
    assert status == 403 and "valid region" in body["errors"][0]["message"]
    status, body = server.post(QUERY)
    assert (status, body["errors"][0]["errorType"]) == (401, "UnauthorizedException")


def test_with_an_api_key_too_either_is_accepted(start_appsync):
    server = start_appsync(EXAMPLES / "blog.json", seed=EXAMPLES / "blog-seed.json", api_key="da2-secret",
                           args=["--iam-credentials", f"{KEY.access_key_id}:{SECRET}", "--region", "eu-west-1"])
    assert server.post(QUERY) == (200, KNIFE)
    assert signed_post(server, KEY, region="eu-west-1", extra={"x-api-key": ""}) == (200, KNIFE)
    assert server.post(QUERY, headers={"x-api-key": "da2-wrong"})[0] == 401
    assert server.post(QUERY, headers={"x-api-key": ""})[0] == 401
