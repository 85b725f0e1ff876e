"""The AWS credential chain end to end: the built gqlc resolves credentials from config and credentials files,
role chains, web identity and credential_process, calls STS at moto-local (moto in server mode, a real STS we
did not write), and signs requests that appsync-local verifies. appsync-local accepts the keys moto issued
(``--iam-sts``) and logs the key id of every signature it verified, so each test sees which key signed.

The chain order is checked against the reference, botocore itself: for each profile fixture, the key id that
``botocore.session.Session(profile=…).get_credentials()`` resolves is the one gqlc's request carried (for role
profiles, whose keys STS mints afresh on every call, the role moto issued that key for).
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
import urllib.request
from pathlib import Path

import pytest

import harness

from gqlc_runner import run_gqlc
from moto_harness import start_moto  # noqa: E402
from subscribe_support import Background

SCHEMA_EXAMPLES = harness.REPO_ROOT / "schema-examples"
BLOG = SCHEMA_EXAMPLES / "blog.json"
REGION = "eu-west-1"
ACCOUNT = "123456789012"
KEY_ID, SECRET = "AKIDCHAINBASE0001", "sEcReTchainBase/0123456789abcdefghijklmn"
CONFIG_KEY_ID, CONFIG_SECRET = "AKIDCHAINCONFIG01", "sEcReTchainConfig/0123456789abcdefghijkl"
PROCESS_KEY_ID, PROCESS_SECRET = "AKIDCHAINPROCESS1", "sEcReTchainProcess/0123456789abcdefghijk"
ENV_KEY_ID, ENV_SECRET = "AKIDCHAINENVIRON1", "sEcReTchainEnviron/0123456789abcdefghijk"
SECRETS = (SECRET, CONFIG_SECRET, PROCESS_SECRET, ENV_SECRET)
AWS_VARIABLES = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION",
                 "AWS_DEFAULT_REGION", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "AWS_ROLE_ARN",
                 "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_SESSION_NAME", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
                 "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_AUTHORIZATION_TOKEN",
                 "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_STS",
                 "AWS_ENDPOINT_URL_SSO", "AWS_EC2_METADATA_SERVICE_ENDPOINT")
VERIFIED = re.compile(r"appsync-local: iam: verified a signature by (\S+)")


def shown(key_id: str) -> str:
    """How --verbose shows an access key id: its first and last four characters (issue 22: never all of it)."""
    return f"{key_id[:4]}…{key_id[-4:]}"


def role(name: str) -> str:
    return f"arn:aws:iam::{ACCOUNT}:role/{name}"


CONFIG = textwrap.dedent(f"""\
    [default]
    region = {REGION}

    [profile base]
    region = {REGION}

    [profile configonly]
    aws_access_key_id = {CONFIG_KEY_ID}
    aws_secret_access_key = {CONFIG_SECRET}

    [profile both]
    aws_access_key_id = {CONFIG_KEY_ID}
    aws_secret_access_key = {CONFIG_SECRET}

    [profile middle]
    role_arn = {role("middle")}
    source_profile = base

    [profile top]
    role_arn = {role("top")}
    source_profile = middle
    external_id = ext-4711
    role_session_name = gqlc-chain-test
    region = {REGION}

    [profile fromenv]
    role_arn = {role("fromenv")}
    credential_source = Environment

    [profile process]
    credential_process = {sys.executable} {{script}} --key {PROCESS_KEY_ID}

    [profile failing]
    credential_process = {sys.executable} {{script}} --fail

    [profile toolong]
    role_arn = {role("toolong")}
    source_profile = base
    role_session_name = {"s" * 70}
    region = {REGION}

    [profile loop-a]
    role_arn = {role("a")}
    source_profile = loop-b

    [profile loop-b]
    role_arn = {role("b")}
    source_profile = loop-a

    [profile orphan]
    role_arn = {role("orphan")}
    source_profile = nowhere

    [profile webid]
    web_identity_token_file = {{token}}
    role_arn = {role("webid")}
    role_session_name = from-profile
    region = {REGION}
    """)
CREDENTIALS = textwrap.dedent(f"""\
    [base]
    aws_access_key_id = {KEY_ID}
    aws_secret_access_key = {SECRET}

    [both]
    aws_access_key_id = {KEY_ID}
    aws_secret_access_key = {SECRET}
    """)
PROCESS_SCRIPT = textwrap.dedent(f"""\
    import json, sys
    if "--fail" in sys.argv:
        sys.stderr.write("token helper: not signed in\\n")
        sys.exit(3)
    key = sys.argv[sys.argv.index("--key") + 1]
    print(json.dumps({{"Version": 1, "AccessKeyId": key, "SecretAccessKey": {PROCESS_SECRET!r},
                      "Expiration": "2099-01-01T00:00:00Z"}}))
    """)


@pytest.fixture(scope="module")
def moto():
    with start_moto() as handle:
        yield handle


@pytest.fixture
def aws_home(tmp_path):
    """An empty HOME with ~/.aws/config and ~/.aws/credentials, and a credential_process script."""
    script = tmp_path / "creds-helper.py"
    script.write_text(PROCESS_SCRIPT)
    (tmp_path / ".aws").mkdir()
    token = tmp_path / "web-identity-token"
    token.write_text("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwcm9maWxlIn0.c2ln")
    (tmp_path / ".aws" / "config").write_text(CONFIG.replace("{script}", str(script)).replace("{token}", str(token)))
    (tmp_path / ".aws" / "credentials").write_text(CREDENTIALS)
    return tmp_path


@pytest.fixture
def server(start_appsync, moto):
    return start_appsync(BLOG, seed=SCHEMA_EXAMPLES / "blog-seed.json",
                         args=("--region", REGION, "--iam-sts", moto.url,
                               "--iam-credentials", f"{KEY_ID}:{SECRET}",
                               "--iam-credentials", f"{CONFIG_KEY_ID}:{CONFIG_SECRET}",
                               "--iam-credentials", f"{PROCESS_KEY_ID}:{PROCESS_SECRET}",
                               "--iam-credentials", f"{ENV_KEY_ID}:{ENV_SECRET}"))


def base_env(home: Path, moto_url: str) -> dict[str, str]:
    env = {name: "" for name in AWS_VARIABLES}
    env.update({"HOME": str(home), "AWS_ENDPOINT_URL_STS": moto_url, "AWS_EC2_METADATA_DISABLED": "true"})
    return env


@pytest.fixture
def chain(gqlc, server, moto, aws_home):
    """``chain(*args, env={...})`` runs ``gqlc --iam ARGS get Post --id p2`` (or ``ARGS`` when they hold the
    command) with the fixture files."""
    def run(*args, env=None):
        environment = base_env(aws_home, moto.url) | (env or {})
        command = args if "get" in args or "list" in args else (*args, "get", "Post", "--id", "p2")
        return gqlc("--schema", BLOG, "--endpoint", server.url, "--iam", *command, env=environment)
    run.server = server
    run.home = aws_home
    return run


def signed_by(server) -> list[str]:
    """The key ids of the signatures appsync-local verified, in order."""
    return VERIFIED.findall(server.stderr_text())


def assumed_roles(moto) -> list[dict]:
    """moto's record of every role it let assume (its documented /moto-api/data.json)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(moto.url + "/moto-api/data.json", timeout=10) as response:
        return json.loads(response.read()).get("sts", {}).get("AssumedRole", [])


