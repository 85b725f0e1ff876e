"""Bulk create under steady throttling (issue 21, point 10): records per second of 2,000 creates with
`--concurrency 8` against the local AppSync server with `--throttle-every 5` (every 5th request answered HTTP 429,
whatever the rate); 0 failed and every record stored. Runs once: the old pacing took minutes.
"""

import json
import os
import re
import tempfile

from .bulk_scenario import _count, _write_comments
from .process import MeasurementError, measure
from .report import Row, seconds, verdict
from .scenarios import log
from .servers import Server

RECORDS = 2000
CONCURRENCY = 8
THROTTLE_EVERY = 5
TARGET = 5.0  # records per second
SUMMARY = re.compile(r"^(\d+) created, (\d+) failed")


def throttled_bulk(context, appsync, records=RECORDS):
    if context.gqlc is None:
        return
    label = "bulk create under `--throttle-every %d`" % THROTTLE_EVERY
    try:
        with tempfile.TemporaryDirectory() as directory:
            argv = [appsync, "--schema", context.args.schema, "--port", "0", "--throttle-every", str(THROTTLE_EVERY)]
            with Server("local AppSync server (%s)" % label, argv) as server:
                source = os.path.join(directory, "throttled.ndjson")
                _write_comments(source, records, "throttled")
                log("%s: %d creates with --concurrency %d" % (label, records, CONCURRENCY))
                run = measure(context.gqlc._base(server.url) + ["create", "Comment", "--input", source,
                                                                "--concurrency", str(CONCURRENCY)],
                              timeout=3600, check=False)
                lines = run.stderr.strip().splitlines()
                found = SUMMARY.match(lines[-1]) if lines else None
                if found is None:
                    raise MeasurementError("no summary line (exit %d): %s" % (run.returncode, run.stderr[-300:]))
                created, failed = int(found.group(1)), int(found.group(2))
                stored, distinct = _count(context, server.url, "throttled")
                pacing = [line for line in lines if "pacing" in line or "Retry-After" in line]
    except (OSError, MeasurementError) as error:
        context.failed(label, error)
        return
    rate = created / run.wall
    context.raw["bulk create throttled"] = {"wall": run.wall, "created": created, "failed": failed, "exit": run.returncode,
                                            "stored": stored, "distinct": distinct, "pacing_lines": pacing}
    context.report.add(Row(
        "Bulk create of %s comments, `--concurrency %d`, server with `--throttle-every %d`: records/s"
        % ("{:,}".format(records), CONCURRENCY, THROTTLE_EVERY),
        "%.1f/s (%s; %d failed, %d stored, %d pacing lines on stderr)" % (rate, seconds(run.wall), failed, distinct,
                                                                           len(pacing)),
        "—", "—", "≥ %g/s, 0 failed" % TARGET,
        verdict(rate >= TARGET and failed == 0 and run.returncode == 0 and distinct == records == stored)))
