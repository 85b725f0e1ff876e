"""Helpers, constants and fixtures of test_signals_while_reading.py, shared with other test modules."""

from __future__ import annotations
import os
import signal
import subprocess
import time
import pytest
from gqlc_runner import GQLC_BIN, gqlc_env


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


def wait_for_request(process: subprocess.Popen, server, text: str, after: int = 0) -> None:
    """Waits until ``server`` (started with ``record_requests=True``) has received a request whose body holds
    ``text``, beyond its first ``after`` requests, while gqlc (``process``) is still running."""
    deadline = time.monotonic() + HANG_LIMIT
    while not any(text in request["body"] for request in server.requests()[after:]):
        assert process.poll() is None, finish(process)
        assert time.monotonic() < deadline, f"the server never received a request with {text!r}"
        time.sleep(0.005)  # polling the request log for an event, not waiting for time to pass
