"""IAM (SigV4) auth end to end: the built gqlc against appsync-local, which verifies every signature with
its own Python implementation (DevServers/AppSyncLocal/appsync_local/sigv4.py). No HTTP mocks.

Every run gets an empty ``HOME`` and blank ``AWS_*`` variables, so nothing from the machine leaks in."""

from __future__ import annotations
import json
import re
import pytest
from iam_support import (  # noqa: F401 - fixtures among them
    SCHEMA_EXAMPLES,
    BLOG,
    REGION,
    KEY_ID,
    SECRET,
    TEMP_ID,
    TEMP_SECRET,
    TOKEN,
    SERVER_ARGS,
    AWS_VARIABLES,
    PERMANENT,
    TEMPORARY,
    SECRETS,
    assert_no_secret,
    iam_server,
    iam,
)


def test_get_list_and_create_with_keys_from_the_environment(iam):
    env = {**PERMANENT, "AWS_REGION": REGION}
    got = iam("--iam", "get", "Post", "--id", "p2", env=env)
    assert got.code == 0, got
    assert got.json()["title"] == "Choosing a first chef's knife"
    listed = iam("--iam", "list", "Post", "--limit", "3", "--page-size", "2", env=env)
    assert listed.code == 0, listed
    assert len(listed.json()) == 3
    created = iam("--iam", "create", "Blog", "name=Signed", env=env)
    assert created.code == 0, created
    assert created.json()["name"] == "Signed"


def test_raw_with_a_session_token_from_the_environment(iam, gqlc, iam_server, tmp_path):
    env = {name: "" for name in AWS_VARIABLES} | TEMPORARY | {"HOME": str(tmp_path)}
    run = gqlc("--endpoint", iam_server.url, "--iam", "--region", REGION, "raw", "-",
               stdin='{ getPost(id: "p2") { title } }', env=env)
    assert run.code == 0, run
    assert run.json() == {"getPost": {"title": "Choosing a first chef's knife"}}


def test_credentials_file_with_profile(iam):
    credentials = iam.home / "creds.ini"
    credentials.write_text(
        "# test credentials\n[default]\naws_access_key_id = AKIDNOTACCEPTED\naws_secret_access_key = nope\n\n"
        f"; the admin profile holds temporary credentials\n[admin]\naws_access_key_id = {TEMP_ID}\n"
        f"aws_secret_access_key = {TEMP_SECRET}\naws_session_token = {TOKEN}\n")
    env = {"AWS_SHARED_CREDENTIALS_FILE": str(credentials), "AWS_REGION": REGION}
    run = iam("--iam", "--profile", "admin", "get", "Post", "--id", "p2", env=env)
    assert run.code == 0, run
    # --profile wins over keys in the environment, as with the AWS CLI.
    run = iam("--iam", "--profile", "admin", "get", "Post", "--id", "p2", env={**env, "AWS_ACCESS_KEY_ID": "AKIDX",
                                                                              "AWS_SECRET_ACCESS_KEY": "x"})
    assert run.code == 0, run
    # Without --profile, AWS_PROFILE picks it; the default profile's key is refused by the server.
    assert iam("--iam", "get", "Post", "--id", "p2", env={**env, "AWS_PROFILE": "admin"}).code == 0
    refused = iam("--iam", "get", "Post", "--id", "p2", env=env)
    assert refused.code == 5 and "UnrecognizedClientException" in refused.stderr, refused
    # --profile alone means IAM, as AWS CLI users expect; with an API key or token it is a clash, not ignored.
    alone = iam("--profile", "admin", "get", "Post", "--id", "p2", env=env)
    assert (alone.code, alone.stderr) == (0, ""), alone
    assert alone.json()["title"] == "Choosing a first chef's knife"
    for auth, shown in ((("--api-key", "k"), "'--api-key'"), (("--auth-token", "t"), "'--auth-token'")):
        clash = iam("--profile", "admin", *auth, "get", "Post", "--id", "p2", env=env)
        assert (clash.code, clash.stdout) == (2, ""), clash
        assert clash.stderr_lines == [f"gqlc: --profile takes IAM (SigV4) credentials, but {shown} chooses another "
                                      "auth; leave out one of them"]
    from_env = iam("--profile", "admin", "get", "Post", "--id", "p2", env={**env, "GQLC_API_KEY": "k"})
    assert from_env.stderr_lines == ["gqlc: --profile takes IAM (SigV4) credentials, but $GQLC_API_KEY chooses "
                                     "another auth; leave out one of them"], from_env


