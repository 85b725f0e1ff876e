"""The results table: medians, ratios against baselines, targets, and where it was measured."""

import datetime
import os
import platform
import re
import statistics
import subprocess
from dataclasses import dataclass, field


def median(values):
    return statistics.median(values) if values else float("nan")


def paired_ratio(numerators, denominators):
    """Median of per-run ratios: each run pairs gqlc with the baseline measured next to it."""
    return median([n / d for n, d in zip(numerators, denominators) if d > 0])


def seconds(value):
    if value != value:  # NaN
        return "—"
    return "%.1f ms" % (value * 1000) if value < 1 else "%.2f s" % value


def mebibytes(kib):
    return "%.1f MiB" % (kib / 1024)


@dataclass
class Row:
    scenario: str
    gqlc: str
    baseline: str
    ratio: str = "—"
    target: str = "—"
    verdict: str = "—"  # PASS, MISS, or — when there is no target or no gqlc


@dataclass
class Report:
    rows: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    def add(self, row):
        self.rows.append(row)

    def note(self, text):
        self.notes.append(text)

    def markdown(self, machine):
        lines = ["## Benchmarks", "", machine, "",
                 "| Scenario | gqlc | Baseline | Ratio | Target | Result |",
                 "|---|---|---|---|---|---|"]
        for row in self.rows:
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                row.scenario, row.gqlc, row.baseline, row.ratio, row.target, row.verdict))
        if self.notes:
            lines.append("")
            lines += ["- " + note for note in self.notes]
        return "\n".join(lines) + "\n"


def verdict(ok):
    return "PASS" if ok else "**MISS**"


def _first_line(argv):
    try:
        out = subprocess.run(argv, capture_output=True, timeout=30).stdout.decode(errors="replace")
        return out.strip().splitlines()[0] if out.strip() else "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def _swift_version():
    line = _first_line(["swift", "--version"])
    match = re.search(r"Swift version (\S+)", line)
    return "Swift " + match.group(1) if match else line


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib():
    try:
        with open("/proc/meminfo") as info:
            for line in info:
                if line.startswith("MemTotal:"):
                    return "%.0f GiB RAM" % (int(line.split()[1]) / 1024 / 1024)
    except OSError:
        pass
    return "RAM unknown"


def load_average():
    """The 1-minute load average, or None where the system has none."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def machine_description(gqlc_binary=None, linkage=None, load_at_start=None):
    """One paragraph: the date, the machine, the toolchain and the binary under test."""
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    parts = [
        "Measured %s on %s (%d cores, %s), %s %s, %s, %s, curl %s, %s." % (
            today, _cpu_model(), os.cpu_count() or 0, _memory_gib(), platform.system(), platform.release(),
            _swift_version(),
            "Python " + platform.python_version(),
            _first_line(["curl", "--version"]).split(" ")[1] if _first_line(["curl", "--version"]) != "unknown"
            else "unknown",
            _first_line(["jq", "--version"])),
    ]
    if load_at_start is not None:
        busy = load_at_start > 0.5 * (os.cpu_count() or 1)
        parts.append("Load average before the run: %.2f%s." % (
            load_at_start, " (**busy machine: figures are noisy; rerun when idle**)" if busy else ""))
    if gqlc_binary:
        parts.append("gqlc: `%s`%s." % (gqlc_binary, ", " + linkage if linkage else ""))
    parts.append("Loopback only; every figure is a median over interleaved runs (gqlc, then its baseline, "
                 "alternating which goes first); ratios are medians of per-run ratios.")
    return " ".join(parts)
