"""`--limit 1` on a selective listing against the same listing without `--limit`, on the local AppSync server; and
`list Post --include comments --limit 10` (issue 21, point 9: it asked for pages of 1,000 posts with their comments)
against the same with `--page-size 10`.

AppSync reads `limit` items and only then applies the filter, so a listing whose requests ask for fewer items
than the page size sends more requests for the same records. gqlc's promise: a listing with `--limit` never
sends more requests than the same listing without it. This scenario counts the requests of both (from the
server's `--record-requests` file) and times them, interleaved, and reports both ratios.
"""

import json
import os
import re
import tempfile

from .process import MeasurementError, capture, measure
from .report import Row, median, paired_ratio, seconds, verdict
from .scenarios import interleave, log, plural, runs_within
from .servers import Server, ServerError

COMMENTS = 3000
MATCH = 2500  # the scan position of the one comment that matches


def _seed(path):
    rows = [{"id": "m%05d" % i, "postId": "post-%d" % (i % 3), "author": "a%d" % (i % 7),
             "content": "needle" if i == MATCH else "comment %d %s" % (i, "lorem ipsum " * 5)} for i in range(COMMENTS)]
    with open(path, "w") as out:
        json.dump({"Comment": rows}, out)


class _Requests:
    """Counts the lines the server appended to its request log since the last call."""

    def __init__(self, path):
        self.path = path
        self.seen = 0

    def since_last(self):
        if not os.path.exists(self.path):
            return 0
        with open(self.path) as log_file:
            total = sum(1 for _ in log_file)
        count, self.seen = total - self.seen, total
        return count


def limited_listing(context, appsync, budget):
    """Requests and wall time of `list Comment --where content=needle --limit 1` against the same without --limit."""
    if context.gqlc is None:
        return
    label = "`--limit 1` selective listing"
    with tempfile.TemporaryDirectory() as directory:
        seed, request_log = os.path.join(directory, "seed.json"), os.path.join(directory, "requests.jsonl")
        _seed(seed)
        argv = [appsync, "--schema", context.args.schema, "--port", "0", "--seed", seed, "--record-requests", request_log]
        try:
            with Server("local AppSync server (%s)" % label, argv) as server:
                _measure(context, server.url, _Requests(request_log), label, budget)
        except (ServerError, MeasurementError, OSError) as error:
            context.failed(label, error)


def _measure(context, endpoint, requests, label, budget):
    limited = context.gqlc.list_where(endpoint, "Comment", "content=needle", "--limit", "1")
    unlimited = context.gqlc.list_where(endpoint, "Comment", "content=needle")
    for argv in (limited, unlimited):
        code, out, err = capture(argv, timeout=120)
        if code != 0 or out.splitlines() != [out.splitlines()[0]] or '"id":"m%05d"' % MATCH not in out:
            raise MeasurementError("%s exited %d: %s %s" % (" ".join(argv[-8:]), code, out[:100], err.strip()[:200]))
    requests.since_last()

    def run(argv, counts):
        def once():
            measured = measure(argv, timeout=300)
            counts.append(requests.since_last())
            return measured
        return once

    limited_counts, unlimited_counts = [], []
    first = measure(limited, timeout=300).wall + measure(unlimited, timeout=300).wall
    requests.since_last()
    runs = runs_within(budget, first, 5)
    log("%s: %d runs of each, interleaved" % (label, runs))
    ours, theirs = interleave(runs, run(limited, limited_counts), run(unlimited, unlimited_counts))
    walls, baseline = [m.wall for m in ours], [m.wall for m in theirs]
    context.raw["limit 1 selective"] = {"limited": {"wall": walls, "requests": limited_counts},
                                        "unlimited": {"wall": baseline, "requests": unlimited_counts}}
    what = "%s comments, 1 match at position %s, page size 1000" % ("{:,}".format(COMMENTS), "{:,}".format(MATCH + 1))
    request_ratio = median(limited_counts) / median(unlimited_counts)
    context.report.add(Row(
        "%s, requests (local AppSync server; %s)" % (label, what), "%g" % median(limited_counts),
        "without `--limit`: %g" % median(unlimited_counts), "%.2f×" % request_ratio, "≤ 1.0×",
        verdict(max(limited_counts) <= min(unlimited_counts))))
    context.report.add(Row(
        "%s, wall (local AppSync server; %s)" % (label, plural(runs, "run")), seconds(median(walls)),
        "without `--limit`: %s" % seconds(median(baseline)), "%.2f×" % paired_ratio(walls, baseline)))