def test_the_default_credentials_file_is_in_home(iam):
    (iam.home / ".aws").mkdir()
    (iam.home / ".aws" / "credentials").write_text(
        f"[default]\naws_access_key_id={KEY_ID}\naws_secret_access_key={SECRET}\n")
    run = iam("--iam", "--region", REGION, "get", "Post", "--id", "p2")
    assert run.code == 0, run


@pytest.mark.parametrize("legacy", [False, True], ids=["amplify_outputs", "legacy_config"])
def test_iam_is_automatic_when_the_config_file_says_aws_iam(iam, legacy):
    mis = json.loads(BLOG.read_text())
    if legacy:
        schema = iam.home / "amplifyconfiguration.json"
        schema.write_text(json.dumps({
            "aws_appsync_graphqlEndpoint": iam.server.url, "aws_appsync_region": REGION,
            "aws_appsync_authenticationType": "AWS_IAM", "modelIntrospection": mis}))
    else:
        schema = iam.home / "amplify_outputs.json"
        schema.write_text(json.dumps({"version": "1.3", "data": {
            "url": iam.server.url, "aws_region": REGION, "api_key": "da2-notusedwithiamauth0000",
            "default_authorization_type": "AWS_IAM", "authorization_types": ["API_KEY"],
            "model_introspection": mis}}))
    run = iam("get", "Post", "--id", "p2", "--verbose", env=PERMANENT, endpoint=False, schema=schema)
    assert run.code == 0, run
    assert "> Authorization: AWS4…████" in run.stderr_lines
    assert not any(line.startswith("> x-api-key") for line in run.stderr_lines)
    # An explicit API key wins over the file's IAM default (this server then refuses the unsigned request).
    keyed = iam("--api-key", "da2-explicitkey000000000", "get", "Post", "--id", "p2", env=PERMANENT, endpoint=False,
                schema=schema)
    assert keyed.code == 5 and "HTTP 401" in keyed.stderr, keyed


def test_a_wrong_secret_is_exit_5_with_one_clean_line(iam):
    # With temporary credentials the server's mismatch message echoes the canonical request, token included.
    env = {**TEMPORARY, "AWS_SECRET_ACCESS_KEY": "WRONGsecretWRONGsecretWRONGsecret0000", "AWS_REGION": REGION}
    run = iam("--iam", "get", "Post", "--id", "p2", env=env)
    assert run.code == 5, run
    assert len(run.stderr_lines) == 1
    line = run.stderr_lines[0]
    assert line.startswith("gqlc: HTTP 403 Forbidden: InvalidSignatureException: The request signature we calculated")
    assert line.endswith("; check the AWS credentials (from the environment ($AWS_ACCESS_KEY_ID)), the region "
                         "(--region) and the system clock, and that the API allows IAM auth"), line
    assert_no_secret(run.stdout + run.stderr)
    assert "WRONGsecret" not in run.stderr


def test_missing_credentials_say_where_gqlc_looked(iam):
    run = iam("--iam", "--region", REGION, "get", "Post", "--id", "p2")
    assert run.code == 2, run
    assert run.stderr_lines == [
        "gqlc: no AWS credentials for IAM auth: looked in $AWS_ACCESS_KEY_ID and $AWS_SECRET_ACCESS_KEY (not set), "
        f"$AWS_WEB_IDENTITY_TOKEN_FILE (not set), profile 'default' in {iam.home}/.aws/config and "
        f"{iam.home}/.aws/credentials (no such profile), the container endpoint "
        "($AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI not set) and the instance metadata service "
        "(disabled by $AWS_EC2_METADATA_DISABLED); set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or pass "
        "--profile NAME with a shared credentials file"]


