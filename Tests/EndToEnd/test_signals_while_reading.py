"""Ctrl-C and SIGTERM end gqlc while it waits to read standard input, a pipe, a FIFO or a terminal (issue 22: two
processes survived SIGTERM for 10 and 24 minutes). Every read and open waits on the cancellation pipe too; the exit
status is 130 after SIGINT and 143 after SIGTERM.

Each test starts gqlc on an input that never ends, waits until gqlc takes signals itself (its main thread blocks
SIGINT, as /proc shows) or until it has printed a first record, then signals it. The time limits only keep a broken
build from hanging the suite: before the change gqlc waited there until it was killed."""

from __future__ import annotations
import os
import pty
import signal
import pytest
from harness import start_server
from signals_support import (  # noqa: F401 - fixtures among them
    HANG_LIMIT,
    UNREACHABLE,
    STATUS,
    start,
    wait_until_trapping,
    wait_for_reader,
    signalled_with_a_silent_writer,
    finish,
)


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
