"""Helpers, constants and fixtures of test_bulk.py, shared with other test modules."""

from __future__ import annotations
import json
from pathlib import Path
import pytest
from gqlc_runner import runner_for
from harness import start_server


SUMMARY_RE = r"^(\d+) (created|updated|deleted), (\d+) failed(, \d+ interrupted in flight)?(, \d+ not sent)? in \d+\.\d\d s$"


def summary(run):
    """The summary line (the last on stderr) as (done, verb, failed)."""
    import re
    match = re.match(SUMMARY_RE, run.stderr_lines[-1])
    assert match, run
    return int(match.group(1)), match.group(2), int(match.group(3))


def comment(i: int, post: str = "p1") -> dict:
    return {"id": f"k{i:04d}", "author": "bulk", "content": f"comment {i}", "likes": i, "postId": post}


def ndjson(records) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


@pytest.fixture
def blog_empty(schema_examples_dir):
    """A blog server with no records, and a runner for it."""
    with start_server(schema_examples_dir / "blog.json") as server:
        yield runner_for(schema_examples_dir / "blog.json", server.url), server


@pytest.fixture
def blog(schema_examples_dir):
    with start_server(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json") as server:
        yield runner_for(schema_examples_dir / "blog.json", server.url)


def listed(run_gqlc, model: str) -> list[dict]:
    run = run_gqlc("list", model, "--output", "ndjson")
    assert run.code == 0, run
    return run.ndjson()


def _value_for(field: dict, mis: dict, depth: int = 0):
    kind = field["type"]
    if isinstance(kind, dict) and "enum" in kind:
        return mis["enums"][kind["enum"]]["values"][0]
    if isinstance(kind, dict) and "nonModel" in kind:
        if depth > 2:
            return None
        sub = mis["nonModels"][kind["nonModel"]]["fields"]
        return {name: _value_for(f, mis, depth + 1) for name, f in sub.items() if f.get("isRequired")}
    if isinstance(kind, dict):
        return None
    return {"ID": "id-1", "String": "text", "Int": 7, "Float": 1.5, "Boolean": True, "AWSDate": "2024-05-06",
            "AWSTime": "12:30:00.000Z", "AWSDateTime": "2024-05-06T07:08:09.000Z", "AWSTimestamp": 1700000000,
            "AWSEmail": "a@example.com", "AWSJSON": '{"a":1}', "AWSURL": "https://example.com",
            "AWSPhone": "+15551234567", "AWSIPAddress": "127.0.0.1"}.get(kind, "text")


def _seed(mis: dict) -> dict:
    """Two records per model with every required field, and the optional scalar fields set."""
    seed = {}
    for name, model in mis["models"].items():
        records = []
        for i in range(2):
            record = {}
            for field_name, field in model["fields"].items():
                if field.get("isReadOnly") or field.get("association") or isinstance(field["type"], dict) and "model" in field["type"]:
                    continue
                value = _value_for(field, mis)
                if value is None:
                    continue
                if field["type"] in ("ID", "String") and not field.get("isArray"):
                    value = f"{field_name}-{i}"
                record[field_name] = [value] if field.get("isArray") else value
            records.append(record)
        seed[name] = records
    return seed


def _mis(path: Path) -> dict:
    document = json.loads(path.read_text())
    return document.get("data", {}).get("model_introspection") or document.get("modelIntrospection") or document


FIXTURES = ["schema-examples/blog.json", "schema-examples/inventory.json", "schema-examples/tags.json",
            "schema-examples/shipments.json", "Tests/Fixtures/schemas/gen1-conventions.mis.json",
            "Tests/Fixtures/schemas/gen2-conventions.mis.json", "SHARED/gen1-blog-hasmany-belongsto.mis.json",
            "SHARED/gen1-cpk-hasone-hasmany-manytomany.mis.json", "SHARED/gen2-amplify-data-modeled.mis.json",
            "SHARED/gen2-cart-customer.amplify_outputs.json", "SHARED/gen2-references-cpk-hasmany.mis.json"]


def sent_documents(server) -> list[str]:
    return [" ".join(line.strip() for line in json.loads(request["body"])["query"].splitlines())
            for request in server.requests()]
