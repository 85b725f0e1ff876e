"""Tests of the Star Wars test server: it must answer like a standard GraphQL server."""

import http.client
import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

HERE = Path(__file__).resolve().parent
SERVER = HERE / "starwars-server"
QUERIES = HERE / "queries"
# Loopback traffic must not go through a proxy, whatever the environment says.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@pytest.fixture(scope="module")
def url():
    process = subprocess.Popen([sys.executable, str(SERVER), "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        first_line = process.stdout.readline().strip()
        assert first_line.startswith("http://127.0.0.1:") and first_line.endswith("/graphql"), first_line
        yield first_line
    finally:
        process.terminate()
        process.wait(timeout=10)


def post(url, body, raw=None):
    """Status and decoded JSON of one POST."""
    data = raw if raw is not None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    try:
        with OPENER.open(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def run(url, query, variables=None, operation_name=None):
    body = {"query": query, "variables": variables}
    if operation_name is not None:
        body["operationName"] = operation_name
    status, result = post(url, body)
    assert status == 200
    return result


@pytest.mark.parametrize("path", sorted(QUERIES.glob("*.graphql")), ids=lambda path: path.stem)
def test_every_graphql_org_example_runs_without_errors(url, path):
    variables_file = path.with_suffix(".variables.json")
    variables = json.loads(variables_file.read_text()) if variables_file.exists() else None
    result = run(url, path.read_text(), variables)
    assert "errors" not in result, result
    assert result["data"] and all(value is not None for value in result["data"].values())


def test_aliases_fragments_and_default_variables(url):
    result = run(url, (QUERIES / "05-fragment-variables.graphql").read_text())
    left = result["data"]["leftComparison"]
    assert left["name"] == "Luke Skywalker"
    assert left["friendsConnection"]["totalCount"] == 4
    assert [edge["node"]["name"] for edge in left["friendsConnection"]["edges"]] == ["Han Solo", "Leia Organa", "C-3PO"]
    assert result["data"]["rightComparison"]["name"] == "R2-D2"


def test_field_arguments_with_defaults(url):
    result = run(url, '{ human(id: "1000") { meters: height feet: height(unit: FOOT) } }')
    assert result["data"]["human"] == {"meters": 1.72, "feet": 5.6430446}


def test_operation_name_chooses_among_several_operations(url):
    document = "query Luke { human(id: \"1000\") { name } }\nquery Artoo { droid(id: \"2001\") { name } }"
    assert run(url, document, operation_name="Artoo")["data"] == {"droid": {"name": "R2-D2"}}
    assert run(url, document, operation_name="Luke")["data"] == {"human": {"name": "Luke Skywalker"}}
    result = run(url, document)
    assert "data" not in result
    assert "operation name" in result["errors"][0]["message"]


def test_mutation_stores_a_review(url):
    mutation = (QUERIES / "10-mutation.graphql").read_text()
    review = {"stars": 4, "commentary": "Quote \" backslash \\ newline \n }) { evil }"}
    created = run(url, mutation, {"ep": "EMPIRE", "review": review})
    assert created["data"]["createReview"] == review
    listed = run(url, "query ($e: Episode!) { reviews(episode: $e) { episode stars commentary } }", {"e": "EMPIRE"})
    assert {"episode": "EMPIRE", **review} in listed["data"]["reviews"]


def test_nested_data_and_paging(url):
    query = """query ($after: ID) { hero(episode: EMPIRE) { friendsConnection(first: 2, after: $after) {
        pageInfo { endCursor hasNextPage } friends { name ... on Droid { primaryFunction } } } } }"""
    first = run(url, query)["data"]["hero"]["friendsConnection"]
    assert first["pageInfo"] == {"endCursor": "1003", "hasNextPage": True}
    second = run(url, query, {"after": first["pageInfo"]["endCursor"]})["data"]["hero"]["friendsConnection"]
    assert second["pageInfo"] == {"endCursor": "2001", "hasNextPage": False}
    assert second["friends"] == [{"name": "C-3PO", "primaryFunction": "Protocol"},
                                 {"name": "R2-D2", "primaryFunction": "Astromech"}]


def test_standard_error_shapes(url):
    validation = run(url, "{ hero { nam } }")
    assert "data" not in validation
    assert validation["errors"][0]["locations"] == [{"line": 1, "column": 10}]
    execution = run(url, '{ character(id: "9") { name } }')
    assert execution["data"] == {"character": None}
    assert execution["errors"][0]["path"] == ["character"]
    assert execution["errors"][0]["message"] == "no character has id '9'"
    syntax = run(url, "{ hero { name }")
    assert "data" not in syntax and "Syntax Error" in syntax["errors"][0]["message"]
    missing = run(url, "query ($id: ID!) { character(id: $id) { name } }", {})
    assert "data" not in missing and "$id" in missing["errors"][0]["message"]


def test_malformed_requests_get_400(url):
    status, result = post(url, None, raw=b"not json")
    assert status == 400 and "not JSON" in result["errors"][0]["message"]
    status, result = post(url, {"variables": {}})
    assert status == 400 and "query" in result["errors"][0]["message"]
    status, _ = post(url, {"query": "{ hero { name } }", "variables": [1]})
    assert status == 400


def test_keep_alive_serves_several_requests_on_one_connection(url):
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        for name in ("1000", "2000"):
            body = json.dumps({"query": "query ($id: ID!) { character(id: $id) { name } }", "variables": {"id": name}})
            connection.request("POST", parts.path, body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            assert response.status == 200
            assert response.getheader("Connection") != "close"
            assert json.loads(response.read())["data"]["character"]["name"] in ("Luke Skywalker", "C-3PO")
    finally:
        connection.close()


def test_last_request_shows_what_the_client_sent(url):
    body = {"query": "query Q($e: Episode) { hero(episode: $e) { id } }", "variables": {"e": "JEDI"},
            "operationName": "Q"}
    post(url, body)
    last_request_url = url.rsplit("/", 1)[0] + "/last-request"
    with OPENER.open(last_request_url, timeout=10) as response:
        assert json.load(response) == {"body": body}
