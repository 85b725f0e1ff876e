"""Custom queries, mutations and subscriptions in appsync-local: arguments echoed back, canned results and errors
from ``--custom-results``, and the checks on that file and on ``--subscription-source``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from appsync_local.custom import check_subscription_sources, load_custom_results
from appsync_local.execution import App
from appsync_local.mis import SchemaFileError, load_schema_file
from harness import PROJECT_FIXTURES, SERVER_PATH, clean_env
from local_app import LocalApp

SCHEMA_PATH = PROJECT_FIXTURES / "custom-operations.mis.json"


def app(custom_results=None) -> LocalApp:
    return LocalApp(App(load_schema_file(str(SCHEMA_PATH)), custom_results=custom_results))


def test_object_results_echo_the_arguments_of_the_same_names():
    data = app().data('{ echoArgs(text: "t", count: 2, tags: ["a"], meta: "{\\"x\\":1}", range: {low: 1}) '
                      '{ text count tags meta flag range { low high } } }')
    assert data == {"echoArgs": {"text": "t", "count": 2, "tags": ["a"], "meta": '{"x":1}', "flag": None,
                                 "range": {"low": 1, "high": None}}}
    assert app().data('mutation { likePost(postId: "p1") { postId times } }') == {"likePost": {"postId": "p1", "times": None}}


def test_scalar_results_echo_the_first_argument_that_fits():
    assert app().data('{ shout(text: "hey") }') == {"shout": "hey"}
    assert app().data('{ tagsOf(tags: ["a", "b"]) }') == {"tagsOf": ["a", "b"]}
    assert app().data("{ statuses }") == {"statuses": None}


def test_canned_results_and_errors():
    local = app({"shout": {"result": "canned"},
                 "likePost": {"error": {"errorType": "Unauthorized", "message": "Not Authorized"}}})
    assert local.data('{ shout(text: "x") }') == {"shout": "canned"}
    response = local.run('mutation { likePost(postId: "p1") { postId } }')
    assert response["data"] == {"likePost": None}
    assert [(e["errorType"], e["message"], e["path"]) for e in response["errors"]] == [("Unauthorized", "Not Authorized", ["likePost"])]


@pytest.mark.parametrize("content, message", [
    ({"shuot": {"result": 1}}, "shuot: not a custom query or mutation of the schema; did you mean 'shout'?"),
    ({"shout": {"value": 1}}, 'shout: expected {"result": VALUE} or {"error": {…}}'),
    ({"shout": {"error": "no"}}, "shout.error: expected an object with errorType and message"),
    ([], 'expected an object like {"echo": {"result": …}}'),
])
def test_a_bad_custom_results_file_is_named(tmp_path, content, message):
    path = tmp_path / "canned.json"
    path.write_text(json.dumps(content))
    with pytest.raises(SchemaFileError) as raised:
        load_custom_results(str(path), load_schema_file(str(SCHEMA_PATH)))
    assert str(raised.value) == f"{path}: {message}"


def test_subscription_sources_name_a_custom_subscription_and_mutation():
    schema = load_schema_file(str(SCHEMA_PATH))
    assert check_subscription_sources({"onPostLiked": "likePost"}, schema) == {"onPostLiked": "likePost"}
    with pytest.raises(SchemaFileError, match="onPostLikd: not a custom subscription of the schema; did you mean 'onPostLiked'"):
        check_subscription_sources({"onPostLikd": "likePost"}, schema)
    with pytest.raises(SchemaFileError, match="likePots: not a custom mutation of the schema; did you mean 'likePost'"):
        check_subscription_sources({"onPostLiked": "likePots"}, schema)
    completed = subprocess.run([sys.executable, str(SERVER_PATH), "--schema", str(SCHEMA_PATH), "--port", "0",
                                "--subscription-source", "onPostLiked"], capture_output=True, text=True, env=clean_env(),
                               timeout=60)
    assert completed.returncode == 2 and "expected SUBSCRIPTION=MUTATION" in completed.stderr
