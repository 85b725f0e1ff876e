"""Starting and stopping the loopback servers a benchmark talks to."""

import http.client
import json
import os
import subprocess
import tempfile
import threading
import urllib.parse

from .process import child_environment


class ServerError(RuntimeError):
    pass


class Server:
    """A server process whose first stdout line is its URL. Use as a context manager."""

    def __init__(self, name, argv, *, env=None, startup_timeout=60.0):
        self.name = name
        self.argv = argv
        self.env = env or child_environment()
        self.startup_timeout = startup_timeout
        self.url = None
        self.process = None
        self.log = tempfile.TemporaryFile()

    def __enter__(self):
        self.process = subprocess.Popen(self.argv, env=self.env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=self.log)
        line = [b""]
        reader = threading.Thread(target=lambda: line.__setitem__(0, self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(self.startup_timeout)
        url = line[0].decode(errors="replace").strip()
        if not url.startswith("http://127.0.0.1:"):
            self.stop()
            raise ServerError("%s did not print a loopback URL within %.0f s (got %r); its log: %s"
                              % (self.name, self.startup_timeout, url, self.log_tail()))
        self.url = url
        # Keep draining stdout so that the server never blocks on a full pipe.
        threading.Thread(target=self._drain, daemon=True).start()
        return self

    def _drain(self):
        try:
            for _ in self.process.stdout:
                pass
        except (OSError, ValueError):
            pass

    def log_tail(self, limit=800):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-limit:].strip() or "(empty)"

    @property
    def pid(self):
        return self.process.pid

    def cpu_seconds(self):
        """User + system CPU the server has used so far (from /proc)."""
        with open("/proc/%d/stat" % self.process.pid) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __exit__(self, *exc):
        self.stop()
        self.log.close()


class GraphQLConnection:
    """A keep-alive loopback connection for setting up data and checking servers (not for timing gqlc)."""

    def __init__(self, url, api_key=None):
        parsed = urllib.parse.urlparse(url)
        self.path = parsed.path or "/"
        self.connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
        self.headers = {"Content-Type": "application/json"}
        if api_key:
            self.headers["x-api-key"] = api_key

    def post_raw(self, body: bytes, path=None) -> bytes:
        try:
            self.connection.request("POST", path or self.path, body, self.headers)
            response = self.connection.getresponse()
            data = response.read()
        except http.client.HTTPException as error:
            raise ServerError("HTTP exchange with %s failed: %r" % (path or self.path, error))
        if response.status != 200:
            raise ServerError("HTTP %d from %s: %s" % (response.status, path or self.path, data[:300]))
        return data

    def post(self, query, variables):
        data = json.loads(self.post_raw(json.dumps({"query": query, "variables": variables}).encode()))
        if data.get("errors"):
            raise ServerError("GraphQL errors: %s" % json.dumps(data["errors"])[:500])
        return data["data"]

    def close(self):
        self.connection.close()
