"""User-pool tokens renewed in the middle of a command, and model auth rules on subscriptions, against real servers
(moto-local as Cognito, appsync-local verifying the JWTs and enforcing the rules as AppSync's generated resolvers do):

- every token gqlc obtains or renews is redacted for the rest of the process, even when a server echoes it;
- a subscription start refused as unauthorized is started again once with a renewed token; a second refusal is
  reported with the subscription's name and the server's words;
- appsync-local refuses subscriptions a model's rules do not allow and gives owner-only subscribers their own
  records only, so the multi-auth choice of `subscribe` is proven against a server that refuses.
"""

from __future__ import annotations

import json
import time

import pytest

from login_support import App, _claims, _expire_on_server, moto  # noqa: F401 - moto is a fixture
from subscribe_support import Background

MASK = "████"


def assert_never_printed(token: str, text: str) -> None:
    """Neither the token nor any 8 characters of what redaction hides (all but its first four) appear."""
    assert token not in text
    hidden = token[4:]
    for start in range(0, len(hidden) - 7, 4):
        assert hidden[start:start + 8] not in text, f"a part of a token leaked: {hidden[start:start + 8]!r}"


def _hears_a_create(app: App, model: str, subscribe_args: tuple[str, ...] = (),
                    create_args: tuple[str, ...] = ()) -> str:
    """Subscribes to ``model``'s creates for one event, creates a record, checks the event and a clean exit, and
    returns the subscriber's stderr."""
    watch = Background(["--schema", app.outputs, *subscribe_args, "subscribe", model, "--on", "create", "--count", "1"],
                       env=app.env)
    try:
        watch.subscribed(f"onCreate{model}")
        assert app.gqlc(*create_args, "create", model, "content=heard").code == 0
        assert watch.event()["content"] == "heard"
        code, stdout, stderr = watch.finish()
    finally:
        watch.kill()
    assert (code, stdout) == (0, ""), stderr
    return stderr


def _wait_for_a_later_token(app: App) -> dict:
    """The stored sign-in, once a refresh would issue a token that differs from it (a later iat)."""
    stored = app.stored()
    while int(time.time()) <= _claims(stored["accessToken"])["iat"]:
        time.sleep(0.05)
    return stored


@pytest.mark.slow
@pytest.mark.parametrize("served", [3, 4], ids=["the-request-sent-again", "the-next-page"])
def test_a_token_refreshed_during_a_paged_listing_is_never_printed(moto, start_appsync, tmp_path, served):
    # Requests 1 and 2 are the creates; the listing's first page (3) is refused as expired, gqlc refreshes and sends
    # it again (4), then asks for the next page (5). After `served` requests, a broken proxy answers instead with a
    # page that echoes the request's headers, the renewed token among them.
    echo = tmp_path / "echo.html"
    echo.write_text("<html><body>denied ${headers}</body></html>")
    app = App(moto, start_appsync, tmp_path, server_args=(
        "--reply-after", str(served), "--reply-status", "502", "--reply-content-type", "text/html",
        "--reply-body", str(echo), "--reply-header", "X-Echo: ${headers}"))
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    for content in ("one", "two"):
        assert app.gqlc("create", "Todo", f"content={content}").code == 0
    old = app.stored()
    _expire_on_server(app)
    run = app.gqlc("--verbose", "--retries", "1", "list", "Todo", "--page-size", "1")
    assert run.code == 5, run
    assert "* refreshing the user-pool tokens (REFRESH_TOKEN_AUTH)" in run.stderr_lines
    new = app.stored()
    assert new["accessToken"] != old["accessToken"]
    # The pages served are printed; with none, nothing is (not even an empty array).
    assert (len(json.loads(run.stdout)) if run.stdout else 0) == served - 3
    assert run.stdout != "" or served == 3
    assert any(line.startswith("gqlc: HTTP 502 Bad Gateway: denied ") for line in run.stderr_lines), run
    assert any(line.startswith("< X-Echo: ") for line in run.stderr_lines), run
    # The proxy saw the renewed token (the next page too: it is not refused and refreshed again), and echoed it.
    assert dict(app.server.requests()[-1]["headers"])["Authorization"] == new["accessToken"]
    assert run.stderr.count("* refreshing the user-pool tokens") == 1
    for token in (old["accessToken"], new["accessToken"]):
        assert_never_printed(token, run.stdout + run.stderr)


def test_a_start_refused_as_unauthorized_is_started_again_with_a_renewed_token(moto, start_appsync, tmp_path):
    app = App(moto, start_appsync, tmp_path, server_args=("--ws-refuse-starts", "1"))
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    old = _wait_for_a_later_token(app)
    stderr = _hears_a_create(app, "Todo", ("--verbose",))
    assert "* refreshing the user-pool tokens (REFRESH_TOKEN_AUTH)" in stderr.splitlines()
    log = app.server.stderr_text()
    assert "connection 1 refused" in log and "connection 1 started" in log, log
    assert "connection 2" not in log, log  # the same connection: only that subscription was started again
    new = app.stored()
    assert new["accessToken"] != old["accessToken"]
    for token in (old["accessToken"], new["accessToken"]):
        assert_never_printed(token, stderr)


