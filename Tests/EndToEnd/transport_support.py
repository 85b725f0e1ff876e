"""Helpers, constants and fixtures of test_transport.py, shared with other test modules."""

from __future__ import annotations
from dataclasses import dataclass
from pathlib import Path
import pytest
import trustme


GET_P1 = ("get", "Post", "--id", "p1")


NO_CA_VARIABLES = {"CURL_CA_BUNDLE": "", "SSL_CERT_FILE": ""}


P1_TITLE = "A sourdough starter in seven days"


@dataclass
class PKI:
    """A CA and two server certificates it signed: one for 127.0.0.1, one for another host only."""

    ca: Path
    cert: Path
    key: Path
    other_host_cert: Path
    other_host_key: Path


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> PKI:
    """A fresh CA from ``trustme`` (as the WebSocket client tests' server makes its own)."""
    directory = tmp_path_factory.mktemp("pki")
    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(directory / "ca.pem"))

    def server(name: str, *hosts: str) -> tuple[Path, Path]:
        leaf = ca.issue_cert(*hosts)
        leaf.cert_chain_pems[0].write_to_path(str(directory / f"{name}.pem"))
        leaf.private_key_pem.write_to_path(str(directory / f"{name}-key.pem"))
        return directory / f"{name}.pem", directory / f"{name}-key.pem"

    cert, key = server("localhost", "localhost", "127.0.0.1")
    other_cert, other_key = server("other", "other.example")
    return PKI(directory / "ca.pem", cert, key, other_cert, other_key)


@pytest.fixture
def https(start_appsync, schema_examples_dir, pki):
    """``https(cert=, key=)`` starts the seeded blog server over HTTPS (with request logging)."""
    def start(cert: Path | None = None, key: Path | None = None):
        return start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                             args=("--verbose", "--tls-cert", cert or pki.cert, "--tls-key", key or pki.key))
    return start


def served(server) -> list[str]:
    """The server's log lines of answered requests."""
    return [line for line in server.stderr_text().splitlines() if '"POST /graphql' in line]
