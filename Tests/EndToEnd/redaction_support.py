"""Helpers, constants and fixtures of test_redaction.py, shared with other test modules."""

from __future__ import annotations
import json
from dataclasses import dataclass, field
import pytest
import harness


MASK = "████"


SCHEMA_EXAMPLES = harness.REPO_ROOT / "schema-examples"


@dataclass(frozen=True)
class Source:
    """One way of giving a secret to gqlc."""

    name: str
    secret: str
    header: str  # the header it is sent in
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    config: str | None = None  # "outputs" (amplify_outputs.json) or "legacy" (amplifyconfiguration.json)

    @property
    def is_api_key(self) -> bool:
        return self.header == "x-api-key"


SOURCES = [
    Source("flag-api-key", "da2-flagQv7xKp2mWz9LrT4n", "x-api-key", args=("--api-key", "da2-flagQv7xKp2mWz9LrT4n")),
    Source("env-api-key", "da2-envHs3dYb8cNq1ZuF6j", "x-api-key", env={"GQLC_API_KEY": "da2-envHs3dYb8cNq1ZuF6j"}),
    Source("flag-auth-token", "eyJflagTok.Pm4Rw8Yx2.sigVb7", "Authorization",
           args=("--auth-token", "eyJflagTok.Pm4Rw8Yx2.sigVb7")),
    Source("env-auth-token", "eyJenvTok.Gh5Jk9Lm3.sigQs1", "Authorization",
           env={"GQLC_AUTH_TOKEN": "eyJenvTok.Gh5Jk9Lm3.sigQs1"}),
    Source("header-token", "hdrTokN6bV2cX8zA4sD0fG", "x-secret-token", args=("-H", "x-secret-token: hdrTokN6bV2cX8zA4sD0fG")),
    Source("amplify-outputs", "da2-fileWe5Rt7Yu1Io3Pa9S", "x-api-key", config="outputs"),
    Source("legacy-config", "da2-legacyDf4Gh6Jk8Lz0X", "x-api-key", config="legacy"),
]


def assert_no_leak(source: Source, text: str) -> None:
    """Neither the secret nor the part of it that redaction hides appears in ``text``."""
    assert source.secret not in text
    hidden = source.secret[4:]
    for start in range(0, len(hidden) - 7):
        assert hidden[start:start + 8] not in text, f"a part of the secret leaked: {hidden[start:start + 8]!r}"


def redacted_header_line(source: Source) -> str:
    return f"> {source.header}: {source.secret[:4]}…{MASK}"


@pytest.fixture
def run_with(gqlc, tmp_path):
    """``run_with(source, endpoint, *args)`` runs gqlc --verbose with the secret given the source's way."""
    def run(source: Source, endpoint: str, *args: str):
        mis = json.loads((SCHEMA_EXAMPLES / "blog.json").read_text())
        if source.config == "outputs":
            schema = tmp_path / "amplify_outputs.json"
            schema.write_text(json.dumps({"version": "1.3", "data": {
                "url": endpoint, "aws_region": "eu-west-1", "api_key": source.secret,
                "default_authorization_type": "API_KEY", "authorization_types": [], "model_introspection": mis}}))
            location = ()  # the endpoint comes from the file too
        elif source.config == "legacy":
            schema = tmp_path / "amplifyconfiguration.json"
            schema.write_text(json.dumps({
                "aws_appsync_graphqlEndpoint": endpoint, "aws_appsync_region": "eu-west-1",
                "aws_appsync_authenticationType": "API_KEY", "aws_appsync_apiKey": source.secret,
                "modelIntrospection": mis}))
            location = ()
        else:
            schema = SCHEMA_EXAMPLES / "blog.json"
            location = ("--endpoint", endpoint)
        return gqlc("--schema", schema, *location, "--verbose", *source.args, *args, env=source.env)
    return run


@pytest.fixture(scope="module")
def servers():
    """Servers shared by the module's tests, started on demand: ``servers(key, *flags)``."""
    started: dict[tuple, harness.ServerHandle] = {}

    def get(api_key: str | None, *flags: str) -> harness.ServerHandle:
        key = (api_key, flags)
        if key not in started:
            started[key] = harness.start_server(SCHEMA_EXAMPLES / "blog.json", seed=SCHEMA_EXAMPLES / "blog-seed.json",
                                                args=flags, api_key=api_key)
        return started[key]
    yield get
    for server in started.values():
        server.stop()


GET = ("get", "Post", "--id", "p1")


BY_NAME = {source.name: source for source in SOURCES}


ids = [source.name for source in SOURCES]


ECHO = "${headers}"


ECHO_PAGE = f"<html><head><title>Denied {ECHO}</title></head><body>key {ECHO}</body></html>"


ECHO_REPLIES = {
    "html-502": (502, "text/html; charset=utf-8", ECHO_PAGE, ()),
    "html-200": (200, "text/html; charset=utf-8", ECHO_PAGE, ()),
    "text-200": (200, "text/plain", f"bad header x-api-key={ECHO}\n", ()),
    "json-403": (403, "application/json", json.dumps({"errors": [{"errorType": "Forbidden", "message": f"key {ECHO} denied"}]}), ()),
    "json-400": (400, "application/json", json.dumps({"message": f"Invalid key={ECHO}"}), ()),
    "graphql-error": (200, "application/json", json.dumps({"data": None, "errors": [{"message": f"no access for {ECHO}"}]}), ()),
    "not-graphql": (200, "application/json", json.dumps({ECHO: True}), ()),
    "retry-after": (429, "application/json", "{}", (f"Retry-After: {ECHO}",)),
}


@pytest.fixture(scope="module")
def echoing(tmp_path_factory):
    """``echoing(case)``: a server (one per case, shared) answering every request with that echoing reply."""
    started: dict[str, harness.ServerHandle] = {}
    directory = tmp_path_factory.mktemp("replies")

    def get(case: str) -> harness.ServerHandle:
        if case not in started:
            status, content_type, body, headers = ECHO_REPLIES[case]
            (directory / case).write_text(body)
            flags = ["--reply-status", str(status), "--reply-content-type", content_type, "--reply-body", str(directory / case)]
            for header in headers:
                flags += ["--reply-header", header]
            started[case] = harness.start_server(SCHEMA_EXAMPLES / "blog.json", args=flags, record_requests=True)
        return started[case]
    yield get
    for server in started.values():
        server.stop()
