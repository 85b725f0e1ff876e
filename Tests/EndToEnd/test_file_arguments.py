"""Every FILE argument reads pipes, FIFOs, process substitution and character devices, once, and says what is
wrong in the same words when it cannot: `--schema`, `--vars`, `--filter @FILE`, `--input`, `raw FILE` and the
AWS shared credentials file.

Process substitution runs through bash (`<(…)` is bash's). An unreadable file is tested for real: a file with
mode 000 read by a user other than root (as root, gqlc runs as `nobody` through setpriv, since root reads any file).
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

import harness
from gqlc_runner import GQLC_BIN, Run, gqlc_env

SCHEMA_EXAMPLES = harness.REPO_ROOT / "schema-examples"
BLOG = SCHEMA_EXAMPLES / "blog.json"
KEY_ID, SECRET = "AKIDFILEARGS", "file-args-secret"
AWS_VARIABLES = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION",
                 "AWS_DEFAULT_REGION", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE")


@pytest.fixture(scope="module")
def servers():
    """A seeded blog server with an API key, and one that wants IAM signatures; only read from."""
    plain = harness.start_server(BLOG, seed=SCHEMA_EXAMPLES / "blog-seed.json")
    iam = harness.start_server(BLOG, seed=SCHEMA_EXAMPLES / "blog-seed.json",
                               args=("--region", "us-east-1", "--iam-credentials", f"{KEY_ID}:{SECRET}"))
    yield plain.url, iam.url
    plain.stop()
    iam.stop()


@dataclass
class Argument:
    """One FILE argument: the text that works in it, how a command uses a path, and how its errors start."""

    name: str
    content: str
    command: Callable[[str, str, str], tuple[list[str], dict[str, str]]]  # (path, url, iam url) -> args, env
    check: Callable[[Run], None]
    prefix: str  # before the file's name in an error line

    def error(self, path: str, reason: str) -> str:
        return f"gqlc: {self.prefix}{path}: {reason}\n"


def _title_of_p1(run: Run) -> None:
    assert run.code == 0, run
    assert "A sourdough starter in seven days" in run.stdout, run


def _only_p1(run: Run) -> None:
    _title_of_p1(run)
    assert [item["id"] for item in run.json()] == ["p1"], run


def _no_aws(**extra: str) -> dict[str, str]:
    env = {name: "" for name in AWS_VARIABLES}
    env.update(extra)
    return env


ARGUMENTS = [
    Argument("schema", BLOG.read_text(),
             lambda path, url, _: (["--schema", path, "--endpoint", url, "get", "Post", "--id", "p1"], {}),
             _title_of_p1, ""),
    Argument("vars", '{"id": "p1"}',
             lambda path, url, _: (["--endpoint", url, "raw", "--query",
                                    "query($id: ID!) { getPost(id: $id) { title } }", "--vars", path], {}),
             _title_of_p1, "--vars: "),
    Argument("filter", '{"id": {"eq": "p1"}}',
             lambda path, url, _: (["--schema", str(BLOG), "--endpoint", url, "list", "Post", "--filter", "@" + path],
                                   {}),
             lambda run: _only_p1(run),
             "--filter: "),
    Argument("input", '{"title": "A sourdough starter in seven days"}',
             lambda path, url, _: (["--schema", str(BLOG), "--endpoint", url, "update", "Post", "--id", "p1",
                                    "--input", path], {}),
             _title_of_p1, "--input: "),
    Argument("raw", 'query { getPost(id: "p1") { title } }',
             lambda path, url, _: (["--endpoint", url, "raw", path], {}),
             _title_of_p1, ""),
    Argument("credentials", f"[default]\naws_access_key_id = {KEY_ID}\naws_secret_access_key = {SECRET}\n",
             lambda path, _, iam: (["--schema", str(BLOG), "--endpoint", iam, "--iam", "--region", "us-east-1",
                                    "--profile", "default", "get", "Post", "--id", "p1"],
                                   _no_aws(AWS_SHARED_CREDENTIALS_FILE=path)),
             _title_of_p1, ""),
]
IDS = [argument.name for argument in ARGUMENTS]


def run_shell(script: str, env: dict[str, str], stdin: bytes | None = None) -> Run:
    """Runs a bash script (for `<(…)`); its output is gqlc's."""
    completed = subprocess.run(["bash", "-c", script], input=stdin, capture_output=True, timeout=60,
                               env=gqlc_env(env))
    return Run([script], completed.returncode, completed.stdout.decode("utf-8", "replace"),
               completed.stderr.decode("utf-8", "replace"))


def run_direct(args: list[str], env: dict[str, str], stdin: bytes | None = None, user: list[str] = ()) -> Run:
    completed = subprocess.run([*user, str(GQLC_BIN), *args], input=stdin, capture_output=True, timeout=60,
                               env=gqlc_env(env))
    return Run(args, completed.returncode, completed.stdout.decode("utf-8", "replace"),
               completed.stderr.decode("utf-8", "replace"))


