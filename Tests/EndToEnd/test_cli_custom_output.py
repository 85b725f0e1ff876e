"""`gqlc query`/`mutate` print as the model commands do: `--output raw` for a scalar result (as jq -r), `--fields` to
narrow a model or embedded result, tables of records. Against appsync-local on the project's custom-operation
fixture; expected values come from the fixture's canned results and seed."""

from __future__ import annotations

import json

import pytest

from gqlc_runner import runner_for
from harness import PROJECT_FIXTURES

SCHEMA = PROJECT_FIXTURES / "custom-operations.mis.json"
POST = {"id": "p1", "title": "Hello", "status": "PUBLISHED", "likes": 3,
        "createdAt": "2025-01-01T00:00:00.000Z", "updatedAt": "2025-01-02T00:00:00.000Z"}
CANNED = {
    "featuredPost": {"result": POST},
    "postStats": {"result": {"total": 4, "byStatus": [{"status": "DRAFT", "count": 1}], "top": {"title": "Hello", "score": 9.5,
                                                                                               "range": {"low": 1, "high": None}}}},
}


@pytest.fixture
def custom(start_appsync, tmp_path):
    (tmp_path / "canned.json").write_text(json.dumps(CANNED))
    (tmp_path / "seed.json").write_text(json.dumps({"Post": [POST]}))
    server = start_appsync(SCHEMA, seed=tmp_path / "seed.json", record_requests=True,
                           args=("--custom-results", tmp_path / "canned.json"))
    run = runner_for(SCHEMA, server.url)
    run.server = server
    return run


def test_output_raw_prints_a_scalar_result_unquoted(custom):
    run = custom("query", "shout", "text=hey there", "--output", "raw")
    assert (run.code, run.stdout, run.stderr) == (0, "hey there\n", ""), run
    run = custom("-o", "raw", "query", "tagsOf", 'tags:=["x","y z"]')
    assert (run.code, run.stdout, run.stderr) == (0, "x\ny z\n", ""), run


def test_fields_narrows_a_model_result_and_raw_prints_one_field(custom):
    run = custom("query", "featuredPost", "id=p1", "--fields", "title")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == {"id": "p1", "title": "Hello", "__typename": "Post"}
    [request] = [r for r in custom.server.requests() if "featuredPost" in r["body"]][-1:]
    assert "likes" not in json.loads(request["body"])["query"]
    raw = custom("query", "featuredPost", "id=p1", "--fields", "title", "--output", "raw")
    assert (raw.code, raw.stdout, raw.stderr) == (0, "Hello\n", "")
    table = custom("query", "featuredPost", "id=p1", "--fields", "title,likes", "--output", "tsv")
    assert (table.code, table.stdout) == (0, "title\tlikes\nHello\t3\n"), table


def test_fields_narrows_an_embedded_result(custom):
    run = custom("query", "postStats", "--fields", "total,top.title")
    assert (run.code, run.stderr) == (0, ""), run
    result = run.json()
    assert set(result) == {"total", "top", "__typename"} and result["total"] == 4, result
    assert {k: v for k, v in result["top"].items() if k != "__typename"} == {"title": "Hello"}, result


def test_what_cannot_be_printed_so_is_refused_before_sending(custom):
    run = custom("query", "shout", "text=x", "--output", "table")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == "gqlc: '--output table' prints records; shout returns String: use --output raw or json\n"
    run = custom("query", "shout", "text=x", "--fields", "a")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr == "gqlc: --fields 'a': shout returns String, which has no fields to select\n"
    run = custom("query", "featuredPost", "id=p1", "--fields", "titel")
    assert run.code == 2 and run.stderr == "gqlc: --fields 'titel': unknown field 'titel' on Post; did you mean 'title'?\n", run
    assert not [r for r in custom.server.requests() if "shout" in r["body"] or "titel" in r["body"]]
