"""What a newcomer runs first: `make serve` prints the lines to paste to try gqlc by hand (and they work),
`make demo` installs nothing, and the first custom-operation example of docs/custom-operations-and-raw.md works against appsync-local on the
real Gen 2 fixture."""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from gqlc_runner import GQLC_BIN, gqlc_env, run_gqlc
from harness import REPO_ROOT, SHARED_FIXTURES, start_server

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_make_serve_prints_export_lines_that_work(tmp_path):
    port = free_port()
    venv = Path(sys.prefix)
    (venv / ".installed").touch(exist_ok=True)  # this interpreter's environment is the test venv already
    env = gqlc_env({"PATH": os.environ["PATH"]})
    process = subprocess.Popen(
        ["make", "-s", "--no-print-directory", "serve", f"SERVE_PORT={port}", f"VENV={venv}",
         f"DEBUG_BIN={os.path.relpath(GQLC_BIN, REPO_ROOT)}"],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True)
    try:
        lines = []
        while not any(line.startswith("http://") for line in lines):
            assert select.select([process.stdout], [], [], 60)[0], lines
            line = process.stdout.readline()
            assert line, lines
            lines.append(line.rstrip("\n"))
        exports = [line for line in lines if line.startswith("export ")]
        assert [line.split("=")[0] for line in exports] == ["export PATH", "export GQLC_SCHEMA", "export GQLC_ENDPOINT"]
        assert exports[2] == f"export GQLC_ENDPOINT=http://127.0.0.1:{port}/graphql"
        # Pasted into a shell, they run gqlc (found by the PATH line) against this server.
        shell = subprocess.run(["bash", "-c", "\n".join(exports) + "\ncommand -v gqlc && gqlc get Post --id p1 --fields title"],
                               capture_output=True, text=True, env=gqlc_env({"PATH": "/usr/bin:/bin"}), timeout=60)
        assert shell.returncode == 0, shell
        found, record = shell.stdout.splitlines()
        assert Path(found).resolve() == GQLC_BIN.resolve()
        assert '"title"' in record
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)


def test_make_demo_installs_nothing():
    dry = subprocess.run(["make", "-n", "demo", "VENV=/nonexistent-venv"], cwd=REPO_ROOT, capture_output=True, text=True)
    assert "scripts/demo.sh" in dry.stdout, dry
    assert "apt-get" not in dry.stdout and "install" not in dry.stdout.split("scripts/demo.sh")[1]
    # Without jq, the demo skips its jq step with a note (scripts/demo.sh checks `command -v jq`).
    script = (REPO_ROOT / "scripts" / "demo.sh").read_text()
    assert re.search(r"if command -v jq >/dev/null; then\n.*\n\s+else\n\s+echo\n\s+echo \"# \(jq is not installed", script)


@pytest.mark.shared_fixtures
def test_the_docs_first_custom_operation_example_works_on_the_gen2_fixture(monkeypatch):
    page = (REPO_ROOT / "docs" / "custom-operations-and-raw.md").read_text()
    section = page.split("## Custom operations: gqlc query and gqlc mutate", 1)[1]
    example = re.search(r"^gqlc query (\S+) (\S+)$", section, flags=re.MULTILINE)
    assert example, "no 'gqlc query' example in docs/custom-operations-and-raw.md's custom-operations section"
    schema = SHARED_FIXTURES / "gen2-amplify-data-modeled.mis.json"
    with start_server(schema) as server:
        run = run_gqlc(["--schema", schema, "--endpoint", server.url, "query", example.group(1), example.group(2)])
    assert (run.code, run.stderr) == (0, ""), run
    assert example.group(2).split("=", 1)[1] in run.stdout
