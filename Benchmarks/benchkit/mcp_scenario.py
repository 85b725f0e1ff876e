"""`gqlc mcp`: the time from a `tools/call` of get_record to its result, against `gqlc get` run as a process.

An assistant keeps one `gqlc mcp` running and sends it calls; a script runs `gqlc get` once per record. Both
fetch the same post from the local AppSync server (seeded with the blog example). The server process is started
once and initialized; each timed call is one request line written to its stdin until its reply line is read.
The first call (which loads libcurl and resolves the endpoint) is reported apart from the median of the rest.
"""

import json
import os
import subprocess
import time

from .process import MeasurementError, child_environment, measure
from .report import Row, median, seconds
from .scenarios import interleave, log, plural, runs_within
from .servers import Server, ServerError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class _McpProcess:
    """A running `gqlc mcp` spoken to over pipes, one JSON-RPC line at a time."""

    def __init__(self, argv):
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        env=child_environment())
        self.next_id = 0

    def request(self, method, params):
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n"
        started = time.perf_counter()
        self.process.stdin.write(line.encode())
        self.process.stdin.flush()
        reply = self.process.stdout.readline()
        elapsed = time.perf_counter() - started
        if not reply:
            raise MeasurementError("gqlc mcp closed its output (exit status %s)" % self.process.poll())
        message = json.loads(reply)
        if message.get("id") != self.next_id or "result" not in message:
            raise MeasurementError("gqlc mcp answered %s" % reply[:300])
        return message["result"], elapsed

    def close(self):
        self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def get_record_call(context, appsync, budget):
    """Median seconds from a get_record tools/call to its reply, against `gqlc get` as a whole process."""
    if context.gqlc is None:
        return
    label = "MCP `get_record` call"
    seed = os.path.join(ROOT, "schema-examples", "blog-seed.json")
    argv = [appsync, "--schema", context.args.schema, "--port", "0", "--seed", seed]
    try:
        with Server("local AppSync server (%s)" % label, argv) as server:
            _measure(context, server.url, label, budget)
    except (ServerError, MeasurementError, OSError, ValueError) as error:
        context.failed(label, error)


def _measure(context, endpoint, label, budget):
    get_argv = context.gqlc.get(endpoint, "p1")
    mcp = _McpProcess(context.gqlc._base(endpoint) + ["mcp"])
    try:
        result, _ = mcp.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                               "clientInfo": {"name": "bench", "version": "1"}})
        mcp.process.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        call = {"name": "get_record", "arguments": {"model": "Post", "key": {"id": "p1"}}}

        def one_call():
            reply, elapsed = mcp.request("tools/call", call)
            if reply.get("isError") or reply.get("structuredContent", {}).get("record", {}).get("id") != "p1":
                raise MeasurementError("get_record answered %s" % json.dumps(reply)[:300])
            return elapsed

        first_call = one_call()
        checked = measure(get_argv, stdout=subprocess.PIPE)
        if checked.returncode != 0:
            raise MeasurementError("gqlc get exited %d: %s" % (checked.returncode, checked.stderr.strip()[:300]))
        runs = runs_within(budget, checked.wall + first_call, max(15, context.args.runs_get))
        log("%s: %d of each, interleaved" % (label, runs))
        calls, processes = interleave(runs, one_call, lambda: measure(get_argv).wall)
    finally:
        mcp.close()
    context.raw["mcp get_record"] = {"call": calls, "first_call": first_call, "gqlc_get": processes}
    ratio = median(calls) / median(processes)
    context.report.add(Row(
        "%s, reply time (local AppSync server; %s; first call %s)" % (label, plural(runs, "call"), seconds(first_call)),
        seconds(median(calls)), "`gqlc get` process " + seconds(median(processes)), "%.2f×" % ratio))