def role_of(moto, key_id: str) -> dict:
    return next(record for record in assumed_roles(moto) if record["access_key_id"] == key_id)


def assert_no_secret(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text
    for record_secret in ("secret_access_key", "session_token"):
        del record_secret


def test_a_chain_of_two_role_profiles_with_an_external_id(chain, moto):
    moto.reset()
    run = chain("--verbose", "--profile", "top", "get", "Post", "--id", "p2")
    assert run.code == 0, run
    assert run.json()["title"] == "Choosing a first chef's knife"
    [key_id] = signed_by(chain.server)
    assert key_id.startswith("ASIA")
    # moto saw base's keys assume 'middle', then middle's temporary keys assume 'top' with the external id.
    records = assumed_roles(moto)
    assert [record["role_arn"] for record in records] == [role("middle"), role("top")]
    top = role_of(moto, key_id)
    assert (top["role_arn"], top["external_id"], top["session_name"]) == (role("top"), "ext-4711", "gqlc-chain-test")
    source = [line for line in run.stderr_lines if line.startswith("* credentials: ")]
    assert source == [f"* credentials: {shown(key_id)} from profile 'top': role {role('top')} assumed with profile 'middle': "
                      f"role {role('middle')} assumed with profile 'base' in {chain.home}/.aws/credentials"], run.stderr
    for record in records:
        assert record["secret_access_key"] not in run.stderr and record["session_token"] not in run.stderr
    assert SECRET not in run.stderr


def test_a_missing_region_names_the_profile_looked_in(chain):
    run = chain("--profile", "process")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == [
        "gqlc: no AWS region for IAM auth: looked in --region, the endpoint host 127.0.0.1 (not an AppSync host), "
        f"{BLOG} (no region), profile 'process' in {chain.home}/.aws/config (no region), $AWS_REGION and "
        "$AWS_DEFAULT_REGION; pass --region REGION or set AWS_REGION"]


def test_the_profile_region_signs_when_nothing_else_names_one(chain, moto):
    # No --region, no AWS_REGION, a non-AppSync host: the profile's region = eu-west-1 is the one the server wants.
    run = chain("--profile", "top", "get", "Post", "--id", "p2")
    assert run.code == 0, run
    # The environment's region comes after the profile's, as the issue orders them.
    run = chain("--profile", "top", "get", "Post", "--id", "p2", env={"AWS_REGION": "us-west-2"})
    assert run.code == 0, run


def test_an_sts_refusal_is_one_line_with_its_code_and_exit_5(chain):
    # moto, like STS, refuses a RoleSessionName over 64 characters with a ValidationError in XML.
    run = chain("--profile", "toolong")
    assert (run.code, run.stdout) == (5, ""), run
    assert len(run.stderr_lines) == 1, run
    assert run.stderr_lines[0].startswith(
        f"gqlc: STS AssumeRole for {role('toolong')} (profile 'toolong') failed: ValidationError: 1 validation error "
        "detected:"), run
    assert SECRET not in run.stderr


def test_a_misspelt_aws_profile_is_an_error_with_a_suggestion(chain):
    # As with the AWS CLI, a named profile must exist (only 'default' may be missing), even with keys in the environment.
    run = chain("--region", REGION, env={"AWS_PROFILE": "tpo", "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""})
    assert (run.code, run.stdout) == (2, ""), run
    home = chain.home
    [line] = run.stderr_lines
    assert line.startswith(f"gqlc: no profile 'tpo' in {home}/.aws/config and {home}/.aws/credentials (profiles there: "
                           "'default', 'base', "), line
    assert line.endswith("); did you mean 'top'?"), line


@pytest.mark.parametrize("profile, advice", [("tpo", "did you mean 'top'?"), ("zzzz", "check --profile or $AWS_PROFILE")])
def test_a_mistyped_profile_is_reported_before_the_missing_region(chain, profile, advice):
    # Without --region the typo used to surface as "no AWS region": the unknown profile has no region either.
    run = chain("--profile", profile)
    assert (run.code, run.stdout) == (2, ""), run
    home = chain.home
    [line] = run.stderr_lines
    assert line.startswith(f"gqlc: no profile '{profile}' in {home}/.aws/config and {home}/.aws/credentials "
                           "(profiles there: 'default', 'base', "), line
    assert line.endswith(f"); {advice}"), line


def test_a_profile_cycle_is_refused(chain):
    run = chain("--profile", "loop-a", "--region", REGION)
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == ["gqlc: the source_profile settings go round in a cycle: 'loop-a' -> 'loop-b' -> 'loop-a'"]


def test_a_missing_source_profile_is_named(chain):
    run = chain("--profile", "orphan", "--region", REGION)
    assert (run.code, run.stdout) == (2, ""), run
    home = chain.home
    assert run.stderr_lines == [
        f"gqlc: profile 'orphan' has source_profile 'nowhere', but {home}/.aws/config and {home}/.aws/credentials "
        "have no profile 'nowhere'"]


def test_credential_source_environment_assumes_the_role_with_the_environment_keys(chain, moto):
    moto.reset()
    run = chain("--profile", "fromenv", "--region", REGION, "get", "Post", "--id", "p2",
                env={"AWS_ACCESS_KEY_ID": ENV_KEY_ID, "AWS_SECRET_ACCESS_KEY": ENV_SECRET})
    assert run.code == 0, run
    [key_id] = signed_by(chain.server)
    assert role_of(moto, key_id)["role_arn"] == role("fromenv")


def test_credential_process_runs_without_a_shell(chain):
    run = chain("--profile", "process", "--region", REGION, "--verbose", "get", "Post", "--id", "p2")
    assert run.code == 0, run
    assert signed_by(chain.server) == [PROCESS_KEY_ID]
    assert f"* credentials: {shown(PROCESS_KEY_ID)} from profile 'process': credential_process" in run.stderr_lines
    assert PROCESS_SECRET not in run.stderr


def test_a_failing_credential_process_shows_its_stderr(chain):
    run = chain("--profile", "failing", "--region", REGION)
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr_lines == [f"gqlc: credential_process of profile 'failing' ('{sys.executable}') failed with "
                                "exit status 3: token helper: not signed in"]
    assert signed_by(chain.server) == []


def test_web_identity_from_the_environment(chain, moto, tmp_path):
    moto.reset()
    token = tmp_path / "oidc-token"
    token.write_text("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJyZXBvOmV4YW1wbGUifQ.c2ln")
    run = chain("--region", REGION, "--verbose", "get", "Post", "--id", "p2",
                env={"AWS_WEB_IDENTITY_TOKEN_FILE": str(token), "AWS_ROLE_ARN": role("ci"),
                     "AWS_ROLE_SESSION_NAME": "github-actions", "AWS_CONFIG_FILE": str(tmp_path / "none")})
    assert run.code == 0, run
    [key_id] = signed_by(chain.server)
    record = role_of(moto, key_id)
    assert (record["role_arn"], record["session_name"]) == (role("ci"), "github-actions")
    assert f"* credentials: {shown(key_id)} from web identity token {token}: role {role('ci')}" in run.stderr_lines


def test_nothing_found_lists_every_place_looked(gqlc, server, moto, tmp_path):
    env = base_env(tmp_path, moto.url)
    run = gqlc("--schema", BLOG, "--endpoint", server.url, "--iam", "--region", REGION, "get", "Post", "--id", "p2",
               env=env)
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == [
        "gqlc: no AWS credentials for IAM auth: looked in $AWS_ACCESS_KEY_ID and $AWS_SECRET_ACCESS_KEY (not set), "
        f"$AWS_WEB_IDENTITY_TOKEN_FILE (not set), profile 'default' in {tmp_path}/.aws/config and "
        f"{tmp_path}/.aws/credentials (no such profile), the container endpoint "
        "($AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI not set) and the instance metadata service "
        "(disabled by $AWS_EC2_METADATA_DISABLED); set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or pass "
        "--profile NAME with a shared credentials file"]


# The reference: botocore resolves the same profiles in the same environment.
REFERENCE_CASES = [
    # (profile given as --profile / Session(profile=), AWS_PROFILE, extra environment)
    ("base", None, {}),
    ("configonly", None, {}),
    ("both", None, {}),  # the credentials file wins over the config file
    ("process", None, {}),
    ("top", None, {}),
    ("middle", None, {}),
    ("fromenv", None, {"AWS_ACCESS_KEY_ID": ENV_KEY_ID, "AWS_SECRET_ACCESS_KEY": ENV_SECRET}),
    # An explicit profile turns the environment's keys off; AWS_PROFILE does not.
    ("base", None, {"AWS_ACCESS_KEY_ID": ENV_KEY_ID, "AWS_SECRET_ACCESS_KEY": ENV_SECRET}),
    (None, "base", {"AWS_ACCESS_KEY_ID": ENV_KEY_ID, "AWS_SECRET_ACCESS_KEY": ENV_SECRET}),
    (None, "configonly", {}),
    (None, "top", {}),
    ("webid", None, {}),  # the profile's web_identity_token_file, AssumeRoleWithWebIdentity
]


def reference_identity(moto, key_id: str) -> str:
    """A static key id as it is; a temporary one as the role moto issued it for (STS mints new keys per call)."""
    if key_id.startswith("ASIA"):
        return "role " + role_of(moto, key_id)["role_arn"]
    return key_id


@pytest.mark.parametrize("profile,aws_profile,extra", REFERENCE_CASES,
                         ids=[f"{p or ''}-{a or ''}-{'env' if e else 'noenv'}" for p, a, e in REFERENCE_CASES])
def test_botocore_resolves_the_same_credentials(chain, moto, monkeypatch, profile, aws_profile, extra):
    import botocore.session

    env = base_env(chain.home, moto.url) | {"AWS_DEFAULT_REGION": REGION} | extra
    if aws_profile:
        env["AWS_PROFILE"] = aws_profile
    for name, value in env.items():
        if value:
            monkeypatch.setenv(name, value)
        else:
            monkeypatch.delenv(name, raising=False)
    expected = botocore.session.Session(profile=profile).get_credentials()
    assert expected is not None
    expected_identity = reference_identity(moto, expected.get_frozen_credentials().access_key)

    args = ("--profile", profile) if profile else ()
    run = chain(*args, "--region", REGION, "get", "Post", "--id", "p2", env=env)
    assert run.code == 0, run
    key_id = signed_by(chain.server)[-1]
    assert reference_identity(moto, key_id) == expected_identity


# SSO, container and instance credentials from aws-endpoints-local (DevServers/AWSEndpoints), whose answers follow
# botocore's SSO service model and the AWS documentation of the container endpoint and IMDSv2.
ENDPOINTS_PATH = harness.REPO_ROOT / "DevServers" / "AWSEndpoints" / "aws-endpoints-local"
TEMP_ID, TEMP_SECRET, TEMP_TOKEN = "ASIAENDPOINTS0001", "tEmPsEcReTendpoints/0123456789abcdefghij", "IQoJb3JpZ2luX2VjEXAMPLEtoken+/=="
SSO_TOKEN = "aoaAAAAAGSSOaccessTOKENexample"


@pytest.fixture(scope="module")
def endpoints():
    from moto_harness import start_local_server
    with start_local_server(ENDPOINTS_PATH, ("--credentials", f"{TEMP_ID}:{TEMP_SECRET}:{TEMP_TOKEN}",
                                             "--sso-token", SSO_TOKEN, "--container-token", "Bearer task-token")) as handle:
        yield handle


@pytest.fixture
def temp_server(start_appsync):
    return start_appsync(BLOG, seed=SCHEMA_EXAMPLES / "blog-seed.json",
                         args=("--region", REGION, "--iam-credentials", f"{TEMP_ID}:{TEMP_SECRET}:{TEMP_TOKEN}"))


def endpoint_run(gqlc, server, home, env, *args):
    environment = {name: "" for name in AWS_VARIABLES} | {"HOME": str(home), "AWS_EC2_METADATA_DISABLED": "true"} | env
    return gqlc("--schema", BLOG, "--endpoint", server.url, "--iam", "--region", REGION, *args,
                "get", "Post", "--id", "p2", env=environment)


def write_sso_cache(home: Path, key: str, expires_at: str) -> Path:
    """The file ``aws sso login`` writes: ~/.aws/sso/cache/<sha1 of the session name or start URL>.json."""
    import hashlib
    cache = home / ".aws" / "sso" / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / (hashlib.sha1(key.encode()).hexdigest() + ".json")
    path.write_text(json.dumps({"startUrl": "https://example.awsapps.com/start", "region": "us-east-1",
                                "accessToken": SSO_TOKEN, "expiresAt": expires_at}))
    return path


SSO_CONFIG = textwrap.dedent("""\
    [profile dev]
    sso_session = company
    sso_account_id = 123456789012
    sso_role_name = Developer

    [profile legacy]
    sso_start_url = https://legacy.awsapps.com/start
    sso_region = us-east-1
    sso_account_id = 123456789012
    sso_role_name = Developer

    [sso-session company]
    sso_start_url = https://example.awsapps.com/start
    sso_region = us-east-1
    """)


@pytest.mark.parametrize("profile,cache_key", [("dev", "company"), ("legacy", "https://legacy.awsapps.com/start")])
def test_sso_profiles_use_the_cached_token(gqlc, temp_server, endpoints, tmp_path, profile, cache_key):
    (tmp_path / ".aws").mkdir()
    (tmp_path / ".aws" / "config").write_text(SSO_CONFIG)
    write_sso_cache(tmp_path, cache_key, "2099-01-01T00:00:00Z")
    run = endpoint_run(gqlc, temp_server, tmp_path, {"AWS_ENDPOINT_URL_SSO": endpoints.url}, "--profile", profile,
                       "--verbose")
    assert run.code == 0, run
    assert f"* credentials: {shown(TEMP_ID)} from profile '{profile}': SSO role Developer in account 123456789012" \
        in run.stderr_lines
    assert "GET /federation/credentials" in endpoints.stderr_text()
    assert SSO_TOKEN not in run.stderr and TEMP_SECRET not in run.stderr


def test_an_expired_sso_token_says_to_log_in_again(gqlc, temp_server, endpoints, tmp_path):
    (tmp_path / ".aws").mkdir()
    (tmp_path / ".aws" / "config").write_text(SSO_CONFIG)
    write_sso_cache(tmp_path, "company", "2020-01-01T00:00:00Z")
    run = endpoint_run(gqlc, temp_server, tmp_path, {"AWS_ENDPOINT_URL_SSO": endpoints.url}, "--profile", "dev")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr_lines == ["gqlc: the SSO token for profile 'dev' expired; run aws sso login --profile dev"]


def test_container_credentials_with_a_token_file(gqlc, temp_server, endpoints, tmp_path):
    token = tmp_path / "token"
    token.write_text("Bearer task-token\n")
    env = {"AWS_CONTAINER_CREDENTIALS_FULL_URI": endpoints.url + "/v2/credentials/task-1",
           "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": str(token)}
    run = endpoint_run(gqlc, temp_server, tmp_path, env, "--verbose")
    assert run.code == 0, run
    assert f"* credentials: {shown(TEMP_ID)} from the container credentials endpoint {endpoints.url}/v2/credentials/task-1" \
        in run.stderr_lines
    assert "task-token" not in run.stderr and TEMP_SECRET not in run.stderr
    refused = endpoint_run(gqlc, temp_server, tmp_path, {**env, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": "",
                                                         "AWS_CONTAINER_AUTHORIZATION_TOKEN": "Bearer wrong"})
    assert (refused.code, refused.stdout) == (5, ""), refused
    assert refused.stderr_lines == ['gqlc: the container credentials endpoint failed: HTTP 401 {"message": "Unauthorized"}']


def test_instance_metadata_v2_and_its_off_switch(gqlc, temp_server, endpoints, tmp_path):
    env = {"AWS_EC2_METADATA_SERVICE_ENDPOINT": endpoints.url, "AWS_EC2_METADATA_DISABLED": ""}
    run = endpoint_run(gqlc, temp_server, tmp_path, env, "--verbose")
    assert run.code == 0, run
    assert f"* credentials: {shown(TEMP_ID)} from the instance metadata service (role instance-role)" in run.stderr_lines
    log = endpoints.stderr_text()
    assert "PUT /latest/api/token" in log and "GET /latest/meta-data/iam/security-credentials/instance-role" in log
    off = endpoint_run(gqlc, temp_server, tmp_path, {**env, "AWS_EC2_METADATA_DISABLED": "true"})
    assert (off.code, off.stdout) == (2, ""), off
    assert off.stderr_lines[0].endswith("and the instance metadata service (disabled by $AWS_EC2_METADATA_DISABLED); "
                                        "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or pass --profile NAME with "
                                        "a shared credentials file"), off


REFRESH_SECRET = "sEcReTrefresh/0123456789abcdefghijklmnopq"
REFRESH_SCRIPT = textwrap.dedent(f"""\
    import json, sys
    from datetime import datetime, timezone
    from pathlib import Path
    counter = Path(sys.argv[1])
    number = int(counter.read_text()) + 1 if counter.exists() else 1
    counter.write_text(str(number))
    if len(sys.argv) > 2 and number > int(sys.argv[2]):
        sys.stderr.write("helper: session revoked\\n")
        sys.exit(1)
    expires = datetime.now(timezone.utc)  # due at once: no test waits for credentials to age
    print(json.dumps({{"Version": 1, "AccessKeyId": f"AKIDREFRESH{{number:04d}}", "SecretAccessKey": {REFRESH_SECRET!r},
                      "SessionToken": f"token-{{number}}", "Expiration": expires.strftime("%Y-%m-%dT%H:%M:%SZ")}}))
    """)


def short_lived_profile(home: Path, fail_after: int | None = None) -> tuple[Path, list[str]]:
    """Profile 'short' in HOME's config: a credential_process handing out AKIDREFRESH0001, 0002, … (one per call)
    whose Expiration is the moment they are handed out, so a refresh is due before each signing without waiting
    for a clock; it fails after `fail_after` calls when given. Returns the file counting the calls and the
    appsync-local flags that accept the keys."""
    script = home / "short-lived.py"
    script.write_text(REFRESH_SCRIPT)
    counter = home / "calls"
    (home / ".aws").mkdir()
    (home / ".aws" / "config").write_text(
        f"[profile short]\ncredential_process = {sys.executable} {script} {counter}"
        f"{'' if fail_after is None else f' {fail_after}'}\nregion = {REGION}\n")
    keys = [arg for number in range(1, 10)
            for arg in ("--iam-credentials", f"AKIDREFRESH{number:04d}:{REFRESH_SECRET}:token-{number}")]
    return counter, keys


def short_lived_listing(gqlc, start_appsync, home: Path, limit: int, fail_after: int | None = None):
    """`gqlc --profile short --verbose list Post` one record per page, with credentials due before each page."""
    _, keys = short_lived_profile(home, fail_after)
    server = start_appsync(BLOG, seed=SCHEMA_EXAMPLES / "blog-seed.json", args=("--region", REGION, *keys))
    env = {name: "" for name in AWS_VARIABLES} | {"HOME": str(home), "AWS_EC2_METADATA_DISABLED": "true"}
    return server, gqlc("--schema", BLOG, "--endpoint", server.url, "--profile", "short", "--verbose", "list", "Post",
                        "--page-size", "1", "--limit", str(limit), env=env)


def test_credentials_expiring_during_a_long_listing_are_refreshed(gqlc, start_appsync, tmp_path):
    # The helper's credentials are due for a refresh as soon as they are handed out (their Expiration is now), so
    # every page is signed with keys fetched again just before it, and no record is lost. When a refresh falls due
    # (halfway through a short lifetime) is RefreshingCredentials' unit tests' business, on an injected clock.
    server, run = short_lived_listing(gqlc, start_appsync, tmp_path, limit=3)
    assert run.code == 0, run
    assert len(run.json()) == 3
    assert signed_by(server) == ["AKIDREFRESH0002", "AKIDREFRESH0003", "AKIDREFRESH0004"]
    # --verbose says when and from where (never the secret or the session token).
    assert [line for line in run.stderr_lines if line.startswith("* credentials")] == [
        "* credentials: AKID…0001 from profile 'short': credential_process",
        "* credentials refreshed: AKID…0002 from profile 'short': credential_process",
        "* credentials refreshed: AKID…0003 from profile 'short': credential_process",
        "* credentials refreshed: AKID…0004 from profile 'short': credential_process"], run.stderr
    assert REFRESH_SECRET not in run.stderr and "token-2" not in run.stderr


def test_a_failed_refresh_keeps_the_old_credentials_and_says_so(gqlc, start_appsync, tmp_path):
    # Every call of the helper after the first fails: the listing goes on with the first keys (still valid), a
    # refresh is tried again before each page (the keys stay due), and --verbose says each time why it failed.
    server, run = short_lived_listing(gqlc, start_appsync, tmp_path, limit=2, fail_after=1)
    assert run.code == 0, run
    assert len(run.json()) == 2
    assert signed_by(server) == ["AKIDREFRESH0001", "AKIDREFRESH0001"]
    assert [line for line in run.stderr_lines if line.startswith("* credentials refresh")] == 2 * [
        f"* credentials refresh failed, still using AKID…0001: credential_process of profile 'short' "
        f"('{sys.executable}') failed with exit status 1: helper: session revoked"], run.stderr


def test_mfa_serial_asks_for_the_code_on_the_terminal(server, moto, aws_home):
    # botocore asks for the code of a role profile's mfa_serial on the terminal; gqlc too, with the same prompt as
    # login's (echo on: a code is not a password), then assumes the role with SerialNumber and TokenCode.
    from gqlc_runner import Terminal

    moto.reset()
    serial = f"arn:aws:iam::{ACCOUNT}:mfa/ann"
    config = aws_home / ".aws" / "config"
    config.write_text(config.read_text() + f"\n[profile mfa]\nrole_arn = {role('mfa')}\nsource_profile = base\n"
                                           f"mfa_serial = {serial}\nregion = {REGION}\n")
    terminal = Terminal(["--schema", BLOG, "--endpoint", server.url, "--iam", "--profile", "mfa", "get", "Post", "--id",
                         "p2"], env=base_env(aws_home, moto.url))
    terminal.read_until(f"MFA code for {serial}: ".encode())
    terminal.type("123456\n")
    terminal.read_until(b"Choosing a first chef's knife")
    assert terminal.exit_code() == 0, terminal.seen
    [record] = assumed_roles(moto)
    assert record["role_arn"] == role("mfa")


def test_credentials_expiring_during_a_subscription_are_fetched_again_for_the_next_connection(start_appsync,
                                                                                                tmp_path):
    # The credentials are due again as soon as they are handed out; the server cuts each connection after one
    # event, and logs the key that signed each connection and start: each is signed with keys fetched for it.
    counter, keys = short_lived_profile(tmp_path)
    server = start_appsync(BLOG, seed=SCHEMA_EXAMPLES / "blog-seed.json",
                           args=("--region", REGION, "--ws-drop-after", "1", "--iam-credentials", f"{KEY_ID}:{SECRET}",
                                 *keys))
    env = {name: "" for name in AWS_VARIABLES} | {"HOME": str(tmp_path), "AWS_EC2_METADATA_DISABLED": "true"}
    writer = env | {"AWS_ACCESS_KEY_ID": KEY_ID, "AWS_SECRET_ACCESS_KEY": SECRET, "AWS_REGION": REGION}

    def create(key: str) -> None:
        run = run_gqlc(["--schema", BLOG, "--endpoint", server.url, "--iam", "create", "Post", f"id={key}",
                        "title=t"], env=writer)
        assert run.code == 0, run

    watch = Background(["--schema", BLOG, "--endpoint", server.url, "--profile", "short", "subscribe", "Post", "--on",
                        "create", "--count", "2"], env=env)
    try:
        watch.subscribed("onCreatePost")
        create("r1")
        assert watch.event()["id"] == "r1"
        watch.subscribed("onCreatePost")
        create("r2")
        assert watch.event()["id"] == "r2"
        code, _, stderr = watch.finish()
    finally:
        watch.kill()
    assert code == 0, stderr
    log = server.stderr_text()
    assert re.findall(r"realtime: connection 1 signed by (\S+)", log) == ["AKIDREFRESH0002", "AKIDREFRESH0003"], log
    assert re.findall(r"realtime: connection 2 signed by (\S+)", log) == ["AKIDREFRESH0004", "AKIDREFRESH0005"], log
    assert counter.read_text() == "5"  # the first fetch, then one before each signing
    assert REFRESH_SECRET not in stderr


# A plain-http container URI must stay on the machine (botocore's ContainerMetadataFetcher._validate_allowed_url):
# the reference is botocore's own verdict on each URL.
@pytest.mark.parametrize("host", ["192.0.2.10", "example.com", "169.254.169.254", "127.0.0.2", "[::1]", "localhost"])
def test_a_plain_http_container_uri_must_be_loopback_or_an_ecs_host(gqlc, temp_server, endpoints, tmp_path, host):
    from botocore.utils import ContainerMetadataFetcher

    port = endpoints.url.rsplit(":", 1)[1]
    url = f"http://{host}:{port}/v2/credentials/task-1"
    try:
        ContainerMetadataFetcher()._validate_allowed_url(url)
        botocore_allows = True
    except ValueError:
        botocore_allows = False
    run = endpoint_run(gqlc, temp_server, tmp_path, {"AWS_CONTAINER_CREDENTIALS_FULL_URI": url,
                                                     "AWS_CONTAINER_AUTHORIZATION_TOKEN": "Bearer task-token"})
    refusal = (f"gqlc: $AWS_CONTAINER_CREDENTIALS_FULL_URI: '{url}' is plain http to {host.strip('[]')}, which is "
               "allowed only to a loopback address or one of 169.254.170.2, 169.254.170.23, fd00:ec2::23, localhost; "
               "use https")
    if botocore_allows:
        # Allowed: gqlc asks (only 127.0.0.1 and localhost reach aws-endpoints-local; the others are refused connections).
        assert refusal not in run.stderr_lines, run
        if host == "localhost":
            assert run.code == 0, run
    else:
        assert (run.code, run.stdout, run.stderr_lines) == (2, "", [refusal]), run
    assert "Bearer task-token" not in run.stderr


def test_a_container_token_with_a_line_break_is_refused(gqlc, temp_server, endpoints, tmp_path):
    env = {"AWS_CONTAINER_CREDENTIALS_FULL_URI": endpoints.url + "/v2/credentials/task-1",
           "AWS_CONTAINER_AUTHORIZATION_TOKEN": "Bearer task-token\r\nX-Injected: 1"}
    run = endpoint_run(gqlc, temp_server, tmp_path, env)
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == ["gqlc: $AWS_CONTAINER_AUTHORIZATION_TOKEN: the token has a line break inside, which a "
                                "header value cannot hold"]


# An expired sso-session token with a refresh token and a client registration is refreshed through SSO OIDC
# CreateToken and written back to the cache, as botocore's SSOTokenProvider does (tokens.py).
REFRESHABLE = {"clientId": "client-id", "clientSecret": "client-secret", "refreshToken": "refresh-token",
               "registrationExpiresAt": "2099-01-01T00:00:00Z"}


@pytest.fixture
def oidc():
    """A fresh aws-endpoints-local per test: its refresh token works once (CreateToken rotates it)."""
    from moto_harness import start_local_server
    with start_local_server(ENDPOINTS_PATH, ("--credentials", f"{TEMP_ID}:{TEMP_SECRET}:{TEMP_TOKEN}",
                                             "--sso-token", SSO_TOKEN)) as handle:
        yield handle


def sso_home(home: Path, profile_key: str, expires_at: str, **extra) -> Path:
    (home / ".aws").mkdir(exist_ok=True)
    (home / ".aws" / "config").write_text(SSO_CONFIG)
    path = write_sso_cache(home, profile_key, expires_at)
    path.write_text(json.dumps(json.loads(path.read_text()) | extra))
    return path


def sso_env(server) -> dict[str, str]:
    return {"AWS_ENDPOINT_URL_SSO": server.url, "AWS_ENDPOINT_URL_SSO_OIDC": server.url}


def test_an_expired_sso_session_token_is_refreshed_and_written_back(gqlc, temp_server, oidc, tmp_path):
    cache = sso_home(tmp_path, "company", "2020-01-01T00:00:00Z", **REFRESHABLE)
    run = endpoint_run(gqlc, temp_server, tmp_path, sso_env(oidc), "--profile", "dev", "--verbose")
    assert run.code == 0, run
    assert (f"* credentials: {shown(TEMP_ID)} from profile 'dev': SSO role Developer in account 123456789012, "
            "SSO token refreshed") in run.stderr_lines, run
    assert "aws-endpoints-local: oidc: refreshed with refresh-token" in oidc.stderr_text()
    written = json.loads(cache.read_text())
    assert written["accessToken"] != SSO_TOKEN and written["refreshToken"] != "refresh-token"
    assert written["expiresAt"] > "2026" and written["expiresAt"].endswith("Z")
    assert cache.stat().st_mode & 0o077 == 0
    for secret in (written["accessToken"], written["refreshToken"], "client-secret", TEMP_SECRET):
        assert secret not in run.stderr
    # The next run uses the new token as it is: no second refresh.
    again = endpoint_run(gqlc, temp_server, tmp_path, sso_env(oidc), "--profile", "dev")
    assert again.code == 0, again
    assert oidc.stderr_text().count("oidc: refreshed") == 1


def test_gqlc_writes_the_cache_entry_botocore_writes(gqlc, temp_server, oidc, tmp_path):
    # The reference: botocore, given the same files and its own endpoint, refreshes and writes its cache entry;
    # gqlc's has the same members, and the same values where they do not depend on the new token.
    import subprocess

    from moto_harness import start_local_server

    botocore_home = tmp_path / "botocore"
    botocore_home.mkdir()
    botocore_cache = sso_home(botocore_home, "company", "2020-01-01T00:00:00Z", **REFRESHABLE)
    with start_local_server(ENDPOINTS_PATH, ("--credentials", f"{TEMP_ID}:{TEMP_SECRET}:{TEMP_TOKEN}")) as other:
        env = {name: value for name, value in harness.clean_env().items() if name not in AWS_VARIABLES} | {
            "HOME": str(botocore_home), "AWS_EC2_METADATA_DISABLED": "true", **sso_env(other)}
        script = ("import botocore.session; c = botocore.session.Session(profile='dev').get_credentials(); "
                  "print(c.get_frozen_credentials().access_key)")
        result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == TEMP_ID, result.stderr
    expected = json.loads(botocore_cache.read_text())

    gqlc_home = tmp_path / "gqlc"
    gqlc_home.mkdir()
    cache = sso_home(gqlc_home, "company", "2020-01-01T00:00:00Z", **REFRESHABLE)
    run = endpoint_run(gqlc, temp_server, gqlc_home, sso_env(oidc), "--profile", "dev")
    assert run.code == 0, run
    written = json.loads(cache.read_text())
    assert sorted(written) == sorted(expected)
    fixed = ("startUrl", "region", "clientId", "clientSecret", "registrationExpiresAt")
    assert {key: written[key] for key in fixed} == {key: expected[key] for key in fixed}
    assert len(written["expiresAt"]) == len(expected["expiresAt"])  # the same format, 2026-11-24T09:00:00Z


def test_a_refused_sso_refresh_says_to_log_in_again(gqlc, temp_server, oidc, tmp_path):
    sso_home(tmp_path, "company", "2020-01-01T00:00:00Z", **(REFRESHABLE | {"refreshToken": "revoked"}))
    run = endpoint_run(gqlc, temp_server, tmp_path, sso_env(oidc), "--profile", "dev")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr_lines == [
        "gqlc: the SSO token for profile 'dev' expired and could not be refreshed (SSO OIDC CreateToken failed: "
        "InvalidGrantException: Invalid refresh token provided); run aws sso login --profile dev"]
    assert "revoked" not in run.stderr


@pytest.mark.parametrize("profile,key,extra", [
    ("legacy", "https://legacy.awsapps.com/start", REFRESHABLE),  # botocore refreshes sso-session tokens only
    ("dev", "company", REFRESHABLE | {"registrationExpiresAt": "2020-01-01T00:00:00Z"}),  # registration expired
    ("dev", "company", {}),  # no refresh token
])
def test_an_sso_token_that_cannot_be_refreshed_says_to_log_in_again(gqlc, temp_server, oidc, tmp_path, profile, key,
                                                                     extra):
    sso_home(tmp_path, key, "2020-01-01T00:00:00Z", **extra)
    run = endpoint_run(gqlc, temp_server, tmp_path, sso_env(oidc), "--profile", profile)
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr_lines == [f"gqlc: the SSO token for profile '{profile}' expired; run aws sso login --profile {profile}"]
    assert "POST /token" not in oidc.stderr_text()


# STS's endpoint from the profile, as botocore's ConfiguredEndpointProvider finds it when no AWS_ENDPOINT_URL_STS
# or AWS_ENDPOINT_URL is set: the profile's `services` section, else its `endpoint_url`.
@pytest.mark.parametrize("profile", ["viaurl", "viaservices"])
def test_the_profile_s_endpoint_url_and_services_section_reach_sts(chain, moto, monkeypatch, profile):
    moto.reset()
    config = chain.home / ".aws" / "config"
    config.write_text(config.read_text() + textwrap.dedent(f"""
        [profile viaurl]
        role_arn = {role("viaurl")}
        source_profile = base
        endpoint_url = {moto.url}
        region = {REGION}

        [profile viaservices]
        role_arn = {role("viaservices")}
        source_profile = base
        services = local-sts
        region = {REGION}

        [services local-sts]
        sts =
          endpoint_url = {moto.url}
        """))
    env = base_env(chain.home, moto.url) | {"AWS_ENDPOINT_URL_STS": ""}
    run = chain("--profile", profile, "--verbose", env=env)
    assert run.code == 0, run
    [key_id] = signed_by(chain.server)
    assert role_of(moto, key_id)["role_arn"] == role(profile)
    # The reference: botocore reaches the same STS with the same files.
    import botocore.session
    for name, value in env.items():
        if value:
            monkeypatch.setenv(name, value)
        else:
            monkeypatch.delenv(name, raising=False)
    expected = botocore.session.Session(profile=profile).get_credentials().get_frozen_credentials().access_key
    assert role_of(moto, expected)["role_arn"] == role(profile)


def test_a_services_setting_without_its_section_is_named(chain, moto):
    config = chain.home / ".aws" / "config"
    config.write_text(config.read_text() + f"\n[profile lost]\nrole_arn = {role('lost')}\nsource_profile = base\n"
                                           f"services = nowhere\nregion = {REGION}\n")
    run = chain("--profile", "lost", env=base_env(chain.home, moto.url) | {"AWS_ENDPOINT_URL_STS": ""})
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == [f"gqlc: profile 'lost': services 'nowhere' has no [services nowhere] section in "
                                f"{chain.home}/.aws/config"]


@pytest.mark.parametrize("source,env", [
    ("EcsContainer", lambda url: {"AWS_CONTAINER_CREDENTIALS_FULL_URI": url + "/v2/credentials/task-1",
                                  "AWS_CONTAINER_AUTHORIZATION_TOKEN": "Bearer task-token"}),
    ("Ec2InstanceMetadata", lambda url: {"AWS_EC2_METADATA_SERVICE_ENDPOINT": url, "AWS_EC2_METADATA_DISABLED": ""}),
])
def test_credential_source_container_and_instance_assume_the_role(chain, moto, endpoints, monkeypatch, source, env):
    # The container's or the instance's credentials (aws-endpoints-local) sign AssumeRole at moto; botocore, the
    # reference, assumes the same role from the same files and environment.
    moto.reset()
    config = chain.home / ".aws" / "config"
    config.write_text(config.read_text() + f"\n[profile fromsource]\nrole_arn = {role('fromsource')}\n"
                                           f"credential_source = {source}\nregion = {REGION}\n")
    environment = base_env(chain.home, moto.url) | env(endpoints.url)
    run = chain("--profile", "fromsource", "--verbose", env=environment)
    assert run.code == 0, run
    [key_id] = signed_by(chain.server)
    assert role_of(moto, key_id)["role_arn"] == role("fromsource")
    assert f"assumed with the {'container credentials endpoint' if source == 'EcsContainer' else 'instance metadata'}" \
        in run.stderr, run.stderr
    import botocore.session
    for name, value in environment.items():
        if value:
            monkeypatch.setenv(name, value)
        else:
            monkeypatch.delenv(name, raising=False)
    expected = botocore.session.Session(profile="fromsource").get_credentials().get_frozen_credentials().access_key
    assert role_of(moto, expected)["role_arn"] == role("fromsource")


def test_temporary_credentials_are_fetched_once_per_run_and_nothing_is_written(chain, moto):
    # Three pages signed with one AssumeRole chain (middle, then top), and HOME holds the same files after.
    moto.reset()
    before = sorted(str(path) for path in chain.home.rglob("*"))
    run = chain("--profile", "top", "list", "Post", "--page-size", "1", "--limit", "3")
    assert run.code == 0, run
    assert len(run.json()) == 3
    assert len(signed_by(chain.server)) == 3 and len(set(signed_by(chain.server))) == 1
    assert [record["role_arn"] for record in assumed_roles(moto)] == [role("middle"), role("top")]
    assert sorted(str(path) for path in chain.home.rglob("*")) == before


def test_mfa_serial_without_a_terminal_is_refused_before_sts(chain, moto):
    moto.reset()
    config = chain.home / ".aws" / "config"
    config.write_text(config.read_text() + f"\n[profile mfa]\nrole_arn = {role('mfa')}\nsource_profile = base\n"
                                           f"mfa_serial = arn:aws:iam::{ACCOUNT}:mfa/ann\nregion = {REGION}\n")
    run = chain("--profile", "mfa")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == ["gqlc: profile 'mfa': mfa_serial needs an MFA code, and there is no terminal to ask "
                                "for it"]
    assert assumed_roles(moto) == []


def test_a_corrupt_sso_cache_file_is_named_as_such(gqlc, temp_server, endpoints, tmp_path):
    cache = sso_home(tmp_path, "company", "2099-01-01T00:00:00Z")
    cache.write_text("{not json")
    run = endpoint_run(gqlc, temp_server, tmp_path, {"AWS_ENDPOINT_URL_SSO": endpoints.url}, "--profile", "dev")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr_lines == [f"gqlc: the cached SSO token {cache} is not a JSON object; run aws sso login --profile dev"]
