"""No secret given by flag, environment or config file appears anywhere in gqlc's output, even with
``--verbose`` and even when a server echoes the request's headers back in its error pages.

Every secret is distinctive; the checks look for the whole secret and for the parts that a redacted form
must never show (all but its first four characters). The ``--verbose`` trace must still name each header
and show the redacted value, e.g. ``> x-api-key: da2-…████``."""

from __future__ import annotations
import json
import re
import pytest
from gqlc_runner import closed_port_url
from redaction_support import (  # noqa: F401 - fixtures among them
    MASK,
    SCHEMA_EXAMPLES,
    Source,
    SOURCES,
    assert_no_leak,
    redacted_header_line,
    run_with,
    servers,
    GET,
    BY_NAME,
    ids,
    ECHO,
    ECHO_PAGE,
    ECHO_REPLIES,
    echoing,
)


@pytest.mark.parametrize("source", SOURCES, ids=ids)
def test_a_successful_request_shows_the_header_redacted(source, servers, run_with):
    server = servers(source.secret if source.is_api_key else None)
    run = run_with(source, server.url, *GET)
    assert run.code == 0, run
    assert redacted_header_line(source) in run.stderr_lines
    assert_no_leak(source, run.stdout + run.stderr)


@pytest.mark.parametrize("source", SOURCES, ids=ids)
def test_a_rejected_key_is_not_shown(source, servers, run_with):
    server = servers("da2-theRightKeyIsNotThis0")
    run = run_with(source, server.url, *GET)
    assert run.code == 5, run
    assert run.stdout == ""
    assert redacted_header_line(source) in run.stderr_lines
    assert run.stderr_lines[-1].startswith("gqlc: HTTP 401 Unauthorized: UnauthorizedException: ")
    assert_no_leak(source, run.stdout + run.stderr)


@pytest.mark.parametrize("source", SOURCES, ids=ids)
def test_a_network_failure_is_not_shown(source, run_with):
    run = run_with(source, closed_port_url(), "--retries", "1", *GET)
    assert run.code == 6, run
    assert run.stderr_lines.count(redacted_header_line(source)) == 2  # both attempts
    assert_no_leak(source, run.stdout + run.stderr)


@pytest.mark.parametrize("source", SOURCES, ids=ids)
def test_a_failing_server_is_not_shown(source, servers, run_with):
    server = servers(None, "--fail-every", "1")
    run = run_with(source, server.url, "--retries", "1", "list", "Post")
    assert run.code == 5, run
    assert run.stdout == ""
    assert_no_leak(source, run.stdout + run.stderr)


@pytest.mark.parametrize("source", SOURCES, ids=ids)
@pytest.mark.parametrize("case", list(ECHO_REPLIES))
def test_a_server_echoing_the_secret_is_scrubbed(source, case, echoing, run_with):
    server = echoing(case)
    run = run_with(source, server.url, "--retries", "0", *GET)
    assert server.headers()[source.header.lower()] == source.secret  # it was sent, and echoed
    assert run.code in (1, 5), run
    assert run.stdout == ""
    assert [line for line in run.stderr_lines if line.startswith("gqlc: ")], run
    assert_no_leak(source, run.stdout + run.stderr)


@pytest.mark.parametrize("source", [BY_NAME["flag-api-key"], BY_NAME["header-token"]], ids=["api-key", "header"])
def test_dry_run_and_usage_errors_do_not_show_secrets(source, gqlc):
    dry = gqlc("--schema", SCHEMA_EXAMPLES / "blog.json", "--endpoint", "http://127.0.0.1:9/graphql", "--verbose",
               *source.args, "--dry-run", *GET)
    assert dry.code == 0, dry
    assert_no_leak(source, dry.stdout + dry.stderr)
    bad = gqlc("--schema", SCHEMA_EXAMPLES / "blog.json", *source.args, "get", "Post", "--bogus")
    assert bad.code == 2, bad
    assert_no_leak(source, bad.stdout + bad.stderr)


def test_a_malformed_secret_header_is_masked_in_the_usage_error(gqlc):
    secret = "hdrTokN6bV2cX8zA4sD0fG"
    for line in (f"x-secret-token {secret}", f"x-secret-token : {secret}", f"x secret token: {secret}", secret):
        run = gqlc("-H", line, "--schema", SCHEMA_EXAMPLES / "blog.json", *GET)
        assert run.code == 2, run
        assert len(run.stderr_lines) == 1 and run.stderr_lines[0].startswith("gqlc: malformed header"), run
        assert secret not in run.stderr and secret[4:12] not in run.stderr, run


def test_the_trace_shows_method_url_headers_document_variables_status_and_timing(servers, run_with):
    source = BY_NAME["flag-api-key"]
    server = servers(source.secret)
    run = run_with(source, server.url, "update", "Post", "--id", "p2", "title=Sharper")
    assert run.code == 0, run
    lines = run.stderr_lines
    assert f"> POST {server.url}" in lines
    assert "> Content-Type: application/json" in lines and redacted_header_line(source) in lines
    assert "* operation:" in lines
    assert "*   mutation UpdatePost($input: UpdatePostInput!) {" in lines
    [variables] = [line for line in lines if line.startswith("* variables: ")]
    assert json.loads(variables.removeprefix("* variables: ")) == {"input": {"id": "p2", "title": "Sharper"}}
    assert any(re.fullmatch(r"< HTTP 200 \(\d+ bytes in \d+ ms\)", line) for line in lines), lines
    # The trace comes before the result and stays off stdout.
    assert run.json()["title"] == "Sharper" and "* operation:" not in run.stdout
    assert_no_leak(source, run.stdout + run.stderr)
