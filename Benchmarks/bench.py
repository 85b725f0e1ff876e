#!/usr/bin/env python3
"""`make bench`: gqlc against curl, curl + jq and Python on loopback, as a Markdown table of medians.

Builds nothing (the Makefile builds the release gqlc and GQLCBench first). Starts the canned server
(Benchmarks/canned-server) and, if it exists, the local AppSync server; runs each scenario several
times, gqlc interleaved with its baseline; prints the table and writes it to .build/bench/results.md.
A missing gqlc, GQLCBench or AppSync server skips what needs it, with a note. Python 3 stdlib only.
"""

import argparse
import json
import os
import resource
import shutil
import sys
import time

from benchkit import (bulk_scenario, json_scenario, limit_scenario, mcp_scenario, scenarios, snapshot_scenario,
                      subscribe_scenario, throttle_scenario, transport_scenarios)
from benchkit.process import capture
from benchkit.report import Report, load_average, machine_description
from benchkit.servers import Server, ServerError

BENCHMARKS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCHMARKS)


# What --only selects, in the order they run.
SCENARIOS = ("startup", "size", "get", "paging", "rss", "appsync", "gzip", "waiting", "limit", "include", "subscribe", "watch",
             "bulk", "throttle", "snapshot", "mcp", "json")


def executable(path):
    return path if path and os.path.isfile(path) and os.access(path, os.X_OK) else None


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gqlc", default=os.environ.get("GQLC_BIN") or os.path.join(ROOT, ".build/release/gqlc"),
                        help="gqlc binary (default: $GQLC_BIN or .build/release/gqlc)")
    parser.add_argument("--gqlcbench", default=os.path.join(ROOT, ".build/release/GQLCBench"))
    parser.add_argument("--appsync", default=os.path.join(ROOT, "DevServers/AppSyncLocal/appsync-local"),
                        help="the local AppSync server executable")
    parser.add_argument("--schema", default=os.path.join(ROOT, "schema-examples/blog.json"))
    parser.add_argument("--api-key", default=None, help="sent by gqlc and the baselines, if given")
    parser.add_argument("--out", default=os.path.join(ROOT, ".build/bench/results.md"))
    parser.add_argument("--page-size", type=int, default=1000)
    parser.add_argument("--items", type=int, default=200_000, help="items paged in the paging scenario")
    parser.add_argument("--rss-items", type=int, default=1_000_000, help="items paged for peak RSS")
    parser.add_argument("--appsync-items", type=int, default=5_000, help="posts seeded into the AppSync server")
    parser.add_argument("--json-mb", type=int, default=50)
    parser.add_argument("--runs-get", type=int, default=15)
    parser.add_argument("--runs-paging", type=int, default=5)
    parser.add_argument("--runs-rss", type=int, default=3)
    parser.add_argument("--runs-json", type=int, default=3)
    parser.add_argument("--budget", type=float, default=270,
                        help="seconds for all measurements; scenarios drop to fewer runs to fit")
    parser.add_argument("--quick", action="store_true", help="small sizes and few runs, to check the harness")
    parser.add_argument("--only", metavar="NAME[,NAME]", type=lambda text: set(text.split(",")), default=set(SCENARIOS),
                        help="run only these scenarios, of: " + ", ".join(SCENARIOS))
    args = parser.parse_args()
    unknown = args.only - set(SCENARIOS)
    if unknown:
        parser.error("unknown scenario %s; choose from %s" % (", ".join(sorted(unknown)), ", ".join(SCENARIOS)))
    if args.quick:
        args.items, args.rss_items, args.appsync_items, args.json_mb = 20_000, 60_000, 500, 10
        args.runs_get, args.runs_paging, args.runs_rss, args.runs_json, args.budget = 5, 2, 1, 2, 60
    return args


def linkage_of(binary):
    """How the binary links the Swift runtime, and its size, for the machine line."""
    size = "%.1f MB" % (os.path.getsize(binary) / 1e6)
    code, out, _ = capture(["ldd", binary])
    if code != 0:
        return size
    return ("Swift stdlib linked dynamically" if "libswiftCore" in out else "static Swift stdlib") + ", " + size