POSTS = 1000
COMMENTS_PER_POST = 3


def _seed_posts(path):
    posts = [{"id": "q%05d" % i, "blogId": "b1", "title": "post %d" % i, "content": "lorem ipsum " * 10,
              "status": "PUBLISHED", "rating": i % 5} for i in range(POSTS)]
    comments = [{"id": "c%05d-%d" % (i, j), "postId": "q%05d" % i, "author": "a%d" % j, "content": "comment %d on %d" % (j, i)}
                for i in range(POSTS) for j in range(COMMENTS_PER_POST)]
    with open(path, "w") as out:
        json.dump({"Post": posts, "Comment": comments}, out)


def _fetched(context, argv):
    """Requests, bytes received and top-level items of one run, from gqlc's --verbose trace (an unmeasured run)."""
    code, out, err = capture(argv[:1] + ["--verbose"] + argv[1:], timeout=900)
    if code != 0 or len(json.loads(out)) != 10:
        raise MeasurementError("%s exited %d: %s" % (" ".join(argv[-6:]), code, err.strip()[-300:]))
    sizes = [int(found) for found in re.findall(r"^< HTTP 200 \((\d+) bytes", err, re.MULTILINE)]
    items = sum(int(found) for found in re.findall(r"^\* page \d+: (\d+) items?", err, re.MULTILINE))
    return len(sizes), sum(sizes), items


def included_listing(context, appsync, budget):
    """Wall time, requests and bytes of `list Post --include comments --limit 10` against the same with `--page-size 10`."""
    if context.gqlc is None:
        return
    label = "`list Post --include comments --limit 10`"
    with tempfile.TemporaryDirectory() as directory:
        seed = os.path.join(directory, "seed.json")
        _seed_posts(seed)
        argv = [appsync, "--schema", context.args.schema, "--port", "0", "--seed", seed]
        try:
            with Server("local AppSync server (%s)" % label, argv) as server:
                # A long --timeout: the old client's page of 1,000 posts with their comments took over 30 s here.
                base = context.gqlc._base(server.url) + ["--timeout", "600", "list", "Post", "--include", "comments",
                                                         "--limit", "10"]
                limited, paged = base, base + ["--page-size", "10"]
                fetched = {"limited": _fetched(context, limited), "paged": _fetched(context, paged)}
                first = measure(limited, timeout=900).wall + measure(paged, timeout=900).wall
                runs = runs_within(budget, first, 5)
                log("%s: %d runs of each, interleaved" % (label, runs))
                ours, theirs = interleave(runs, lambda: measure(limited, timeout=900), lambda: measure(paged, timeout=900))
        except (ServerError, MeasurementError, OSError) as error:
            context.failed(label, error)
            return
    walls, baseline = [m.wall for m in ours], [m.wall for m in theirs]
    context.raw["include limit 10"] = {"limited": {"wall": walls, "fetched": fetched["limited"]},
                                       "paged": {"wall": baseline, "fetched": fetched["paged"]}}
    requests_made, received, items = fetched["limited"]
    context.report.add(Row(
        "%s (local AppSync server; %s posts with %d comments each; %s)" % (
            label, "{:,}".format(POSTS), COMMENTS_PER_POST, plural(runs, "run")),
        "%s; %s, %s bytes, %d posts fetched" % (seconds(median(walls)), plural(requests_made, "request"), "{:,}".format(received), items),
        "with `--page-size 10`: %s; %s, %s bytes" % (seconds(median(baseline)), plural(fetched["paged"][0], "request"),
                                                            "{:,}".format(fetched["paged"][1])),
        "%.2f×" % paired_ratio(walls, baseline), "≤ 1.5× wall, 10 posts fetched",
        verdict(items == 10 and paired_ratio(walls, baseline) <= 1.5)))
