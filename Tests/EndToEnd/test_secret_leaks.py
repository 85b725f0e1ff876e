"""Secrets that escaped before issue 22: the Cognito password echoed by the service, a key echoed glued to other
characters, `-H` custom header values in `--verbose`, an access key id in full, core dumps, secrets that had to be
given as flags (visible in `ps`), and a config directory others can write. Each test fails on the code before."""

from __future__ import annotations

import json
import os
import signal
import subprocess

import harness
from gqlc_runner import GQLC_BIN, gqlc_env
from redaction_support import BY_NAME, SCHEMA_EXAMPLES, Source, assert_no_leak, run_with  # noqa: F401 - a fixture
from signals_support import finish, wait_until_trapping

BLOG = SCHEMA_EXAMPLES / "blog.json"
GET = ("get", "Post", "--id", "p1")


def canned(tmp_path, status: int, content_type: str, body: str, *flags: str) -> harness.ServerHandle:
    reply = tmp_path / "reply"
    reply.write_text(body)
    return harness.start_server(BLOG, args=("--reply-status", str(status), "--reply-content-type", content_type,
                                            "--reply-body", str(reply), *flags))


def test_a_password_the_sign_in_service_echoes_is_never_shown(gqlc, tmp_path):
    """USER_PASSWORD_AUTH sends the password itself; a service that repeats the request in its error must not make
    gqlc print it (before, it was not known as a secret at all)."""
    password = "Corr3ct-Horse-Battery-Staple"
    server = canned(tmp_path, 400, "application/x-amz-json-1.1",
                    '{"__type": "InvalidParameterException", "message": "cannot use the request ${body}"}')
    try:
        run = gqlc("--schema", BLOG, "login", "--user-pool-id", "us-east-1_Echo1", "--client-id", "echoclient",
                   "--cognito-endpoint", server.url, "--username", "ann@example.com", "--password-stdin",
                   "--password-auth", stdin=password + "\n")
    finally:
        server.stop()
    assert run.code != 0, run
    assert run.stderr_lines and run.stderr_lines[0].startswith("gqlc: "), run
    assert_no_leak(Source("password", password, "-"), run.stdout + run.stderr)


def test_a_key_echoed_glued_to_letters_digits_or_underscores_is_never_shown(run_with, tmp_path):
    source = BY_NAME["flag-api-key"]
    server = canned(tmp_path, 400, "text/plain", "bad key x${header:x-api-key}_ or _${header:x-api-key}7 or ${header:x-api-key}${header:x-api-key}\n")
    try:
        run = run_with(source, server.url, "--retries", "0", *GET)
    finally:
        server.stop()
    assert run.code == 5, run
    assert_no_leak(source, run.stdout + run.stderr)


def test_a_custom_headers_value_is_masked_in_the_trace(gqlc):
    session = "sess-Qw8Er6Ty4Ui2Op0As"
    with harness.start_server(BLOG, seed=SCHEMA_EXAMPLES / "blog-seed.json") as server:
        run = gqlc("--schema", BLOG, "--endpoint", server.url, "--verbose", "-H", f"X-Session-Id: {session}",
                   "-H", "User-Agent: test-agent/1.0", *GET)
    assert run.code == 0, run
    assert "> X-Session-Id: sess…████" in run.stderr_lines, run.stderr
    assert "> User-Agent: test-agent/1.0" in run.stderr_lines  # known to be harmless: shown as given
    assert_no_leak(Source("header", session, "X-Session-Id"), run.stdout + run.stderr)


def test_api_key_and_auth_token_can_come_from_a_file_or_standard_input(gqlc, tmp_path):
    key = "da2-fromAFileZx8Cv6Bn4Mq2"
    key_file = tmp_path / "key"
    key_file.write_text(key + "\n")
    with harness.start_server(BLOG, seed=SCHEMA_EXAMPLES / "blog-seed.json", api_key=key) as server:
        from_file = gqlc("--schema", BLOG, "--endpoint", server.url, "--api-key", f"@{key_file}", *GET)
        from_stdin = gqlc("--schema", BLOG, "--endpoint", server.url, "--api-key", "-", *GET, stdin=key + "\n")
        from_variable = gqlc("--schema", BLOG, "--endpoint", server.url, *GET, env={"GQLC_API_KEY": f"@{key_file}"})
    for run in (from_file, from_stdin, from_variable):
        assert run.code == 0 and run.json()["id"] == "p1", run
    missing = gqlc("--schema", BLOG, "--endpoint", "http://127.0.0.1:9/graphql", "--auth-token", f"@{tmp_path}/none", *GET)
    assert (missing.code, missing.stderr_lines) == (2, [f"gqlc: --auth-token: {tmp_path}/none: no such file"]), missing
    empty = gqlc("--schema", BLOG, "--endpoint", "http://127.0.0.1:9/graphql", "--api-key", "-", *GET, stdin="\n")
    assert (empty.code, empty.stderr_lines) == (2, ["gqlc: --api-key: <stdin> is empty"]), empty
    help_text = gqlc("help", "options").stdout
    assert "visible to other users in ps" in " ".join(help_text.split()) or "can see a flag's value in ps" in " ".join(help_text.split())


def test_no_core_dump_can_hold_the_processes_secrets():
    read_end, write_end = os.pipe()
    process = subprocess.Popen([str(GQLC_BIN), "--endpoint", "http://127.0.0.1:9/graphql", "--api-key",
                                "da2-neverInACoreFile0123", "raw", "-"], stdin=read_end, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=gqlc_env(), preexec_fn=_allow_core_dumps)
    try:
        wait_until_trapping(process)
        with open(f"/proc/{process.pid}/limits") as limits:
            core = next(line for line in limits if line.startswith("Max core file size")).split()
        process.send_signal(signal.SIGINT)
        finish(process)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert core[4:6] == ["0", "0"], core  # soft and hard limit


def _allow_core_dumps():
    import resource
    resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
                       if resource.getrlimit(resource.RLIMIT_CORE)[1] == resource.RLIM_INFINITY
                       else (resource.getrlimit(resource.RLIMIT_CORE)[1],) * 2)


def test_a_config_directory_others_can_write_is_refused(gqlc, tmp_path):
    config = tmp_path / "config"
    (config / "gqlc").mkdir(parents=True)
    os.chmod(config / "gqlc", 0o777)
    run = gqlc("--schema", BLOG, "whoami", "--user-pool-id", "us-east-1_Dir1", "--client-id", "dirclient",
               env={"XDG_CONFIG_HOME": str(config)})
    assert run.code == 2, run
    assert run.stderr_lines == [f"gqlc: the directory {config}/gqlc can be changed by other users (mode 777); "
                                f"fix it with: chmod go-w {config}/gqlc"], run
