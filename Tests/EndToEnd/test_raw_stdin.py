"""`gqlc raw` reads a piped document without '-', as jq and `curl -d @-` users expect; on a terminal it still asks
for one."""

from __future__ import annotations

import json
import os
import subprocess

from gqlc_runner import GQLC_BIN, gqlc_env

DOCUMENT = "query Hero { hero { name } }\n"


def test_a_piped_document_is_read_without_a_dash(starwars):
    run = starwars("raw", stdin=DOCUMENT)
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == {"hero": {"name": "R2-D2"}}
    assert starwars.server.last_request()["query"] == DOCUMENT


def test_a_document_redirected_from_a_file_is_read(starwars, tmp_path):
    (tmp_path / "hero.graphql").write_text(DOCUMENT)
    with open(tmp_path / "hero.graphql", "rb") as document:
        completed = subprocess.run([str(GQLC_BIN), "--endpoint", starwars.server.url, "raw", "--var", "x=1"],
                                   stdin=document, capture_output=True, env=gqlc_env(), timeout=60)
    assert completed.returncode == 0, completed
    assert completed.stdout == b'{"hero":{"name":"R2-D2"}}\n'
    assert completed.stderr.startswith(b"gqlc: warning: variable 'x' is not declared by operation 'Hero'")


def test_on_a_terminal_raw_still_asks_for_a_document(starwars):
    # stdin on a terminal too: nothing is waited for.
    import pty
    master, slave = pty.openpty()
    try:
        completed = subprocess.run([str(GQLC_BIN), "--endpoint", starwars.server.url, "raw"], stdin=slave,
                                   capture_output=True, env=gqlc_env(), timeout=30)
    finally:
        os.close(slave)
        os.close(master)
    assert completed.returncode == 2
    assert completed.stderr == (b"gqlc: 'raw' needs a document: a FILE, '-' for standard input (or a pipe), "
                                b"or --query TEXT\n")
    assert starwars.server.last_request() is None


# --decode-path into a list of records prints as a table, TSV or raw values


def test_decode_path_to_a_list_of_records_prints_a_table(blog):
    query = "{ listPosts(filter: {status: {eq: PUBLISHED}}) { items { id title rating } } }"
    table = blog("raw", "--query", query, "--decode-path", "listPosts.items", "--output", "table")
    assert (table.code, table.stderr) == (0, ""), table
    expected = blog("list", "Post", "--where", "status=PUBLISHED", "--fields", "id,title,rating").json()
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["id", "title", "rating"]
    assert sorted(line.split()[0] for line in lines[1:]) == sorted(r["id"] for r in expected)
    tsv = blog("raw", "--query", query, "--decode-path", "listPosts.items", "-o", "tsv")
    assert tsv.code == 0, tsv
    rows = [line.split("\t") for line in tsv.stdout.splitlines()]
    assert rows[0] == ["id", "title", "rating"]
    assert sorted(rows[1:]) == sorted([r["id"], r["title"], "" if r["rating"] is None else str(r["rating"])]
                                      for r in expected)
    # raw prints each record whole, one per line (as jq -c '.[]').
    raw = blog("raw", "--query", query, "--decode-path", "listPosts.items", "-o", "raw")
    assert raw.code == 0, raw
    assert sorted(json.loads(line)["id"] for line in raw.stdout.splitlines()) == sorted(r["id"] for r in expected)
