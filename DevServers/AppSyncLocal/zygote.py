"""Start Python test servers by forking a process that has already imported them (a "zygote").

A fresh ``python appsync-local …`` spends about 0.3 CPU-seconds importing graphql-core, websockets and asyncio
before it listens; the end-to-end suite starts some 500 servers. The zygote imports that once per test process
and forks a child for each server, which then runs the same script with the same arguments, environment and
working directory, its stdout a pipe and its stderr the given file, as ``subprocess.Popen`` would start it.
``spawn`` returns a ``ForkedProcess`` that behaves as the ``Popen`` object the harness used before (``pid``,
``stdout``, ``poll``, ``wait``, ``send_signal``, ``terminate``, ``kill``, ``returncode``); ``stop`` ends one (or
any ``Popen``): SIGTERM, then SIGKILL after a grace period.

The zygote reaps its children and writes each one's exit status (``Popen``'s convention: negative for a signal)
to a pipe the test process reads. When the test process goes away the zygote stops its remaining children and
exits. ``GQLC_TEST_FRESH_SERVERS=1`` starts every server as a fresh process instead (to compare, or to debug).
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading

# What the zygote imports before its first fork: everything appsync-local and the Star Wars server load.
PRELOAD = ("appsync_local.cli", "graphql")
FRESH_VARIABLE = "GQLC_TEST_FRESH_SERVERS"


class ForkedProcess:
    """A server forked by the zygote, with the part of ``subprocess.Popen``'s interface the tests use."""

    def __init__(self, args: list[str], pid: int, stdout, status_fd: int) -> None:
        self.args = args
        self.pid = pid
        self.stdout = stdout
        self.stderr = None
        self.returncode: int | None = None
        self._status_fd = status_fd

    def _collect(self, timeout: float | None) -> int | None:
        if self.returncode is None and select.select([self._status_fd], [], [], timeout)[0]:
            status = os.read(self._status_fd, 32)
            os.close(self._status_fd)
            # No status: the zygote itself was killed, and with it the knowledge of how the child ended.
            self.returncode = int(status) if status else -signal.SIGKILL
        return self.returncode

    def poll(self) -> int | None:
        return self._collect(0)

    def wait(self, timeout: float | None = None) -> int:
        if self._collect(timeout) is None:
            raise subprocess.TimeoutExpired(self.args, timeout)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def __del__(self) -> None:
        if self.returncode is None:
            try:
                os.close(self._status_fd)
            except OSError:
                pass


