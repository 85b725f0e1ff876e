"""The benchmark scenarios. Each runs gqlc interleaved with its baseline and adds rows to the report."""

import json
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

from . import requests
from .process import MeasurementError, capture, child_environment, measure
from .report import Row, median, paired_ratio, seconds, verdict
from .servers import GraphQLConnection, ServerError

GET_TARGET = 1.25  # gqlc wall / curl wall
PAGING_CPU_TARGET = 0.1  # gqlc CPU / curl+jq CPU
RSS_TARGET_MB = 20
MB = 1_000_000


def log(message):
    print("bench: " + message, file=sys.stderr, flush=True)


def runs_within(budget_seconds, seconds_per_run, wanted, minimum=3):
    """As many runs as fit the budget, between minimum and wanted."""
    if seconds_per_run <= 0:
        return wanted
    return max(min(minimum, wanted), min(wanted, int(budget_seconds / seconds_per_run)))


def plural(count, noun):
    return "%d %s%s" % (count, noun, "" if count == 1 else "s")


def megabytes(kib):
    return kib * 1024 / MB


@dataclass
class Context:
    args: object
    report: object
    gqlc_binary: object
    list_query: str = requests.LIST_QUERY
    get_query: str = requests.GET_QUERY
    raw: dict = field(default_factory=dict)
    errors: list = field(default_factory=list)
    rss_200k_kb: float = float("nan")
    same_output: object = None  # whether gqlc printed what curl+jq printed on the check run

    def paging_verdict(self, ok):
        """A paging figure only counts if gqlc printed the right lines."""
        return "**INVALID** (output differs)" if self.same_output is False else verdict(ok)

    def __post_init__(self):
        self.gqlc = requests.Gqlc(self.gqlc_binary, self.args.schema, self.args.api_key) if self.gqlc_binary else None

    def failed(self, scenario, error):
        self.errors.append(scenario)
        self.report.note("%s failed: %s" % (scenario, str(error).replace("\n", " ")[:400]))
        log("%s FAILED: %s" % (scenario, error))

    def discover_queries(self, canned_url):
        """Takes the query texts from `gqlc --dry-run` when it has one, so the baselines POST the same."""
        if self.gqlc is None:
            return
        small = canned_url.replace("/graphql", "/items/1000/graphql")
        found = []
        # The list query is taken with a token, so that it declares $nextToken for every page after the first.
        listing = self.gqlc.list(small, self.args.page_size) + ["--next-token", "probe"]
        for kind, argv in (("list", listing), ("get", self.gqlc.get(small))):
            query = requests.dry_run_query(argv, capture)
            if query:
                setattr(self, kind + "_query", query)
                found.append(kind)
        self.report.note("Baseline query texts: %s." % (
            "from `gqlc --dry-run` (%s)" % ", ".join(found) if found else
            "built-in constants matching Amplify's default selection set (gqlc has no `--dry-run`)"))


def server_check(context, canned):
    """Shows the canned server is not what is measured: pages its data set to a Python client."""
    try:
        _page_through_canned(context, canned)
    except (ServerError, OSError) as error:
        context.failed("canned server check", error)


def _page_through_canned(context, canned, minimum_seconds=1.0):
    # Pages the data set again until a second has passed: /proc counts CPU in 10 ms ticks.
    endpoint = canned.url.replace("/graphql", "/items/%d/graphql" % context.args.items)
    connection = GraphQLConnection(endpoint)
    pages, size = 0, 0
    cpu_before, started = canned.cpu_seconds(), time.perf_counter()
    while pages == 0 or time.perf_counter() - started < minimum_seconds:
        token = None
        while True:
            body = json.dumps({"query": context.list_query,
                               "variables": {"limit": context.args.page_size, "nextToken": token}}).encode()
            data = connection.post_raw(body)
            pages, size = pages + 1, size + len(data)
            # The token is near the end; reading it there keeps this process (whose size pollutes the
            # children's ru_maxrss) small.
            found = re.search(rb'"nextToken":(null|"([^"]*)")', data[-1000:])
            if found is None:
                raise ServerError("canned server page without a nextToken: %r" % data[-200:])
            if found.group(2) is None:
                break
            token = found.group(2).decode()
    wall, cpu = time.perf_counter() - started, max(canned.cpu_seconds() - cpu_before, 0.01)
    connection.close()
    context.raw["canned_server"] = {"pages": pages, "bytes": size, "wall": wall, "server_cpu": cpu}
    context.report.note(
        "Canned server check: it served %d pages (%.0f MB) to a Python keep-alive client in %.2f s, "
        "spending %.2f ms CPU per page (%.0f MB/s)." % (pages, size / MB, wall, cpu / pages * 1000, size / MB / cpu))


