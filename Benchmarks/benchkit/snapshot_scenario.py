"""Snapshot and restore of whole models through the API: `gqlc snapshot` and `gqlc restore` of Comment records on the
local AppSync server with `--latency-ms 20`, at 10,000 and 100,000 records. For each: records per second at both
sizes and gqlc's peak RSS at both (flat: the larger within 1.25× of the smaller); restore throughput (at 100,000)
against a shell loop of single `gqlc create`s of a sample (bulk's target, 8×). Each run is checked: the snapshot's
manifest counts every record and the restore reports every one restored. The servers start from a snapshot
(`appsync-local --import`), so the setup sends nothing through the API.
"""

import json
import os
import tempfile

from .process import MeasurementError, measure
from .report import Row, mebibytes, seconds, verdict
from .scenarios import log
from .servers import Server

LATENCY_MS = 20
CONCURRENCY = 16
FLAT_TARGET = 1.25
THROUGHPUT_TARGET = 8.0
LOOP_RECORDS = 300


def _write_snapshot(directory, count):
    """A gqlc-snapshot/1 directory of `count` comments of post p1."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "Comment.ndjson"), "w") as out:
        for i in range(count):
            out.write(json.dumps({"id": "c-%07d" % i, "author": "bench", "content": "comment %d" % i, "likes": i % 50,
                                  "postId": "p1", "__typename": "Comment"}) + "\n")
    with open(os.path.join(directory, "manifest.json"), "w") as out:
        json.dump({"format": "gqlc-snapshot/1", "models": [{"name": "Comment", "file": "Comment.ndjson", "count": count,
                   "complete": True}], "schema": {"sha256": None}, "endpoint": None, "takenAt": "2026-01-01T00:00:00Z"}, out)


def snapshot_restore(context, appsync, sizes=(10_000, 100_000)):
    if context.gqlc is None:
        return
    try:
        with tempfile.TemporaryDirectory() as directory:
            figures = {}
            for count in sizes:
                seed = os.path.join(directory, "seed-%d" % count)
                _write_snapshot(seed, count)
                argv = [appsync, "--schema", context.args.schema, "--port", "0", "--latency-ms", str(LATENCY_MS)]
                with Server("local AppSync server (snapshot source)", argv + ["--import", seed]) as source:
                    log("snapshot: %d comments" % count)
                    out = os.path.join(directory, "snap-%d" % count)
                    took = measure(context.gqlc._base(source.url) + ["snapshot", out, "Comment"], timeout=1800, watch_rss=True)
                with open(os.path.join(out, "manifest.json")) as manifest:
                    listed = json.load(manifest)["models"][0]["count"]
                if listed != count:
                    raise MeasurementError("snapshot of %d comments wrote %d" % (count, listed))
                log("snapshot: %d comments in %.1f s (%.0f/s), peak RSS %d KiB" % (count, took.wall, count / took.wall, took.peak_rss_kb))
                with Server("local AppSync server (restore target)", argv) as target:
                    log("restore: %d comments, --concurrency %d" % (count, CONCURRENCY))
                    put = measure(context.gqlc._base(target.url) + ["restore", out, "--concurrency", str(CONCURRENCY)],
                                  timeout=3600, watch_rss=True)
                if "Comment: %d restored, 0 skipped, 0 failed" % count not in put.stderr:
                    raise MeasurementError("restore of %d comments: %s" % (count, put.stderr.strip()[-300:]))
                log("restore: %d comments in %.1f s (%.0f/s), peak RSS %d KiB" % (count, put.wall, count / put.wall, put.peak_rss_kb))
                figures[count] = (took, put)
            small, large = sizes
            for label, index in (("snapshot", 0), ("restore", 1)):
                a, b = figures[small][index], figures[large][index]
                ratio = b.peak_rss_kb / a.peak_rss_kb
                context.raw["%s peak rss kb" % label] = {small: a.peak_rss_kb, large: b.peak_rss_kb}
                context.raw["%s records per second" % label] = {small: small / a.wall, large: large / b.wall}
                context.report.add(Row(
                    "`gqlc %s` of %s comments (`--latency-ms %d`): wall, records/s, peak RSS" % (label, "{:,}".format(large), LATENCY_MS),
                    "%s (%.0f/s), %s" % (seconds(b.wall), large / b.wall, mebibytes(b.peak_rss_kb)),
                    "%s comments: %s (%.0f/s), %s" % ("{:,}".format(small), seconds(a.wall), small / a.wall, mebibytes(a.peak_rss_kb)),
                    "RSS %.2f×" % ratio, "≤ %g× (flat)" % FLAT_TARGET, verdict(ratio <= FLAT_TARGET)))
            _versus_loop(context, appsync, directory, figures[large][1].wall / large)
    except (MeasurementError, OSError) as error:
        context.failed("snapshot/restore", error)


def _versus_loop(context, appsync, directory, restore_seconds_per_record):
    """A shell loop of single creates of LOOP_RECORDS records, against restore's rate."""
    lines = os.path.join(directory, "loop.ndjson")
    with open(lines, "w") as out:
        for i in range(LOOP_RECORDS):
            out.write(json.dumps({"id": "l-%07d" % i, "author": "bench", "content": "loop %d" % i, "postId": "p1"}) + "\n")
    argv = [appsync, "--schema", context.args.schema, "--port", "0", "--latency-ms", str(LATENCY_MS)]
    with Server("local AppSync server (create loop)", argv) as server:
        base = context.gqlc._base(server.url)
        loop = ("while IFS= read -r line; do printf '%%s\\n' \"$line\" | %s create Comment --input - >/dev/null || exit 1; "
                "done < %s") % (" ".join("'%s'" % part for part in base), lines)
        slow = measure(["bash", "-c", loop], timeout=1800)
    log("create loop: %d comments in %.1f s (%.1f/s)" % (LOOP_RECORDS, slow.wall, LOOP_RECORDS / slow.wall))
    ratio = (slow.wall / LOOP_RECORDS) / restore_seconds_per_record
    context.report.add(Row(
        "`gqlc restore` throughput against a shell loop of `gqlc create` (`--latency-ms %d`)" % LATENCY_MS,
        "%.0f records/s" % (1 / restore_seconds_per_record), "loop: %.0f records/s" % (LOOP_RECORDS / slow.wall),
        "%.1f× faster" % ratio, "≥ %g× faster" % THROUGHPUT_TARGET, verdict(ratio >= THROUGHPUT_TARGET)))
