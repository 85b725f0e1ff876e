"""Subscription scenarios: how soon an event reaches stdout, and what an idle subscription costs, for
`gqlc subscribe` and for `gqlc list --watch` (whose events pass through the observed listing)."""

import http.client
import json
import os
import queue
import subprocess
import threading
import time
import urllib.parse

from .process import MeasurementError, child_environment
from .report import Row, seconds, verdict
from .servers import Server, ServerError

IDLE_CPU_TARGET = 0.050  # seconds of CPU for a subscription that waits 60 s for nothing
CREATE = ("mutation CreatePost($input: CreatePostInput!) { createPost(input: $input) "
          "{ id title createdAt updatedAt __typename } }")


def _cpu_seconds(pid):
    """User + system CPU of a running process, from /proc (clock ticks)."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


SUBSCRIBE = (("subscribe", "Post", "--on", "create"), "subscribed: onCreatePost")
# Ready once the first listing has been printed; the scenario's server starts empty.
WATCH = (("list", "Post", "--watch"), "synced")


class _Subscriber:
    """`gqlc subscribe Post --on create` (or `list Post --watch`) in the background, its stdout lines read by a
    thread once it is ready."""

    def __init__(self, gqlc_binary, schema, url, command=SUBSCRIBE):
        arguments, ready = command
        self.process = subprocess.Popen(
            [gqlc_binary, "--schema", schema, "--endpoint", url, *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=child_environment())
        stream = self.process.stdout if ready == "synced" else self.process.stderr
        while True:
            line = stream.readline().decode(errors="replace").strip()
            if ready in line or not line:
                break
        if ready not in line:
            self.stop()
            raise MeasurementError("gqlc %s was not ready: %r" % (arguments[0], line))
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.process.stdout:
            self.lines.put((time.perf_counter(), line))
        self.lines.put((time.perf_counter(), None))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def _percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def subscription(context, appsync, events=1000, idle_seconds=60, command=SUBSCRIBE):
    """Latency from a createPost's HTTP response to its event on gqlc's stdout (median and p99 over `events`),
    then the CPU an idle subscription uses over `idle_seconds` (the server sends its default `ka` every 10 s)."""
    if context.gqlc is None:
        return
    watching = command is WATCH
    name = "`list --watch`" if watching else "subscription"
    label = name + " event latency"
    argv = [appsync, "--schema", context.args.schema, "--port", "0"]
    try:
        with Server("local AppSync server (subscriptions)", argv) as server:
            parts = urllib.parse.urlsplit(server.url)
            latencies, round_trips = [], []
            subscriber = _Subscriber(context.gqlc_binary, context.args.schema, server.url, command)
            try:
                connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
                for number in range(events):
                    body = json.dumps({"query": CREATE, "variables": {"input": {"title": "bench %d" % number}}})
                    sent = time.perf_counter()
                    connection.request("POST", parts.path, body=body, headers={"Content-Type": "application/json"})
                    response = connection.getresponse()
                    payload = response.read()
                    answered = time.perf_counter()
                    if response.status != 200:
                        raise MeasurementError("createPost answered HTTP %d: %r" % (response.status, payload[:200]))
                    arrived, line = subscriber.lines.get(timeout=60)
                    if line is None:
                        raise MeasurementError("gqlc subscribe ended early")
                    # The server publishes before it answers, so the event may already be waiting: that counts as 0.
                    latencies.append(max(0.0, arrived - answered))
                    round_trips.append(arrived - sent)
                connection.close()
            finally:
                subscriber.stop()
            log_line = "%s: %d events, now %d s idle" % (name, events, idle_seconds)
            print("bench: " + log_line, flush=True)
            idle = _Subscriber(context.gqlc_binary, context.args.schema, server.url, command)
            try:
                before = _cpu_seconds(idle.process.pid)
                time.sleep(idle_seconds)  # the measurement itself: CPU used while nothing happens
                idle_cpu = _cpu_seconds(idle.process.pid) - before
            finally:
                idle.stop()
    except (MeasurementError, ServerError, OSError, subprocess.SubprocessError, queue.Empty) as error:
        context.failed(label, error)
        return
    context.raw["watch" if watching else "subscription"] = {
        "latencies": latencies, "round_trips": round_trips, "idle_cpu": idle_cpu, "idle_seconds": idle_seconds}
    spread = lambda values: "median %.2f ms, p99 %.2f ms" % (_percentile(values, 0.5) * 1000, _percentile(values, 0.99) * 1000)
    context.report.add(Row("%s event latency, createPost response → line on stdout (local AppSync server, %d events; "
                           "the server publishes before it answers)" % (name, events), spread(latencies), "—"))
    context.report.add(Row("%s event latency, createPost sent → line on stdout (%d events)" % (name, events),
                           spread(round_trips), "—"))
    context.report.add(Row("CPU of an idle %s over %d s (`ka` every 10 s)" % (name, idle_seconds),
                           seconds(idle_cpu), "—", "—", "< %.0f ms" % (IDLE_CPU_TARGET * 1000),
                           verdict(idle_cpu < IDLE_CPU_TARGET)))
