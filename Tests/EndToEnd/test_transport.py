"""The HTTP transport end to end: HTTPS with a private CA, gzip, proxies, Ctrl-C, keep-alive, and a missing
libcurl. Every test runs the built gqlc against the real local server (HTTPS with ``--tls-cert/--tls-key``);
certificates are made here with ``trustme``, from a CA of the test's own."""

from __future__ import annotations
import json
import re
import signal
import subprocess
import pytest
from forwarding_proxy import ForwardingProxy
from gqlc_runner import GQLC_BIN, closed_port_url, gqlc_env
from transport_support import (  # noqa: F401 - fixtures among them
    GET_P1,
    NO_CA_VARIABLES,
    P1_TITLE,
    PKI,
    pki,
    https,
    served,
)


def test_https_with_the_private_ca_given_by_cacert(gqlc, https, pki, schema_examples_dir):
    server = https()
    assert server.url.startswith("https://127.0.0.1:")
    run = gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, "--cacert", pki.ca, *GET_P1)
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json()["title"] == P1_TITLE


@pytest.mark.parametrize("variable", ["CURL_CA_BUNDLE", "SSL_CERT_FILE"])
def test_https_with_the_private_ca_from_the_environment(gqlc, https, pki, schema_examples_dir, variable):
    server = https()
    run = gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, *GET_P1,
               env={**NO_CA_VARIABLES, variable: str(pki.ca)})
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json()["title"] == P1_TITLE


def test_cacert_wins_over_the_variables(gqlc, https, pki, schema_examples_dir, tmp_path):
    server = https()
    run = gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, "--cacert", pki.ca, *GET_P1,
               env={"CURL_CA_BUNDLE": str(tmp_path / "missing.pem"), "SSL_CERT_FILE": str(tmp_path / "missing.pem")})
    assert (run.code, run.stderr) == (0, ""), run


def test_an_unknown_ca_is_refused_at_once_naming_the_certificate_problem(gqlc, https, schema_examples_dir):
    server = https()
    run = gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, "--retries", "3", *GET_P1,
               env=NO_CA_VARIABLES)
    assert (run.code, run.stdout) == (6, ""), run
    # One line, and no retries: a certificate does not become trusted by asking again.
    assert run.stderr_lines == [
        "gqlc: TLS error: SSL certificate problem: unable to get local issuer certificate; "
        "to trust a private CA, pass --cacert FILE or set CURL_CA_BUNDLE"]
    assert served(server) == []
    server.wait_for_log("unknown ca")  # the server logs the refused handshake after gqlc has gone


def test_a_certificate_for_another_host_is_refused_even_from_a_trusted_ca(gqlc, https, pki, schema_examples_dir):
    server = https(pki.other_host_cert, pki.other_host_key)
    run = gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, "--cacert", pki.ca, *GET_P1)
    assert (run.code, run.stdout) == (6, ""), run
    [line] = run.stderr_lines
    assert line.startswith("gqlc: TLS error: ") and "'127.0.0.1'" in line, line
    assert served(server) == []


@pytest.mark.parametrize("source", ["--cacert", "CURL_CA_BUNDLE", "SSL_CERT_FILE"])
def test_an_unreadable_ca_file_is_a_usage_error_naming_its_source(gqlc, https, schema_examples_dir, tmp_path, source):
    missing = tmp_path / "missing.pem"
    flag, env, origin = (("--cacert", missing), NO_CA_VARIABLES, "'--cacert'") if source == "--cacert" \
        else ((), {**NO_CA_VARIABLES, source: str(missing)}, f"${source}")
    run = gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", https().url, *flag, *GET_P1, env=env)
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == [
        f"gqlc: cannot read the CA certificates file '{missing}' from {origin}: No such file or directory"]


def test_responses_come_gzipped_and_print_the_same_as_the_plain_answer(gqlc, faulty, schema_examples_dir):
    server = faulty()
    query = "{ listPosts(limit: 100) { items { id title content tags } nextToken } }"
    # The reference: the server's own answer to a client that does not ask for gzip (http.client).
    plain = server.graphql(query)
    assert "gzip" not in server.stderr_text()
    run = gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, "--verbose",
               "raw", "-", "--raw-response", stdin=query)
    assert run.code == 0, run
    assert run.json() == plain
    [(sent, whole)] = [(int(m[1]), int(m[2])) for m in re.finditer(r"gzip: sent (\d+) bytes for (\d+)", server.stderr_text())]
    assert sent < whole
    assert "< Content-Encoding: gzip" in run.stderr_lines
    assert any(line.startswith(f"< HTTP 200 ({whole} bytes in ") for line in run.stderr_lines), run.stderr


