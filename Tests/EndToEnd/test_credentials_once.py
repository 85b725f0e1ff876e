"""The AWS credential chain is resolved once per process, however many clients a command makes (issue 23): a
credential_process helper that counts its runs is run exactly once by get, list --include, delete with its orphan
check, delete --cascade, a bulk create with 8 workers, and subscribe."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from gqlc_runner import GQLC_BIN, gqlc_env, run_gqlc

REGION = "eu-west-1"
KEY_ID, SECRET = "AKIDCOUNTEDPROCESS01", "cOuNtEdPrOcEsSsEcReT/0123456789abcdefghij"
HELPER = textwrap.dedent(f"""\
    import json, sys
    with open(sys.argv[1], "a") as runs:
        runs.write("run\\n")
    print(json.dumps({{"Version": 1, "AccessKeyId": {KEY_ID!r}, "SecretAccessKey": {SECRET!r},
                      "Expiration": "2099-01-01T00:00:00Z"}}))
    """)


@pytest.fixture
def server(start_appsync, schema_examples_dir):
    return start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                         args=("--region", REGION, "--iam-credentials", f"{KEY_ID}:{SECRET}"))


@pytest.fixture
def counted(tmp_path, server, schema_examples_dir):
    """``counted(*args)`` runs gqlc with a profile whose credential_process counts its runs; returns (run, runs)."""
    helper, runs = tmp_path / "helper.py", tmp_path / "runs"
    helper.write_text(HELPER)
    (tmp_path / ".aws").mkdir()
    (tmp_path / ".aws" / "config").write_text(
        f"[profile counted]\ncredential_process = {sys.executable} {helper} {runs}\nregion = {REGION}\n")
    env = {"HOME": str(tmp_path), "AWS_PROFILE": "", "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "",
           "AWS_CONFIG_FILE": "", "AWS_SHARED_CREDENTIALS_FILE": ""}
    base = ["--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, "--profile", "counted"]

    def run(*args, stdin=None):
        runs.write_text("")
        result = run_gqlc([*base, *args], env=env, stdin=stdin)
        return result, runs.read_text().count("run")
    run.base, run.env, run.runs = base, env, runs
    return run


@pytest.mark.parametrize("args", [
    ("get", "Post", "--id", "p1", "--include", "comments"),
    ("list", "Post", "--include", "comments", "--page-size", "2"),
    ("delete", "Post", "--id", "p2"),  # with its orphan check (p2 has comments)
    ("delete", "Blog", "--id", "b1", "--cascade", "--yes"),
])
def test_one_command_resolves_the_credentials_once(counted, args):
    run, runs = counted(*args)
    assert run.code in (0, 3), run
    assert runs == 1, run


def test_a_bulk_create_with_eight_workers_resolves_them_once(counted):
    lines = "".join(json.dumps({"id": f"n{i}", "content": "c", "postId": "p1"}) + "\n" for i in range(40))
    run, runs = counted("create", "Comment", "--input", "-", "--concurrency", "8", stdin=lines)
    assert run.code == 0, run
    assert runs == 1


def test_subscribe_resolves_them_once(counted):
    counted.runs.write_text("")
    process = subprocess.Popen([str(GQLC_BIN), *map(str, counted.base), "subscribe", "Post", "--on", "create",
                                "--count", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=gqlc_env(counted.env), text=True)
    try:
        assert process.stderr.readline().strip() == "subscribed: onCreatePost"
        assert counted.runs.read_text().count("run") == 1
        run, _ = counted("create", "Post", "id=s9", "title=Heard")
        assert run.code == 0, run
        assert json.loads(process.stdout.readline())["id"] == "s9"
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