def interleave(pairs, first, second):
    """Runs `first` and `second` `pairs` times, alternating which goes first; returns both lists."""
    a, b = [], []
    for index in range(pairs):
        if index % 2 == 0:
            a.append(first())
            b.append(second())
        else:
            b.append(second())
            a.append(first())
    return a, b


def startup(context, budget):
    if context.gqlc is None:
        return
    version = [context.gqlc.binary, "--version"]
    code, _, _ = capture(version)
    if code != 0:
        context.report.note("`gqlc --version` exited %d: startup not measured." % code)
        return
    curl = ["curl", "--version"]
    measure(version), measure(curl)
    runs = runs_within(budget, 0.03, 15)
    ours, theirs = interleave(runs, lambda: measure(version), lambda: measure(curl))
    walls, baseline = [m.wall for m in ours], [m.wall for m in theirs]
    context.raw["startup"] = {"gqlc": walls, "curl": baseline}
    context.report.add(Row("Startup: `gqlc --version`, wall", seconds(median(walls)),
                           "`curl --version` " + seconds(median(baseline)),
                           "%.2f×" % paired_ratio(walls, baseline)))


def get(context, endpoint, label, budget, post_id="p1"):
    """One `get` as a whole process against the same POST with curl."""
    body = json.dumps({"query": context.get_query, "variables": {"id": post_id}}, separators=(",", ":"))
    curl = requests.curl_command(endpoint, body, context.args.api_key)
    try:
        code, out, err = capture(curl)
        if code != 0 or "getPost" not in out:
            raise MeasurementError("curl got no getPost from %s: %s %s" % (label, out[:200], err[:200]))
        if context.gqlc is None:
            runs = runs_within(budget, 0.02, context.args.runs_get)
            baseline = [measure(curl).wall for _ in range(runs)]
            context.report.add(Row("One `get`, whole process, wall (%s)" % label, "—",
                                   "curl " + seconds(median(baseline)), "—", "≤ %.2f×" % GET_TARGET, "—"))
            return
        ours_argv = context.gqlc.get(endpoint, post_id)
        code, out, err = capture(ours_argv)
        if code != 0:
            raise MeasurementError("gqlc get exited %d: %s" % (code, err.strip()[:300]))
        try:
            printed = json.loads(out)
        except ValueError:
            raise MeasurementError("gqlc get printed something that is not JSON: %r" % out[:200])
        if not isinstance(printed, dict) or printed.get("id") != post_id:
            context.report.note("`gqlc get` against the %s printed %s, not a Post with id %s." % (
                label, json.dumps(printed, ensure_ascii=False)[:80], post_id))
        first = measure(ours_argv).wall + measure(curl).wall
        runs = runs_within(budget, first, context.args.runs_get)
        ours, theirs = interleave(runs, lambda: measure(ours_argv), lambda: measure(curl))
    except (MeasurementError, OSError, subprocess.SubprocessError) as error:
        context.failed("get (%s)" % label, error)
        return
    walls, baseline = [m.wall for m in ours], [m.wall for m in theirs]
    ratio = paired_ratio(walls, baseline)
    context.raw["get " + label] = {"gqlc": walls, "curl": baseline}
    context.report.add(Row("One `get`, whole process, wall (%s; %s)" % (label, plural(runs, "run")), seconds(median(walls)),
                           "curl " + seconds(median(baseline)), "%.2f×" % ratio, "≤ %.2f×" % GET_TARGET,
                           verdict(ratio <= GET_TARGET)))


def _records_of(argv, env=None):
    """Runs argv with stdout in a temp file; returns (parsed NDJSON records, first line)."""
    with tempfile.TemporaryFile() as out:
        measure(argv, env=env, stdout=out, timeout=120)
        out.seek(0)
        lines = out.read().splitlines()
        return [json.loads(line) for line in lines], (lines[0] if lines else b"")