def test_http_proxy_carries_the_requests(blog):
    with ForwardingProxy() as proxy:
        run = blog(*GET_P1, env={"http_proxy": proxy.url})
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json()["title"] == P1_TITLE
    assert proxy.requests == [f"POST {blog.server.url}"]


def test_all_proxy_carries_the_requests(blog):
    with ForwardingProxy() as proxy:
        run = blog(*GET_P1, env={"all_proxy": proxy.url})
    assert run.code == 0, run
    assert proxy.requests == [f"POST {blog.server.url}"]


@pytest.mark.parametrize("no_proxy", ["127.0.0.1", "*"])
def test_no_proxy_bypasses_the_proxy(blog, no_proxy):
    with ForwardingProxy() as proxy:
        run = blog(*GET_P1, env={"http_proxy": proxy.url, "no_proxy": no_proxy})
    assert run.code == 0, run
    assert proxy.requests == []


def test_an_unreachable_proxy_fails_naming_it(blog):
    proxy_url = closed_port_url().removesuffix("/graphql")
    port = proxy_url.rsplit(":", 1)[1]
    run = blog("--retries", "0", *GET_P1, env={"http_proxy": proxy_url})
    assert (run.code, run.stdout) == (6, ""), run
    [line] = run.stderr_lines
    assert line.startswith("gqlc: network error: ") and f"port {port}" in line, line


def test_ctrl_c_ends_an_in_flight_request(start_appsync, schema_examples_dir):
    # The server would answer after 10 minutes: if gqlc exits at all, it cancelled the request.
    server = start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                           args=("--verbose", "--latency-ms", "600000"))
    command = [str(GQLC_BIN), "--schema", str(schema_examples_dir / "blog.json"), "--endpoint", server.url,
               "--verbose", *GET_P1]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=gqlc_env())
    try:
        seen = []
        for raw in process.stderr:
            seen.append(raw.decode())
            if raw.startswith(b"> POST "):
                break
        assert seen and seen[-1].startswith("> POST "), seen
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, stderr
    assert stdout == b""
    assert stderr.decode().splitlines()[-1] == "gqlc: cancelled"
    assert served(server) == []


def test_pages_share_one_kept_alive_connection(start_appsync, schema_examples_dir, tmp_path, gqlc):
    seed = tmp_path / "seed.json"
    posts = [{"id": f"post-{i:03d}", "blogId": "blog-bulk", "title": f"Bulk post {i}"} for i in range(250)]
    seed.write_text(json.dumps({"Blog": [{"id": "blog-bulk", "name": "Bulk"}], "Post": posts}))
    server = start_appsync(schema_examples_dir / "blog.json", seed=seed, args=("--verbose",))
    run = gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url,
               "list", "Post", "--page-size", "20")
    assert run.code == 0, run
    assert len(run.json()) == 250
    clients = [line.split()[1] for line in served(server)]
    assert len(clients) == 13 and len(set(clients)) == 1, clients


def test_without_libcurl_a_request_fails_in_one_line_and_nothing_else_needs_it(blog):
    env = {"GQLC_LIBCURL": "/nonexistent/libcurl.so.4"}
    run = blog(*GET_P1, env=env)
    assert (run.code, run.stdout) == (6, ""), run
    [line] = run.stderr_lines
    assert line == ("gqlc: libcurl could not be loaded (/nonexistent/libcurl.so.4: cannot open shared object file: "
                    "No such file or directory); gqlc needs libcurl 7.x or 8.x to send requests")
    dry = blog("--dry-run", *GET_P1, env=env)
    assert dry.code == 0 and dry.stderr == "", dry


def test_the_request_asks_for_gzip_and_keeps_an_empty_header(start_appsync, schema_examples_dir, gqlc):
    # libcurl reads a header line "Name:" as "remove Name"; an empty value given by -H must still be sent.
    server = start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                           record_requests=True)
    run = gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, "-H", "X-Empty:", *GET_P1)
    assert run.code == 0, run
    headers = server.headers()
    assert headers["x-empty"] == ""
    assert headers["accept-encoding"] == "gzip"
    assert "expect" not in headers and "transfer-encoding" not in headers