MARK = "@@PATH@@"


@pytest.mark.parametrize("argument", ARGUMENTS, ids=IDS)
def test_process_substitution(argument, servers):
    args, env = argument.command(MARK, *servers)
    substitution = f"<(printf %s {shlex.quote(argument.content)})"
    words = [shlex.quote(word.split(MARK)[0]) + substitution if MARK in word else shlex.quote(word) for word in args]
    prefix = ""
    for name, value in env.items():
        if value == MARK:  # bash does not substitute in assignments: hand it over as descriptor 3
            prefix = f"exec 3< {substitution}; "
            env = {**env, name: "/dev/fd/3"}
    run = run_shell(prefix + "exec " + shlex.quote(str(GQLC_BIN)) + " " + " ".join(words), env)
    argument.check(run)


@pytest.mark.parametrize("argument", ARGUMENTS, ids=IDS)
def test_fifo(argument, servers, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "wb") as writer:  # blocks until gqlc opens the FIFO
            writer.write(argument.content.encode())

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    args, env = argument.command(str(fifo), *servers)
    run = run_direct(args, env)
    if feeder.is_alive():  # gqlc never opened it: release the writer
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
    feeder.join(timeout=10)
    argument.check(run)


@pytest.mark.parametrize("argument", ARGUMENTS, ids=IDS)
def test_dev_stdin(argument, servers):
    args, env = argument.command("/dev/stdin", *servers)
    argument.check(run_direct(args, env, stdin=argument.content.encode()))


@pytest.mark.parametrize("argument", ARGUMENTS, ids=IDS)
def test_dev_null_is_read_as_empty(argument, servers):
    args, env = argument.command("/dev/null", *servers)
    run = run_direct(args, env)
    assert run.code == 2, run
    assert run.stderr_lines[0].startswith("gqlc: ") and "/dev/null" in run.stderr_lines[0], run
    assert "cannot be read" not in run.stderr and "permission denied" not in run.stderr, run
    assert "empty" in run.stderr or "end of input" in run.stderr or "no profiles" in run.stderr, run


@pytest.mark.parametrize("argument", ARGUMENTS, ids=IDS)
def test_a_directory(argument, servers, tmp_path):
    args, env = argument.command(str(tmp_path), *servers)
    run = run_direct(args, env)
    assert run.code == 2, run
    assert run.stderr == argument.error(str(tmp_path), "is a directory, not a file"), run


@pytest.mark.parametrize("argument", [a for a in ARGUMENTS if a.name != "credentials"], ids=IDS[:-1])
def test_a_missing_file(argument, servers, tmp_path):
    path = str(tmp_path / "missing.json")
    args, env = argument.command(path, *servers)
    run = run_direct(args, env)
    assert run.code == 2, run
    assert run.stderr == argument.error(path, "no such file"), run


def _as_another_user() -> list[str]:
    """How to run gqlc as a user that file modes apply to: nobody, through setpriv, when this is root."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: no user for whom a mode-000 file is unreadable")
    probe = subprocess.run([setpriv, "--reuid", "65534", "--regid", "65534", "--clear-groups", str(GQLC_BIN),
                            "--version"], capture_output=True, env=gqlc_env())
    if probe.returncode != 0:
        pytest.skip(f"the gqlc binary cannot be run as nobody: {probe.stderr.decode(errors='replace').strip()}")
    return [setpriv, "--reuid", "65534", "--regid", "65534", "--clear-groups"]


@pytest.mark.parametrize("argument", ARGUMENTS, ids=IDS)
def test_an_unreadable_file_is_permission_denied(argument, servers):
    user = _as_another_user()
    directory = tempfile.mkdtemp(prefix="gqlc-unreadable-")
    try:
        os.chmod(directory, 0o755)  # anyone may look inside; only the file is closed
        path = os.path.join(directory, "closed")
        Path(path).write_text(argument.content)
        os.chmod(path, 0)
        args, env = argument.command(path, *servers)
        # The checkout may sit in a folder only root can enter (a fresh clone in mktemp -d): give the other
        # user a schema it can read, so that the closed file is the only thing it cannot.
        schema = os.path.join(directory, "blog.json")
        shutil.copyfile(BLOG, schema)
        os.chmod(schema, 0o644)
        args = [schema if arg == str(BLOG) else arg for arg in args]
        run = run_direct(args, env, user=user)
    finally:
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
        shutil.rmtree(directory)
    assert run.code == 2, run
    assert run.stderr == argument.error(path, "permission denied"), run


def test_an_endless_device_is_too_large_not_a_hang(servers):
    run = run_direct(["--endpoint", servers[0], "raw", "--query", "{ __typename }", "--vars", "/dev/zero"], {})
    assert run.code == 2, run
    assert run.stderr == "gqlc: --vars: /dev/zero: larger than 256 MiB; this is not a file gqlc can use\n", run
