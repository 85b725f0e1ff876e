"""Helpers, constants and fixtures of test_iam_auth.py, shared with other test modules."""

from __future__ import annotations
import pytest
import harness


SCHEMA_EXAMPLES = harness.REPO_ROOT / "schema-examples"


BLOG = SCHEMA_EXAMPLES / "blog.json"


REGION = "eu-west-1"


KEY_ID, SECRET = "AKIDGQLCTEST0001", "sEcReTgqlcE2E/fixedKey+0123456789abcdefgh"


TEMP_ID, TEMP_SECRET, TOKEN = "ASIAGQLCTEMP0001", "tEmPsEcReTgqlcE2E/0123456789abcdefghijkl", "FwoGZXIvYXdzEXAMPLEsessionTOKEN/0123456789+=="


SERVER_ARGS = ("--region", REGION, "--iam-credentials", f"{KEY_ID}:{SECRET}",
               "--iam-credentials", f"{TEMP_ID}:{TEMP_SECRET}:{TOKEN}")


AWS_VARIABLES = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION",
                 "AWS_DEFAULT_REGION", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "AWS_ROLE_ARN",
                 "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
                 "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_STS")


PERMANENT = {"AWS_ACCESS_KEY_ID": KEY_ID, "AWS_SECRET_ACCESS_KEY": SECRET}


TEMPORARY = {"AWS_ACCESS_KEY_ID": TEMP_ID, "AWS_SECRET_ACCESS_KEY": TEMP_SECRET, "AWS_SESSION_TOKEN": TOKEN}


SECRETS = (SECRET, TEMP_SECRET, TOKEN)


def assert_no_secret(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text
        hidden = secret[4:]
        for start in range(0, len(hidden) - 7):
            assert hidden[start:start + 8] not in text, f"a part of a secret leaked: {hidden[start:start + 8]!r}"


@pytest.fixture
def iam_server(start_appsync):
    return start_appsync(BLOG, seed=SCHEMA_EXAMPLES / "blog-seed.json", args=SERVER_ARGS)


@pytest.fixture
def iam(gqlc, iam_server, tmp_path):
    """``iam(*args, env={...})`` runs gqlc on the blog schema against the IAM server, with a clean AWS environment."""
    def run(*args, env=None, endpoint=True, schema=BLOG):
        environment = {name: "" for name in AWS_VARIABLES}
        environment["HOME"] = str(tmp_path)
        environment["AWS_EC2_METADATA_DISABLED"] = "true"
        environment.update(env or {})
        location = ("--endpoint", iam_server.url) if endpoint else ()
        return gqlc("--schema", schema, *location, *args, env=environment)
    run.server = iam_server
    run.home = tmp_path
    return run