def test_missing_region_says_where_gqlc_looked(iam):
    run = iam("--iam", "get", "Post", "--id", "p2", env=PERMANENT)
    assert run.code == 2, run
    assert run.stderr_lines == [
        "gqlc: no AWS region for IAM auth: looked in --region, the endpoint host 127.0.0.1 (not an AppSync host), "
        f"{BLOG} (no region), profile 'default' in {iam.home}/.aws/config (no region), $AWS_REGION and "
        "$AWS_DEFAULT_REGION; pass --region REGION or set AWS_REGION"]


def test_a_malformed_credentials_file_names_file_and_line_but_not_the_line(iam):
    credentials = iam.home / "creds"
    credentials.write_text(f"[default]\naws_access_key_id = {KEY_ID}\naws_secret_access_key {SECRET}\n")
    run = iam("--iam", "--region", REGION, "get", "Post", "--id", "p2",
              env={"AWS_SHARED_CREDENTIALS_FILE": str(credentials)})
    assert run.code == 2, run
    assert run.stderr_lines == [f"gqlc: {credentials}:3: expected 'name = value', a '[profile]' header or a comment"]
    assert_no_secret(run.stderr)


def test_verbose_shows_signed_headers_redacted(iam):
    run = iam("--iam", "--verbose", "get", "Post", "--id", "p2", env={**TEMPORARY, "AWS_REGION": REGION})
    assert run.code == 0, run
    lines = run.stderr_lines
    assert any(re.fullmatch(r"> X-Amz-Date: \d{8}T\d{6}Z", line) for line in lines)
    assert "> X-Amz-Security-Token: FwoG…████" in lines
    assert "> Authorization: AWS4…████" in lines
    assert_no_secret(run.stdout + run.stderr)


def test_a_retried_request_is_signed_again_and_authenticates(start_appsync, gqlc, tmp_path):
    server = start_appsync(BLOG, seed=SCHEMA_EXAMPLES / "blog-seed.json", args=(*SERVER_ARGS, "--fail-every", "2"))
    env = {name: "" for name in AWS_VARIABLES} | TEMPORARY | {"HOME": str(tmp_path), "AWS_REGION": REGION}
    # Pages 1 and 3 pass; page 2's first attempt gets the injected 500 and its retry must verify again.
    run = gqlc("--schema", BLOG, "--endpoint", server.url, "--iam", "--verbose", "list", "Post", "--page-size", "2",
               "--limit", "4", env=env)
    assert run.code == 0, run
    assert len(run.json()) == 4
    assert any("retry 1 of 3" in line.lower() or "retry 1/3" in line.lower() for line in run.stderr_lines), run.stderr
    assert sum(line.startswith("> Authorization: AWS4") for line in run.stderr_lines) == 3
    assert_no_secret(run.stderr)


def test_iam_and_an_api_key_on_the_command_line_clash(iam):
    run = iam("--iam", "--api-key", "da2-abcdefghijklmnopqrstu", "get", "Post", "--id", "p2", env=PERMANENT)
    assert run.code == 2, run
    assert run.stderr_lines == ["gqlc: '--iam' and '--api-key' cannot be used together: "
                                "IAM auth signs requests instead of sending an API key or token"]


def test_dry_run_needs_no_credentials(iam):
    run = iam("--iam", "--dry-run", "get", "Post", "--id", "p2")
    assert run.code == 0, run
    assert json.loads(run.stdout)["variables"] == {"id": "p2"}


@pytest.mark.parametrize("option", ["--region"])
def test_aws_options_without_iam_are_refused_not_ignored(blog, option):
    # blog.json's server takes no auth and the file says nothing of IAM: the AWS option would do nothing.
    run = blog(option, "eu-west-1", "get", "Post", "--id", "p2")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == [f"gqlc: {option} applies to IAM (SigV4) auth only, which this request does not use; "
                                f"add --iam, or leave out {option}"]