def _check_same_lines(context, endpoint, items):
    """gqlc and curl+jq must print the same records. They are compared as JSON values, not bytes:
    gqlc keeps each number's text as the server sent it (`0.10`), while jq rewrites it (`0.1`)."""
    ours, our_first = _records_of(context.gqlc.list(endpoint, context.args.page_size))
    argv, extra = requests.curl_jq_loop(endpoint, context.list_query, context.args.page_size, context.args.api_key)
    theirs, their_first = _records_of(argv, child_environment(extra))
    context.same_output = ours == theirs and len(ours) == items
    if context.same_output:
        context.report.note("gqlc and curl+jq printed the same %s records (equal as JSON) on a check run." %
                            "{:,}".format(items))
    else:
        context.report.note("gqlc and curl+jq printed different NDJSON on a %s-item check run: gqlc %d lines, "
                            "first %r; curl+jq %d lines, first %r." % (
                                "{:,}".format(items), len(ours), our_first[:120], len(theirs), their_first[:120]))


def _paging_pairs(context, endpoint, runs_wanted, budget, server=None, minimum_extra=2):
    """Interleaved gqlc / curl+jq paging runs; returns (gqlc measurements, baseline measurements).
    With `server`, also records the server's CPU seconds during each gqlc run."""
    argv, extra = requests.curl_jq_loop(endpoint, context.list_query, context.args.page_size, context.args.api_key)
    loop_env = child_environment(extra)
    run_loop = lambda: measure(argv, env=loop_env, timeout=600)
    if context.gqlc is None:
        first = run_loop()
        more = [run_loop() for _ in range(runs_within(budget - first.wall, first.wall, runs_wanted - 1, 0))]
        return [], [first] + more
    ours_argv = context.gqlc.list(endpoint, context.args.page_size)

    def run_ours():
        before = server.cpu_seconds() if server else 0.0
        result = measure(ours_argv, watch_rss=True, timeout=600)
        result.server_cpu = server.cpu_seconds() - before if server else float("nan")
        return result

    first_ours, first_loop = run_ours(), run_loop()
    pair = first_ours.wall + first_loop.wall
    runs = runs_within(budget - pair, pair, runs_wanted - 1, minimum_extra)
    ours, theirs = interleave(runs, run_ours, run_loop)
    return [first_ours] + ours, [first_loop] + theirs


def _paging_rows(context, label, count, ours, theirs):
    items = "{:,}".format(count)
    loop_wall, loop_cpu = [m.wall for m in theirs], [m.cpu for m in theirs]
    context.raw["paging " + label] = {
        "gqlc": [vars(m) for m in ours], "curl_jq": [vars(m) for m in theirs]}
    for m in ours + theirs:
        m.stderr = m.stderr[-200:]
    if not ours:
        context.report.add(Row("Paging %s items to NDJSON, wall (%s)" % (items, label), "—",
                               "curl+jq " + seconds(median(loop_wall))))
        context.report.add(Row("Paging %s items to NDJSON, CPU (%s)" % (items, label), "—",
                               "curl+jq " + seconds(median(loop_cpu)), "—", "≤ %.1f×" % PAGING_CPU_TARGET, "—"))
        return
    wall, cpu = [m.wall for m in ours], [m.cpu for m in ours]
    cpu_ratio = paired_ratio(cpu, loop_cpu)
    context.report.add(Row("Paging %s items to NDJSON, wall (%s; %s)" % (items, label, plural(len(ours), "run")),
                           seconds(median(wall)), "curl+jq " + seconds(median(loop_wall)),
                           "%.2f×" % paired_ratio(wall, loop_wall)))
    context.report.add(Row("Paging %s items to NDJSON, CPU (%s)" % (items, label), seconds(median(cpu)),
                           "curl+jq " + seconds(median(loop_cpu)), "%.2f×" % cpu_ratio,
                           "≤ %.1f×" % PAGING_CPU_TARGET, context.paging_verdict(cpu_ratio <= PAGING_CPU_TARGET)))


def paging(context, canned, budget):
    count = context.args.items
    endpoint = canned.url.replace("/graphql", "/items/%d/graphql" % count)
    label = "canned server"
    try:
        if context.gqlc is not None:
            check_items = min(count, 10_000)
            _check_same_lines(context, canned.url.replace("/graphql", "/items/%d/graphql" % check_items), check_items)
        log("paging %d items, gqlc against curl+jq (%s)" % (count, label))
        ours, theirs = _paging_pairs(context, endpoint, context.args.runs_paging, budget, server=canned)
    except MeasurementError as error:
        context.failed("paging (%s)" % label, error)
        return
    if ours:
        context.rss_200k_kb = median([m.peak_rss_kb for m in ours])
        share = sum(m.server_cpu for m in ours) / sum(m.wall for m in ours)
        context.report.note("While gqlc paged %s items, the canned server used %.1f%% of one core." % (
            "{:,}".format(count), share * 100))
    _paging_rows(context, label, count, ours, theirs)