def main():
    args = parse_arguments()
    for tool in ("curl", "jq", "bash"):
        if shutil.which(tool) is None:
            sys.exit("bench: `%s` is needed for the baselines; `make bench` installs curl and jq" % tool)
    started, load_at_start = time.perf_counter(), load_average()
    report = Report()
    gqlc = executable(args.gqlc)
    gqlcbench = executable(args.gqlcbench)
    appsync = executable(args.appsync)
    if gqlc is None:
        report.note("gqlc not found at `%s`: only the baselines were measured." % args.gqlc)
    context = scenarios.Context(args=args, report=report, gqlc_binary=gqlc)
    share = lambda seconds: seconds * args.budget / 270  # the default budget's split, scaled

    canned_argv = [sys.executable, os.path.join(BENCHMARKS, "canned-server"),
                   "--port", "0", "--items", str(max(args.items, args.rss_items)),
                   "--page-size", str(args.page_size)]
    only = args.only
    if only & {"startup", "size", "get", "paging", "rss"}:
        with Server("canned server", canned_argv) as canned:
            context.discover_queries(canned.url)
            scenarios.server_check(context, canned)
            if "startup" in only:
                scenarios.startup(context, share(5))
            if "size" in only:
                transport_scenarios.binary_size(context)
            if "get" in only:
                scenarios.get(context, canned.url, "canned server", share(20))
            if "paging" in only or "rss" in only:
                scenarios.paging(context, canned, share(100))  # the RSS row compares with this one's peak
            if "rss" in only:
                scenarios.peak_rss(context, canned, share(45))
    if appsync is None and only & {"appsync", "gzip", "waiting", "limit", "include", "subscribe", "watch", "bulk", "throttle",
                                   "snapshot", "mcp"}:
        report.note("Local AppSync server not found at `%s`: its rows were skipped." % args.appsync)
    elif appsync is not None:
        if only & {"appsync", "gzip"}:
            try:
                with Server("local AppSync server", [appsync, "--schema", args.schema, "--port", "0"]) as server:
                    if "appsync" in only:
                        scenarios.appsync(context, server, share(45))
                    if "gzip" in only:
                        transport_scenarios.gzip_page(context, server.url, min(1000, args.appsync_items))
            except ServerError as error:
                context.failed("local AppSync server", error)
        if "waiting" in only:
            transport_scenarios.waiting_cpu(context, appsync, os.path.join(ROOT, "schema-examples", "blog-seed.json"))
        if "limit" in only:
            limit_scenario.limited_listing(context, appsync, share(20))
        if "include" in only:
            limit_scenario.included_listing(context, appsync, share(20))
        if "subscribe" in only:
            subscribe_scenario.subscription(context, appsync, events=100 if args.quick else 1000,
                                            idle_seconds=10 if args.quick else 60)
        if "watch" in only:
            subscribe_scenario.subscription(context, appsync, events=100 if args.quick else 1000,
                                            idle_seconds=10 if args.quick else 60, command=subscribe_scenario.WATCH)
        if "bulk" in only:
            bulk_scenario.bulk(context, appsync, share(60))
        if "throttle" in only:
            throttle_scenario.throttled_bulk(context, appsync, records=400 if args.quick else throttle_scenario.RECORDS)
        if "snapshot" in only:
            snapshot_scenario.snapshot_restore(context, appsync, sizes=(1_000, 10_000) if args.quick else (10_000, 100_000))
        if "mcp" in only:
            mcp_scenario.get_record_call(context, appsync, share(10))
    if "json" in only:
        json_scenario.json_throughput(context, gqlcbench, share(45))

    machine = machine_description(gqlc, linkage_of(gqlc) if gqlc else None, load_at_start)
    report.note("Whole run took %.0f s." % (time.perf_counter() - started))
    context.raw["harness_peak_rss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    text = report.markdown(machine)
    print("\n" + text)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as out:
        out.write(text)
    with open(os.path.splitext(args.out)[0] + ".json", "w") as raw:
        json.dump(context.raw, raw, indent=1)
    print("bench: wrote %s (and raw figures next to it)" % os.path.relpath(args.out), file=sys.stderr)
    return 1 if context.errors else 0


if __name__ == "__main__":
    sys.exit(main())
