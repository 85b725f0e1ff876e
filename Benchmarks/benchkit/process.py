"""Running one measured child process: wall time, CPU time of its whole tree, and peak RSS."""

import os
import resource
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "ftp_proxy", "no_proxy")


def child_environment(extra=None):
    """The harness's environment without proxies: URLSession and curl both honour them, even for
    127.0.0.1, and every request here is to loopback."""
    env = {key: value for key, value in os.environ.items() if key.lower() not in PROXY_VARIABLES}
    env["NO_PROXY"] = env["no_proxy"] = "*"
    env.update(extra or {})
    return env


@dataclass
class Measurement:
    """What one finished child cost. CPU time includes every descendant the child waited for."""
    wall: float  # seconds
    cpu: float  # seconds, user + system
    peak_rss_kb: int  # the child's own high-water RSS, in KiB
    returncode: int
    stderr: str


class MeasurementError(RuntimeError):
    pass


def _high_water_kb(pid):
    """VmHWM of a live process: the peak RSS of its current address space (so, since its exec)."""
    try:
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def measure(argv, *, env=None, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, timeout=300.0,
            watch_rss=False, check=True):
    """Runs argv to completion and measures it.

    Wall time brackets fork to reap. CPU time is the child's rusage from wait4, which on Linux also
    holds the usage of every descendant the child reaped (so `bash -c` covers its whole loop).
    Peak RSS: wait4's ru_maxrss is polluted by the pre-exec copy of this Python process, so it is
    only trusted when it exceeds our own peak; otherwise (and always, with watch_rss) /proc VmHWM is
    sampled every 2 ms until the child exits, which sees all but its last couple of milliseconds.
    """
    parent_peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        child = subprocess.Popen(argv, env=env or child_environment(), stdin=stdin, stdout=stdout, stderr=errors)
        sampled = [0]
        finished = threading.Event()
        sampler = None
        if watch_rss:
            def sample():
                while not finished.is_set():
                    sampled[0] = max(sampled[0], _high_water_kb(child.pid))
                    finished.wait(0.002)
            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
        # os.kill, not child.kill: Popen.kill polls, which would reap the child before wait4 can.
        killer = threading.Timer(timeout, os.kill, (child.pid, signal.SIGKILL))
        killer.start()
        try:
            # Wait without reaping, so the sampler never reads a recycled pid.
            os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)
            finished.set()
            if sampler is not None:
                sampler.join()
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - started
        finally:
            killer.cancel()
            finished.set()
        child.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        stderr = errors.read().decode(errors="replace")
    peak = sampled[0]
    if usage.ru_maxrss > parent_peak_kb:
        peak = max(peak, usage.ru_maxrss)
    result = Measurement(wall, usage.ru_utime + usage.ru_stime, peak, child.returncode, stderr)
    if check and child.returncode != 0:
        command = " ".join(str(part) for part in argv)
        raise MeasurementError("%s exited %d after %.1f s: %s" % (
            command[:200], child.returncode, wall, stderr.strip()[-500:] or "(no stderr)"))
    return result


def capture(argv, *, env=None, timeout=60.0, stdin_data=None):
    """Runs argv unmeasured and returns (returncode, stdout, stderr) as text."""
    completed = subprocess.run(argv, env=env or child_environment(), input=stdin_data, capture_output=True,
                               timeout=timeout)
    return (completed.returncode, completed.stdout.decode(errors="replace"),
            completed.stderr.decode(errors="replace"))
