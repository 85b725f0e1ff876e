"""Transport scenarios: what a request costs while it waits for a slow server."""

import json
import subprocess

from . import requests
from .process import MeasurementError, capture, measure
from .report import Row, median, seconds, verdict
from .servers import Server, ServerError

WAIT_CPU_TARGET = 0.030  # seconds of CPU for one get whose answer takes 2 s
LATENCY_MS = 2000


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

