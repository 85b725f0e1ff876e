"""`gqlc schema print --format introspection` prints the model introspection gqlc derives from the schema it was
given, and appsync-local serves an @model `.graphql` schema through it, so a Gen 1 project can be served as it is."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gqlc_runner import GQLC_BIN, run_gqlc, runner_for
from harness import REPO_ROOT, start_server

GEN1 = REPO_ROOT / "Tests" / "Fixtures" / "schemas" / "gen1-conventions.graphql"
GEN1_MIS = REPO_ROOT / "Tests" / "Fixtures" / "schemas" / "gen1-conventions.mis.json"


def models_of(path) -> dict:
    """Each model's fields and key, as `gqlc models --output json` describes them (the schema's meaning, not its
    text)."""
    return run_gqlc(["--schema", path, "models", "--output", "json"]).json()


def test_the_printed_introspection_describes_what_the_sdl_does(tmp_path):
    run = run_gqlc(["--schema", GEN1, "schema", "print", "--format", "introspection"])
    assert (run.code, run.stderr) == (0, ""), run
    mis = json.loads(run.stdout)
    assert mis["version"] == 1 and set(mis["models"]) == set(json.loads(GEN1_MIS.read_text())["models"])
    (tmp_path / "printed.json").write_text(run.stdout)
    # Read back, it is the same schema as the SDL, and as the MIS written for that SDL by Amplify's rules.
    assert models_of(tmp_path / "printed.json") == models_of(GEN1) == models_of(GEN1_MIS)


def test_print_introspection_sends_nothing_and_reports_a_bad_schema(tmp_path):
    (tmp_path / "bad.graphql").write_text("type Post @model {\n  id: ID!\n")
    run = run_gqlc(["--schema", tmp_path / "bad.graphql", "--endpoint", "http://127.0.0.1:9/graphql",
                    "schema", "print", "--format", "introspection"])
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr.startswith(f"gqlc: {tmp_path}/bad.graphql: ")
    wrong = run_gqlc(["schema", "pull", "--format", "introspection"])
    assert (wrong.code, wrong.stderr) == (2, "gqlc: '--format' is for 'schema print'; 'schema pull' writes model "
                                              "introspection\n")


def test_appsync_local_serves_a_gen1_schema_through_gqlc(monkeypatch):
    monkeypatch.setenv("GQLC_BIN", str(GQLC_BIN))
    with start_server(GEN1) as server:
        gqlc = runner_for(GEN1, server.url)
        library = gqlc("create", "Library", "name=Central")
        assert (library.code, library.stderr) == (0, ""), library
        shelf = gqlc("create", "Shelf", "label=A", f"library={library.json()['id']}")
        assert shelf.code == 0, shelf
        got = gqlc("get", "Library", "--id", library.json()["id"], "--include", "shelves")
        assert (got.code, got.stderr) == (0, ""), got
        assert [s["id"] for s in got.json()["shelves"]["items"]] == [shelf.json()["id"]]


def test_appsync_local_says_when_gqlc_is_not_found(tmp_path):
    command = [sys.executable, str(REPO_ROOT / "DevServers" / "AppSyncLocal" / "appsync-local"), "--schema", str(GEN1),
               "--print-schema"]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=60,
                               env={"PATH": str(tmp_path), "HOME": str(tmp_path)})
    assert completed.returncode == 2, completed
    assert completed.stderr == (
        f"appsync-local: error: {GEN1}: an @model schema is read through gqlc ('gqlc schema print --format "
        "introspection'), which was not found: set GQLC_BIN to the gqlc binary or put gqlc on PATH\n")