def peak_rss(context, canned, budget):
    """Peak RSS while paging the big data set, next to the paging scenario's, to show it is flat."""
    if context.gqlc is None:
        return
    count = context.args.rss_items
    argv = context.gqlc.list(canned.url.replace("/graphql", "/items/%d/graphql" % count), context.args.page_size)
    log("peak RSS paging %d items" % count)
    try:
        first = measure(argv, watch_rss=True, timeout=600)
        runs = [first] + [measure(argv, watch_rss=True, timeout=600)
                          for _ in range(runs_within(budget - first.wall, first.wall, context.args.runs_rss - 1, 0))]
    except MeasurementError as error:
        context.failed("peak RSS", error)
        return
    peaks = [m.peak_rss_kb for m in runs]
    context.raw["rss %d" % count] = {"peak_kb": peaks, "wall": [m.wall for m in runs], "cpu": [m.cpu for m in runs]}
    if not all(peaks):
        context.failed("peak RSS", "gqlc exited before its RSS could be read (%s)" % peaks)
        return
    big, small = megabytes(median(peaks)), megabytes(context.rss_200k_kb)
    flat = small == small and small > 0 and big - small <= max(2.0, 0.1 * small)
    context.report.add(Row(
        "Peak RSS, paging %s items (%s; wall %s)" % ("{:,}".format(count), plural(len(runs), "run"),
                                                     seconds(median([m.wall for m in runs]))),
        "%.1f MB" % big, "gqlc at %s items: %.1f MB" % ("{:,}".format(context.args.items), small),
        "%.2f×" % (big / small) if small == small and small > 0 else "—",
        "≤ %d MB, flat" % RSS_TARGET_MB, context.paging_verdict(big <= RSS_TARGET_MB and flat)))


def _seed_appsync(context, endpoint, count, time_limit=20.0):
    """Creates up to `count` posts (the first with id p1) and returns how many it made in the time limit."""
    connection = GraphQLConnection(endpoint, context.args.api_key)
    started = time.perf_counter()
    try:
        for index in range(count):
            if time.perf_counter() - started > time_limit:
                return index
            post_id = "p1" if index == 0 else "post-%06d" % index
            connection.post(requests.CREATE_MUTATION, {"input": {
                "id": post_id, "title": "Post %d" % index, "content": "Seeded \"post\" %d,\nin café UTF-8." % index,
                "status": ("DRAFT", "PUBLISHED", "ARCHIVED")[index % 3], "rating": index % 5 + 1,
                "views": index * 7, "score": index % 100 + 0.25, "featured": index % 4 == 0,
                "publishedOn": "2024-%02d-%02d" % (index % 12 + 1, index % 28 + 1),
                "tags": ["bench", "tag-%d" % (index % 50)],
                "metadata": {"wordCount": index % 5000, "readingTime": index % 20 + 0.5,
                             "source": {"url": "https://x.io/%d" % index, "label": "x"}}}})
    finally:
        connection.close()
    return count


def appsync(context, server, budget):
    """`get` and paging against the local AppSync server, seeded through its own createPost."""
    label = "local AppSync server"
    count = context.args.appsync_items
    started = time.perf_counter()
    try:
        count = _seed_appsync(context, server.url, count)
    except (ServerError, OSError, ValueError, KeyError) as error:
        context.report.note("Seeding the %s with createPost failed (%s); its paging row was skipped." % (
            label, str(error)[:200]))
        count = 0
    seeded = time.perf_counter() - started
    if count:
        context.report.note("Seeded %s posts into the %s with createPost in %.1f s." % (
            "{:,}".format(count), label, seeded))
    get(context, server.url, label, budget / 3)
    if not count:
        return
    try:
        log("paging %d items, gqlc against curl+jq (%s)" % (count, label))
        ours, theirs = _paging_pairs(context, server.url, 3, budget * 2 / 3, minimum_extra=0)
    except MeasurementError as error:
        context.failed("paging (%s)" % label, error)
        return
    _paging_rows(context, label, count, ours, theirs)
