"""JSON throughput: gqlc's parser and writer (through GQLCBench) against jq and Python on one file."""

import os
import re
import subprocess
import sys

from .posts import write_list_response
from .process import MeasurementError, capture, measure
from .report import Row, median, verdict
from .scenarios import MB, interleave, log, runs_within

PARSE_TARGET_MBPS = 150
WRITE_TARGET_MBPS = 300


def _gqlcbench_figures(line):
    return {key: float(value) for key, value in re.findall(r"(\w+)=([0-9.eE+-]+)", line)}


def json_throughput(context, gqlcbench, budget):
    """Parse and write MB/s on one list response, for gqlc's JSON (via GQLCBench), jq and Python."""
    args = context.args
    directory = os.path.dirname(args.out)
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "list-response-%dmb.json" % args.json_mb)
    made_by = "GQLCBench"
    try:
        if os.path.exists(path):
            os.remove(path)
        if gqlcbench is None or capture([gqlcbench, "make-list-response", path, "--mb", str(args.json_mb)],
                                        timeout=120)[0] != 0 or not os.path.exists(path):
            made_by = "the harness (GQLCBench %s)" % ("missing" if gqlcbench is None else "made no file")
            write_list_response(path, args.json_mb)
        size = os.path.getsize(path)
        log("JSON throughput on %.0f MB" % (size / MB))
        ours = None
        if gqlcbench is not None:
            code, out, err = capture([gqlcbench, "json", path, "--runs", str(args.runs_json)], timeout=300)
            lines = [line for line in out.splitlines() if "parse_mbps=" in line or "parse_ms=" in line]
            if code == 0 and lines:
                ours = _gqlcbench_figures(lines[-1])
            elif code == 0:
                context.report.note("`GQLCBench json` printed no `parse_mbps=` line (not written yet?): %r." %
                                    out.strip()[:100])
            else:
                context.failed("GQLCBench json", "exit %d: %s" % (code, (err or out).strip()[-300:]))
        runs = runs_within(budget, 3.0, args.runs_json, 2)
        parse_only, parse_write = interleave(runs, lambda: measure(["jq", "empty", path]),
                                              lambda: measure(["jq", "-c", ".", path]))
        jq_parse = median([m.wall for m in parse_only])
        jq_write = median([both.wall - parse.wall for parse, both in zip(parse_only, parse_write)])
        code, out, err = capture([sys.executable, os.path.join(os.path.dirname(__file__), "python_json.py"),
                                  path, str(runs)], timeout=300)
        python = _gqlcbench_figures(out) if code == 0 else {}
    except (MeasurementError, OSError, subprocess.SubprocessError) as error:
        context.failed("JSON throughput", error)
        return
    rates = {"jq": (size / MB / jq_parse, size / MB / jq_write)}
    if "parse_ms" in python:
        rates["Python"] = (size / MB / (python["parse_ms"] / 1000), size / MB / (python["write_ms"] / 1000))
    if ours is not None:
        if "parse_ms" in ours and "write_ms" in ours:
            rates["gqlc"] = (size / MB / (ours["parse_ms"] / 1000), size / MB / (ours["write_ms"] / 1000))
        else:
            rates["gqlc"] = (ours.get("parse_mbps", float("nan")), ours.get("write_mbps", float("nan")))
    context.raw["json"] = {"bytes": size, "made_by": made_by, "mbps": rates, "gqlcbench": ours}
    context.report.note("JSON: a %.1f MB compact listPosts response made by %s; jq parse is `jq empty`, jq write is "
                        "`jq -c .` minus `jq empty`; Python is `json.loads` / `json.dumps(separators=(',', ':'))`; "
                        "MB = 10^6 bytes." % (size / MB, made_by))
    for index, (what, target) in enumerate((("parse", PARSE_TARGET_MBPS), ("write", WRITE_TARGET_MBPS))):
        baselines = ", ".join("%s %.0f MB/s" % (name, rate[index]) for name, rate in rates.items() if name != "gqlc")
        if "gqlc" in rates:
            ours_rate = rates["gqlc"][index]
            ratios = ", ".join("%.1f× %s" % (ours_rate / rate[index], name)
                               for name, rate in rates.items() if name != "gqlc")
            context.report.add(Row("JSON %s, %.0f MB list response" % (what, size / MB), "%.0f MB/s" % ours_rate,
                                   baselines, ratios, "≥ %d MB/s" % target, verdict(ours_rate >= target)))
        else:
            context.report.add(Row("JSON %s, %.0f MB list response" % (what, size / MB), "—", baselines, "—",
                                   "≥ %d MB/s" % target, "—"))
