"""Ctrl-C and SIGTERM end gqlc while it waits to read standard input, a pipe, a FIFO or a terminal (issue 22: two
processes survived SIGTERM for 10 and 24 minutes). Every read and open waits on the cancellation pipe too; the exit
status is 130 after SIGINT and 143 after SIGTERM.

Each test starts gqlc on an input that never ends, waits until gqlc takes signals itself (its main thread blocks
SIGINT, as /proc shows) or until it has printed a first record, then signals it. The time limits only keep a broken
build from hanging the suite: before the change gqlc waited there until it was killed.
"""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import time

import pytest

from gqlc_runner import GQLC_BIN, gqlc_env
from harness import start_server

HANG_LIMIT = 30
UNREACHABLE = "http://127.0.0.1:9/graphql"  # nothing is sent: gqlc is stopped before its first request
STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}


def start(args, stdin=subprocess.DEVNULL, env=None) -> subprocess.Popen:
    return subprocess.Popen([str(GQLC_BIN), *map(str, args)], stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=gqlc_env(env))


def wait_until_trapping(process: subprocess.Popen) -> None:
    """Waits until gqlc's signal trap is installed: its main thread then blocks SIGINT and SIGTERM."""
    deadline = time.monotonic() + HANG_LIMIT
    wanted = (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGTERM - 1))
    while True:
        assert process.poll() is None, process.communicate()
        with open(f"/proc/{process.pid}/status") as status:
            blocked = next(int(line.split()[1], 16) for line in status if line.startswith("SigBlk:"))
        if blocked & wanted == wanted:
            return
        assert time.monotonic() < deadline, "gqlc never installed its signal trap"
        time.sleep(0.005)  # polling /proc for a state change, not waiting for time to pass


def wait_for_reader(fifo) -> int:
    """Opens ``fifo`` for writing as soon as gqlc has opened it for reading (until then a non-blocking open fails
    with ENXIO); returns the writing end, which the caller keeps open and silent."""
    deadline = time.monotonic() + HANG_LIMIT
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            assert time.monotonic() < deadline, "gqlc never opened the FIFO"
            time.sleep(0.005)  # polling for gqlc's open, not waiting for time to pass


def signalled_with_a_silent_writer(process: subprocess.Popen, fifo, number: int) -> tuple[int, str, str]:
    """Signals gqlc once it has opened ``fifo``, whose writer is there but writes nothing; its ending."""
    writer = wait_for_reader(fifo)
    try:
        process.send_signal(number)
        return finish(process)
    finally:
        os.close(writer)


def finish(process: subprocess.Popen) -> tuple[int, str, str]:
    try:
        out, err = process.communicate(timeout=HANG_LIMIT)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"gqlc ignored the signal; stderr: {err.decode()!r}")
    return process.returncode, out.decode(), err.decode()


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_raw_dash_on_a_pipe_that_stays_open(number):
    read_end, write_end = os.pipe()
    try:
        process = start(["--endpoint", UNREACHABLE, "--api-key", "k", "raw", "-"], stdin=read_end)
        wait_until_trapping(process)
        process.send_signal(number)
        code, out, err = finish(process)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert (code, out, err) == (STATUS[number], "", "gqlc: <stdin>: interrupted while waiting to read it\n")


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_vars_from_a_fifo_that_no_one_writes(tmp_path, number):
    """Before any writer the open itself blocked; then the read."""
    fifo = tmp_path / "vars.fifo"
    os.mkfifo(fifo)
    process = start(["--endpoint", UNREACHABLE, "--api-key", "k", "raw", "--query", "{ __typename }", "--vars", fifo])
    wait_until_trapping(process)
    process.send_signal(number)
    code, out, err = finish(process)
    assert (code, out, err) == (STATUS[number], "", f"gqlc: --vars: {fifo}: interrupted while waiting to read it\n")


def test_filter_from_a_fifo_whose_writer_says_nothing(tmp_path, schema_examples_dir):
    fifo = tmp_path / "filter.fifo"
    os.mkfifo(fifo)
    process = start(["--schema", schema_examples_dir / "blog.json", "--endpoint", UNREACHABLE, "--api-key", "k",
                     "list", "Post", "--filter", f"@{fifo}"])
    code, out, err = signalled_with_a_silent_writer(process, fifo, signal.SIGINT)
    assert (code, out, err) == (130, "", f"gqlc: --filter: {fifo}: interrupted while waiting to read it\n")


def test_a_web_identity_token_fifo(tmp_path, schema_examples_dir):
    fifo = tmp_path / "token.fifo"
    os.mkfifo(fifo)
    env = {"AWS_WEB_IDENTITY_TOKEN_FILE": str(fifo), "AWS_ROLE_ARN": "arn:aws:iam::123456789012:role/ci",
           "AWS_REGION": "us-east-1"}
    process = start(["--schema", schema_examples_dir / "blog.json", "--endpoint", UNREACHABLE, "--iam",
                     "get", "Post", "--id", "p1"], env=env)
    code, out, err = signalled_with_a_silent_writer(process, fifo, signal.SIGTERM)
    assert code == 143 and out == "", err
    assert f"{fifo}: interrupted while waiting to read it" in err, err


def test_bulk_create_from_a_terminal_ends_on_ctrl_c_without_ctrl_d(schema_examples_dir):
    """`create --input -` on a terminal used to end only with Ctrl-D."""
    master, slave = pty.openpty()
    try:
        process = start(["--schema", schema_examples_dir / "blog.json", "--endpoint", UNREACHABLE, "--api-key", "k",
                         "create", "Post", "--input", "-"], stdin=slave)
        wait_until_trapping(process)
        process.send_signal(signal.SIGINT)
        code, out, err = finish(process)
    finally:
        os.close(master)
        os.close(slave)
    assert code == 130 and out == "", err
    assert "interrupted" in err, err


def test_bulk_create_from_a_quiet_pipe_stops_after_what_it_read(schema_examples_dir):
    """Records are created and printed as they come (gqlc reads two ahead); the pipe then stays open and silent
    until SIGTERM: what was read is done, and the summary says so."""
    schema = schema_examples_dir / "blog.json"
    with start_server(schema) as server:
        read_end, write_end = os.pipe()
        try:
            process = start(["--schema", schema, "--endpoint", server.url, "create", "Comment", "--input", "-"],
                            stdin=read_end)
            for number in range(3):
                os.write(write_end, b'{"id": "q%d", "content": "piped", "postId": "p1"}\n' % number)
            for number in range(3):  # all three done and printed: gqlc now waits for a fourth
                line = process.stdout.readline()
                assert b'"q%d"' % number in line, line
            process.send_signal(signal.SIGTERM)
            code, out, err = finish(process)
        finally:
            os.close(read_end)
            os.close(write_end)
    assert code == 143, err
    assert err.splitlines() == ["gqlc: --input: <stdin>: interrupted while waiting to read it; the records before it "
                                "were processed", "3 created, 0 failed in " + err.splitlines()[-1].split(" in ")[1]], err
    assert out == ""
