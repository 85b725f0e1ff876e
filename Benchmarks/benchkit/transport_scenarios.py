"""Transport scenarios: what a request costs while it waits for a slow server."""

import json
import os
import subprocess

from . import requests
from .process import MeasurementError, capture, measure
from .report import Row, median, seconds, verdict
from .servers import Server, ServerError

WAIT_CPU_TARGET = 0.030  # seconds of CPU for one get whose answer takes 2 s
LATENCY_MS = 2000
BINARY_TARGET_MB = 16  # the release binary, static Swift stdlib, no Foundation


def binary_size(context):
    """The size of the gqlc binary measured (`make release`: static Swift stdlib, debug info stripped)."""
    if context.gqlc is None:
        return
    size = os.path.getsize(context.gqlc.binary) / 1e6
    context.raw["binary bytes"] = os.path.getsize(context.gqlc.binary)
    context.report.add(Row("Release binary size (`make release`)", "%.1f MB" % size, "—", "—",
                           "≤ %d MB" % BINARY_TARGET_MB, verdict(size <= BINARY_TARGET_MB)))


def waiting_cpu(context, appsync, seed, runs=3):
    """CPU of one whole-process `get` against the local AppSync server answering after 2 s, beside curl's.
    A transport that busy-waits burns the 2 s; one that sleeps in poll costs what a fast answer costs."""
    if context.gqlc is None:
        return
    label = "CPU while waiting %d s for a response" % (LATENCY_MS // 1000)
    argv = [appsync, "--schema", context.args.schema, "--seed", seed, "--port", "0", "--latency-ms", str(LATENCY_MS)]
    try:
        with Server("slow local AppSync server", argv) as server:
            ours_argv = context.gqlc.get(server.url)
            body = json.dumps({"query": context.get_query, "variables": {"id": "p1"}}, separators=(",", ":"))
            curl = requests.curl_command(server.url, body, context.args.api_key)
            code, out, err = capture(ours_argv)
            if code != 0:
                raise MeasurementError("gqlc get exited %d: %s" % (code, err.strip()[:300]))
            ours, theirs = [], []
            for _ in range(runs):
                ours.append(measure(ours_argv))
                theirs.append(measure(curl))
    except (MeasurementError, ServerError, OSError, subprocess.SubprocessError) as error:
        context.failed(label, error)
        return
    cpu, baseline = median([m.cpu for m in ours]), median([m.cpu for m in theirs])
    context.raw["waiting cpu"] = {"gqlc": [m.cpu for m in ours], "curl": [m.cpu for m in theirs],
                                  "gqlc_wall": [m.wall for m in ours]}
    context.report.add(Row("%s (local AppSync server, `--latency-ms %d`; %d runs)" % (label, LATENCY_MS, runs),
                           seconds(cpu), "curl " + seconds(baseline), "%.1f×" % (cpu / baseline if baseline else 0),
                           "≤ %.0f ms" % (WAIT_CPU_TARGET * 1000), verdict(cpu <= WAIT_CPU_TARGET)))



def gzip_page(context, server_url, items, runs=5):
    """One page of `items` posts from the seeded local AppSync server, compressed (gqlc's default
    `Accept-Encoding: gzip`) and not (`-H 'Accept-Encoding: identity'`): the response bytes on the wire,
    counted by curl, and the wall time of `gqlc list --limit items` for each."""
    if context.gqlc is None or items <= 0:
        return
    label = "gzip, one %s-item page" % "{:,}".format(items)
    body = json.dumps({"query": context.list_query, "variables": {"limit": items}}, separators=(",", ":"))
    ours = context.gqlc.list(server_url, items) + ["--limit", str(items)]
    plain_argv = ours + ["--header", "Accept-Encoding: identity"]
    try:
        wire = {}
        for coding in ("gzip", "identity"):
            # Without --compressed curl keeps the bytes as sent, so size_download is what crossed the wire.
            code, out, err = capture(requests.curl_command(server_url, body, context.args.api_key)[:-3] + [
                "-H", "Accept-Encoding: " + coding, "-o", "/dev/null", "-w", "%{size_download}",
                "--data-binary", body, server_url])
            if code != 0:
                raise MeasurementError("curl (%s) exited %d: %s" % (coding, code, err.strip()[:200]))
            wire[coding] = int(out.strip())
        for argv in (ours, plain_argv):
            code, out, err = capture(argv)
            if code != 0 or out.count("\n") != items:
                raise MeasurementError("gqlc list printed %d lines, exit %d: %s" % (out.count("\n"), code, err[:200]))
        with_gzip, without = [], []
        for index in range(runs):
            pair = [(ours, with_gzip), (plain_argv, without)]
            for argv, walls in (pair if index % 2 == 0 else pair[::-1]):
                walls.append(measure(argv).wall)
    except (MeasurementError, OSError, subprocess.SubprocessError, ValueError) as error:
        context.failed(label, error)
        return
    context.raw["gzip page"] = {"wire_bytes": wire, "gzip_wall": with_gzip, "identity_wall": without}
    kilobytes = lambda count: "%.0f kB" % (count / 1000)
    context.report.add(Row("%s (local AppSync server): bytes on the wire" % label, kilobytes(wire["gzip"]),
                           "without gzip " + kilobytes(wire["identity"]),
                           "%.2f×" % (wire["gzip"] / wire["identity"]) if wire["identity"] else "—"))
    context.report.add(Row("%s (local AppSync server): `gqlc list` wall (%d runs)" % (label, runs),
                           seconds(median(with_gzip)), "without gzip " + seconds(median(without)),
                           "%.2f×" % (median(with_gzip) / median(without)) if median(without) else "—"))
