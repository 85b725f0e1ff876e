"""Runs the built gqlc binary the way a user's shell would, and captures what it did.

The binary is ``$GQLC_BIN`` (``make test`` sets it) or ``.build/debug/gqlc``. Each run gets a clean
environment (``gqlc_env``): no proxy variables (libcurl would route loopback traffic through them) and none of
the outer shell's settings that change what gqlc does, unless the test passes them.
"""

from __future__ import annotations

import json
import os
import pty
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import harness

GQLC_BIN = Path(os.environ.get("GQLC_BIN") or harness.REPO_ROOT / ".build" / "debug" / "gqlc")


@dataclass
class Run:
    """One finished gqlc process."""

    args: list[str]
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        """stdout parsed as one JSON document."""
        return json.loads(self.stdout)

    def ndjson(self) -> list[Any]:
        """stdout parsed as one JSON value per line."""
        return [json.loads(line) for line in self.stdout.splitlines() if line]

    @property
    def stderr_lines(self) -> list[str]:
        return self.stderr.splitlines()

    def __str__(self) -> str:
        return f"gqlc {' '.join(self.args)} -> {self.code}\nstdout: {self.stdout[:2000]}\nstderr: {self.stderr[:2000]}"


# What the outer shell may set that changes what gqlc does: its own settings, AWS credentials, profiles and
# regions (a CI machine on AWS has container or instance credentials), where tokens and caches live, colour
# and width. A run sees none of them unless the test passes them.
_LEAKING_PREFIXES = ("GQLC_", "AWS_")
_LEAKING = {"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "NO_COLOR", "COLUMNS", "LINES"}
_HOME: list[str] = []


def _empty_home() -> str:
    """A HOME of the test session's own, empty at its start: no ~/.aws, ~/.config/gqlc or ~/.cache/gqlc of the
    person or machine running the tests."""
    if not _HOME:
        import atexit
        import shutil
        import tempfile

        _HOME.append(tempfile.mkdtemp(prefix="gqlc-test-home-"))
        atexit.register(shutil.rmtree, _HOME[0], True)
    return _HOME[0]


def gqlc_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a gqlc run: clean of proxies and of the caller's GQLC_*, AWS_*, XDG_*_HOME, NO_COLOR
    and COLUMNS settings, with an empty HOME, a colour terminal type and no instance metadata service (a test
    that wants any of them passes it in ``extra``)."""
    env = {k: v for k, v in harness.clean_env().items() if not k.startswith(_LEAKING_PREFIXES) and k not in _LEAKING}
    env.update({"HOME": _empty_home(), "TERM": "xterm-256color", "AWS_EC2_METADATA_DISABLED": "true"})
    env.update(extra or {})
    return env


def run_gqlc(args: Iterable[str], env: dict[str, str] | None = None, stdin: str | bytes | None = None,
             timeout: float = 60, cwd: str | os.PathLike | None = None) -> Run:
    """Runs gqlc with ``args`` and waits for it."""
    arguments = [str(a) for a in args]
    data = stdin.encode() if isinstance(stdin, str) else stdin
    completed = subprocess.run(
        [str(GQLC_BIN), *arguments], input=data, capture_output=True, timeout=timeout,
        env=gqlc_env(env), cwd=cwd)
    return Run(arguments, completed.returncode,
               completed.stdout.decode("utf-8", "replace"), completed.stderr.decode("utf-8", "replace"))


def runner_for(schema: str | os.PathLike, endpoint: str, *fixed: str):
    """A ``run(*args, env=, stdin=, timeout=, cwd=)`` that passes ``--schema``, ``--endpoint`` and ``fixed`` first."""
    def run(*args, env: dict[str, str] | None = None, stdin: str | bytes | None = None, timeout: float = 60,
            cwd: str | os.PathLike | None = None) -> Run:
        return run_gqlc(["--schema", schema, "--endpoint", endpoint, *fixed, *args], env=env, stdin=stdin,
                        timeout=timeout, cwd=cwd)
    return run


def on_terminal(args, env=None, stdout_tty=True, stderr_tty=False, stdout_file=False):
    """Runs gqlc with stdout and/or stderr on a pseudo-terminal; returns (code, stdout, stderr) as text. Off the
    terminal, stdout is a pipe, or a regular file with ``stdout_file`` (``gqlc … > out.json``)."""
    import tempfile

    master, slave = pty.openpty()
    out_file = tempfile.TemporaryFile() if stdout_file and not stdout_tty else None
    process = subprocess.Popen([str(GQLC_BIN), *map(str, args)], env=gqlc_env(env),
                               stdout=slave if stdout_tty else out_file or subprocess.PIPE,
                               stderr=slave if stderr_tty else subprocess.PIPE)
    os.close(slave)
    captured = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer has closed the terminal
            break
        if not chunk:
            break
        captured += chunk
    piped_out = process.stdout.read() if process.stdout else b""
    piped_err = process.stderr.read() if process.stderr else b""
    code = process.wait(timeout=60)
    if out_file:
        out_file.seek(0)
        piped_out = out_file.read()
        out_file.close()
    os.close(master)
    text = captured.decode().replace("\r\n", "\n")
    out = text if stdout_tty else piped_out.decode()
    err = text if stderr_tty else piped_err.decode()
    return code, out, err


# Sockets bound but never listening: connecting to one is refused, and no other server can take its port.
_HELD_PORTS: list[socket.socket] = []


def closed_port_url() -> str:
    """A loopback URL on which nothing listens. The port stays bound (without listening) for the session, so
    that a server started meanwhile, here or by a concurrent run, cannot be given it and answer."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    _HELD_PORTS.append(probe)
    return f"http://127.0.0.1:{probe.getsockname()[1]}/graphql"


class Terminal:
    """gqlc in a pseudo-terminal of its own (its controlling terminal), read as a user would see it."""

    def __init__(self, args: Iterable[str], env: dict[str, str] | None = None):
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            os.execve(str(GQLC_BIN), [str(GQLC_BIN), *[str(arg) for arg in args]], gqlc_env(env))
        self.seen = b""

    def read_until(self, marker: bytes) -> None:
        import select

        while marker not in self.seen:
            assert select.select([self.fd], [], [], 30)[0], self.seen
            try:
                chunk = os.read(self.fd, 1024)
            except OSError:  # the child closed the terminal
                chunk = b""
            assert chunk, self.seen
            self.seen += chunk

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def exit_code(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)