class Zygote:
    """The test process's side: one zygote process, started on first use, asked over a socket pair."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.process = subprocess.Popen([sys.executable, __file__, str(theirs.fileno())], pass_fds=[theirs.fileno()],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        theirs.close()
        self.control = ours
        self.owner = os.getpid()
        self.lock = threading.Lock()

    def spawn(self, command: list[str], stderr_fd: int, env: dict[str, str], cwd: str) -> ForkedProcess:
        """Run ``command`` (``[sys.executable, script, *args]``) in a forked child; stdout is a pipe."""
        stdout_read, stdout_write = os.pipe()
        status_read, status_write = os.pipe()
        request = json.dumps({"argv": [str(part) for part in command[1:]], "env": env, "cwd": cwd}).encode()
        try:
            with self.lock:
                socket.send_fds(self.control, [request], [stdout_write, stderr_fd, status_write])
                reply = self.control.recv(4096)
        finally:
            os.close(stdout_write)
            os.close(status_write)
        if not reply:
            os.close(stdout_read)
            os.close(status_read)
            raise OSError("the server zygote exited")
        return ForkedProcess([str(part) for part in command], json.loads(reply)["pid"], os.fdopen(stdout_read, "rb"),
                             status_read)

    def close(self) -> None:
        self.control.close()  # the zygote exits when its control socket closes
        stop(self.process, grace=10, terminate=False)


def stop(process: ForkedProcess | subprocess.Popen, grace: float, terminate: bool = True) -> None:
    """End a running ``process`` (a server from ``spawn``, or any ``Popen``): SIGTERM (unless ``terminate`` is
    false, when it is already told to exit), then SIGKILL if it has not exited within ``grace`` seconds; it is
    reaped either way. Nothing happens to a process that has already exited."""
    if process.poll() is not None:
        return
    if terminate:
        process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


_zygote: Zygote | None = None
_zygote_lock = threading.Lock()


def spawn(command: list[str], stderr_fd: int, env: dict[str, str]) -> ForkedProcess | subprocess.Popen:
    """Start ``[sys.executable, script, *args]`` forked from this process's zygote (started on first use), or as
    a fresh process under ``GQLC_TEST_FRESH_SERVERS=1``. Its stdout is a pipe; its stderr goes to ``stderr_fd``."""
    global _zygote
    if os.environ.get(FRESH_VARIABLE) == "1" or command[0] != sys.executable:
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr_fd, env=env)
    with _zygote_lock:
        if _zygote is None or _zygote.owner != os.getpid() or _zygote.process.poll() is not None:
            _zygote = Zygote()
            atexit.register(_zygote.close)
        zygote = _zygote
    return zygote.spawn(command, stderr_fd, env, os.getcwd())


# The zygote process.

def _serve(control: socket.socket) -> None:
    import importlib
    for name in PRELOAD:
        importlib.import_module(name)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    status_fds: dict[int, int] = {}
    while True:
        ready = select.select([control, wake_read], [], [])[0]
        if wake_read in ready:
            while True:
                try:
                    if not os.read(wake_read, 512):
                        break
                except BlockingIOError:
                    break
        if control in ready:
            message, fds, _flags, _address = socket.recv_fds(control, 1 << 20, 3)
            if not message:
                break
            request = json.loads(message)
            pid = os.fork()
            if pid == 0:
                _run_child(request, fds, (control.fileno(), wake_read, wake_write, *status_fds.values()))
            status_fds[pid] = fds[2]
            os.close(fds[0])
            os.close(fds[1])
            control.send(json.dumps({"pid": pid}).encode())
        _reap(status_fds)
    for pid in status_fds:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


def _reap(status_fds: dict[int, int]) -> None:
    while status_fds:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        fd = status_fds.pop(pid, None)
        if fd is not None:
            try:
                os.write(fd, str(os.waitstatus_to_exitcode(status)).encode())
            except OSError:
                pass  # the test process no longer listens
            os.close(fd)


def _run_child(request: dict, fds: list[int], inherited: tuple[int, ...]) -> None:
    """In the forked child: become ``python SCRIPT ARGS…`` and exit as that process would."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for fd in inherited:
            os.close(fd)
        stdout_fd, stderr_fd, status_fd = fds
        os.close(status_fd)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(stdout_fd, 1)
        os.dup2(stderr_fd, 2)
        for fd in (devnull, stdout_fd, stderr_fd):
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        script = request["argv"][0]
        sys.argv = list(request["argv"])
        sys.path[0] = os.path.dirname(os.path.realpath(script))
        code = _run_script(script)
    finally:
        os._exit(code)


def _run_script(script: str) -> int:
    """Run ``script`` as ``__main__`` and end as the interpreter would: the exit status of ``sys.exit``, a
    traceback and 1 for an uncaught exception, non-daemon threads joined, ``atexit`` handlers run."""
    import atexit as child_atexit
    import runpy
    import traceback
    try:
        runpy.run_path(script, run_name="__main__")
        code = 0
    except SystemExit as exit_:
        if exit_.code is None or isinstance(exit_.code, int):
            code = exit_.code or 0
        else:
            print(exit_.code, file=sys.stderr)
            code = 1
    except BaseException:  # noqa: BLE001 - as an uncaught exception ends an interpreter
        traceback.print_exc()
        code = 1
    shutdown = getattr(threading, "_shutdown", None)
    if shutdown is not None:
        shutdown()
    child_atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    return code


if __name__ == "__main__":
    _serve(socket.socket(fileno=int(sys.argv[1])))