@pytest.mark.slow
def test_a_start_refused_again_after_renewal_is_reported_and_no_token_is_printed(moto, start_appsync, tmp_path):
    # The server repeats the token it was given in its refusals: the first one, then the renewed one.
    app = App(moto, start_appsync, tmp_path, server_args=("--ws-refuse-starts", "2", "--ws-echo-auth"))
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    old = _wait_for_a_later_token(app)
    run = app.gqlc("--verbose", "subscribe", "Todo", "--on", "create", "--count", "1")
    assert (run.code, run.stdout) == (5, ""), run
    assert "* refreshing the user-pool tokens (REFRESH_TOKEN_AUTH)" in run.stderr_lines
    errors = [line for line in run.stderr_lines if line.startswith("gqlc: ")]
    assert len(errors) == 1, run
    assert errors[0].startswith("gqlc: subscription onCreateTodo failed: UnauthorizedException: Token has expired."), run
    assert errors[0].endswith("run gqlc login again, and check that the API allows user-pool auth"), run
    new = app.stored()
    assert new["accessToken"] != old["accessToken"]
    assert app.server.stderr_text().count("refused") == 2
    for token in (old["accessToken"], new["accessToken"]):
        assert_never_printed(token, run.stdout + run.stderr)


def test_a_refresh_that_fails_during_a_subscription_is_the_one_line_reported(moto, start_appsync, tmp_path):
    # The server refuses the first start as unauthorized; the refresh token was revoked, so the renewal fails.
    app = App(moto, start_appsync, tmp_path, server_args=("--ws-refuse-starts", "1"))
    sub = app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    app.cognito.admin_user_global_sign_out(UserPoolId=app.pool, Username=sub)
    run = app.gqlc("subscribe", "Todo", "--on", "create", "--count", "1")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr_lines == ["gqlc: the stored sign-in can no longer be refreshed (Refresh Token has been revoked); "
                                "run gqlc login again"], run


def test_an_owner_only_subscriber_hears_only_their_own_records(moto, start_appsync, tmp_path):
    app = App(moto, start_appsync, tmp_path)
    app.user("ann@example.com")
    app.user("bob@example.com")
    bob_home = {"XDG_CONFIG_HOME": str(tmp_path / "bob")}
    assert app.login("bob@example.com", env=bob_home).code == 0
    assert app.login("ann@example.com").code == 0
    watch = Background(["--schema", app.outputs, "subscribe", "Todo", "--on", "create", "--count", "1"], env=app.env)
    try:
        watch.subscribed("onCreateTodo")
        assert app.gqlc("create", "Todo", "content=bobs", env=bob_home).code == 0
        assert app.gqlc("create", "Todo", "content=anns").code == 0
        event = watch.event()
        code, stdout, stderr = watch.finish()
    finally:
        watch.kill()
    assert code == 0, stderr
    assert event["content"] == "anns" and stdout == ""  # bob's record never reached ann


def test_subscribe_takes_the_mode_the_rules_allow_and_the_server_refuses_the_others(moto, start_appsync, tmp_path):
    # Todo: owner rules (user pools) only; Notice: public (API key) only. The file configures both modes.
    app = App(moto, start_appsync, tmp_path)
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    for model, refused_mode in (("Todo", "apiKey"), ("Notice", "userPool")):
        run = app.gqlc("--auth-mode", refused_mode, "subscribe", model, "--on", "create", "--count", "1")
        assert (run.code, run.stdout) == (1, ""), (run, app.server.stderr_text())
        assert run.stderr_lines[-1] == (f"gqlc: subscription onCreate{model} failed: Unauthorized: Not Authorized to "
                                        f"access onCreate{model} on type Subscription"), run
        assert "* refreshing" not in run.stderr  # a rule's refusal is not a token problem
    for model, chosen in (("Todo", "userPool"), ("Notice", "apiKey")):
        stderr = _hears_a_create(app, model, ("--verbose",))
        assert any(line.startswith(f"* auth mode: {chosen} (") for line in stderr.splitlines()), stderr


def test_an_api_key_subscriber_of_a_public_and_private_model_hears_every_record(moto, start_appsync, tmp_path):
    # Board allows the API key and signed-in users (static rules): no owner filtering.
    app = App(moto, start_appsync, tmp_path, default_type="API_KEY", additional=("AMAZON_COGNITO_USER_POOLS",))
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    _hears_a_create(app, "Board", ("--auth-mode", "apiKey"), ("--auth-mode", "userPool"))


def test_a_group_rule_admits_the_groups_members_to_queries_and_subscriptions_and_no_one_else(moto, start_appsync,
                                                                                             tmp_path):
    app = App(moto, start_appsync, tmp_path)
    app.user("ann@example.com", groups=("admins",))
    app.user("bob@example.com")
    bob_home = {"XDG_CONFIG_HOME": str(tmp_path / "bob")}
    assert app.login("ann@example.com").code == 0
    assert app.login("bob@example.com", env=bob_home).code == 0
    refused = app.gqlc("list", "Report", env=bob_home)
    assert refused.code == 1 and "Not Authorized to access listReports on type Query" in refused.stderr, refused
    not_heard = app.gqlc("subscribe", "Report", "--on", "create", "--count", "1", env=bob_home)
    assert not_heard.code == 1, not_heard
    assert not_heard.stderr_lines[-1] == ("gqlc: subscription onCreateReport failed: Unauthorized: Not Authorized to "
                                          "access onCreateReport on type Subscription"), not_heard
    _hears_a_create(app, "Report")
    assert [item["content"] for item in app.gqlc("list", "Report").json()] == ["heard"]
