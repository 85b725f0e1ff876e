"""`gqlc login`, `whoami`, `logout` and user-pool auth end to end, against real servers only:

- Cognito is moto-local with ``--verify-srp`` (moto, a Cognito we did not write, made to check SRP proofs for real:
  a wrong password fails);
- the API is appsync-local with ``--user-pool-id``/``--jwks-url``: it verifies each JWT's RS256 signature with
  moto's keys, ``exp`` against a clock the test moves (``--clock-file``), ``iss`` and ``token_use``, and enforces
  the models' owner rules as AppSync does."""

from __future__ import annotations
import base64
import json
import os
import stat
import time
import pytest
from gqlc_runner import run_gqlc
from subscribe_support import Background
from moto_harness import start_moto  # noqa: E402
from login_support import (  # noqa: F401 - fixtures among them
    PASSWORD,
    API_KEY,
    _field,
    _model,
    OWNER_RULE,
    PUBLIC_RULE,
    PRIVATE_RULE,
    MODELS,
    moto,
    App,
    _mis_file,
    _claims,
    app,
    _expire_on_server,
    app_terminal,
)


def test_login_with_srp_then_owner_records_are_the_users_own(app):
    ann = app.user("ann@example.com")
    login = app.login("ann@example.com")
    assert (login.code, login.stdout) == (0, ""), login
    assert login.stderr_lines == [f"Signed in as ann@example.com to {app.pool}; tokens stored in {app.token_file}"]
    created = app.gqlc("create", "Todo", "content=buy milk")
    assert created.code == 0, created
    assert created.json()["owner"] == ann
    # The raw access token goes in Authorization (no "Bearer"), as AppSync wants it.
    sent = app.server.headers()
    assert sent["authorization"] == app.stored()["accessToken"]
    assert _claims(sent["authorization"])["token_use"] == "access"
    assert "x-api-key" not in sent

    app.user("bob@example.com")
    bob_env = {"XDG_CONFIG_HOME": str(app.home / "bob")}
    assert app.login("bob@example.com", env=bob_env).code == 0
    assert app.gqlc("create", "Todo", "content=bob's", env=bob_env).code == 0
    mine = app.gqlc("list", "Todo")
    assert [item["content"] for item in mine.json()] == ["buy milk"], mine
    theirs = app.gqlc("list", "Todo", env=bob_env)
    assert [item["content"] for item in theirs.json()] == ["bob's"], theirs
    refused = app.gqlc("get", "Todo", "--id", created.json()["id"], env=bob_env)
    assert refused.code == 1, refused
    assert "Not Authorized to access getTodo on type Query" in refused.stderr
    # --token-use id sends the ID token instead.
    assert app.gqlc("--token-use", "id", "list", "Todo").code == 0
    assert _claims(app.server.headers()["authorization"])["token_use"] == "id"


def test_a_wrong_password_is_cognitos_refusal_exit_5_and_stores_nothing(app):
    app.user("ann@example.com")
    run = app.login("ann@example.com", stdin="Not-The-Passw0rd!\n")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr_lines == ["gqlc: Incorrect username or password. (NotAuthorizedException)"]
    assert "Not-The-Passw0rd" not in run.stderr
    assert not app.token_file.exists()
    unknown = app.login("nobody@example.com")
    assert unknown.code == 5 and "UserNotFoundException" in unknown.stderr, unknown


def test_the_user_pool_comes_from_flags_variables_or_a_legacy_config_and_tokens_default_to_dot_config(app, tmp_path):
    app.user("ann@example.com")
    # A file without an auth section: the flags name the pool; an empty XDG_CONFIG_HOME means ~/.config.
    bare = tmp_path / "bare.json"
    outputs = json.loads(app.outputs.read_text())
    del outputs["auth"]
    bare.write_text(json.dumps(outputs))
    env = {**app.env, "GQLC_COGNITO_ENDPOINT": "", "XDG_CONFIG_HOME": ""}
    missing = run_gqlc(["--schema", bare, "login", "--username", "ann@example.com", "--password-stdin"],
                       env=env, stdin=PASSWORD + "\n")
    assert (missing.code, missing.stderr_lines) == (2, [
        f"gqlc: no Cognito user pool id: {bare} has no auth.user_pool_id; pass --user-pool-id and --client-id (or set "
        "GQLC_USER_POOL_ID and GQLC_CLIENT_ID)"]), missing
    flags = ("--user-pool-id", app.pool, "--client-id", app.client_id, "--cognito-endpoint", app.env["GQLC_COGNITO_ENDPOINT"])
    run = run_gqlc(["--schema", bare, "login", *flags, "--username", "ann@example.com", "--password-stdin"],
                   env=env, stdin=PASSWORD + "\n")
    assert run.code == 0, run
    stored = app.home / ".config" / "gqlc" / "tokens.json"
    assert f"{app.pool}/{app.client_id}" in json.loads(stored.read_text())["signIns"]
    by_variables = {**env, "GQLC_USER_POOL_ID": app.pool, "GQLC_CLIENT_ID": app.client_id,
                    "GQLC_COGNITO_ENDPOINT": app.env["GQLC_COGNITO_ENDPOINT"]}
    assert run_gqlc(["--schema", bare, "whoami"], env=by_variables).code == 0
    # A Gen 1 amplifyconfiguration.json names the pool with its legacy keys.
    legacy = tmp_path / "amplifyconfiguration.json"
    legacy.write_text(json.dumps({
        "aws_appsync_graphqlEndpoint": app.server.url, "aws_appsync_region": "us-east-1",
        "aws_appsync_authenticationType": "AMAZON_COGNITO_USER_POOLS", "aws_user_pools_id": app.pool,
        "aws_user_pools_web_client_id": app.client_id, "aws_cognito_region": "us-east-1",
        "modelIntrospection": outputs["data"]["model_introspection"]}))
    whoami = run_gqlc(["--schema", legacy, "whoami"], env=env)
    assert whoami.code == 0 and json.loads(whoami.stdout)["signedInAs"] == "ann@example.com", whoami
    assert run_gqlc(["--schema", legacy, "create", "Todo", "content=gen1"], env=env).code == 0


def test_password_stdin_needs_the_username_and_never_takes_the_password_for_it(app):
    app.user("ann@example.com")
    run = app.gqlc("login", "--password-stdin", stdin=PASSWORD + "\n")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines == ["gqlc: --password-stdin needs --username NAME: standard input holds the password"]
    assert not app.token_file.exists()


def test_password_auth_works_only_where_the_client_allows_it(app):
    app.user("ann@example.com")
    # Amplify's clients allow SRP, refresh and custom auth only: Cognito's refusal, with what to do instead.
    refused = app.gqlc("login", "--username", "ann@example.com", "--password-stdin", "--password-auth",
                       stdin=PASSWORD + "\n")
    assert (refused.code, refused.stderr_lines) == (5, [
        "gqlc: USER_PASSWORD_AUTH flow not enabled for this client (InvalidParameterException); sign in with SRP "
        "(leave out the password-auth option)"]), refused
    allowing = app.cognito.create_user_pool_client(
        UserPoolId=app.pool, ClientName="cli", ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
    )["UserPoolClient"]["ClientId"]
    run = app.gqlc("login", "--client-id", allowing, "--username", "ann@example.com", "--password-stdin",
                   "--password-auth", stdin=PASSWORD + "\n")
    assert run.code == 0, run
    assert f"{app.pool}/{allowing}" in json.loads(app.token_file.read_text())["signIns"]
    assert app.gqlc("whoami", "--client-id", allowing).code == 0


def test_a_client_with_a_secret_gets_its_secret_hash(app):
    app.user("ann@example.com")
    created = app.cognito.create_user_pool_client(UserPoolId=app.pool, ClientName="native", GenerateSecret=True)
    client_id, secret = created["UserPoolClient"]["ClientId"], created["UserPoolClient"]["ClientSecret"]
    without = app.gqlc("login", "--client-id", client_id, "--username", "ann@example.com", "--password-stdin",
                       stdin=PASSWORD + "\n")
    assert without.code == 5 and "NotAuthorizedException" in without.stderr, without
    run = app.gqlc("login", "--client-id", client_id, "--username", "ann@example.com", "--password-stdin",
                   stdin=PASSWORD + "\n", env={"GQLC_CLIENT_SECRET": secret})
    assert run.code == 0, run
    assert secret not in run.stdout + run.stderr


def test_an_admin_created_user_sets_a_new_password(app):
    app.cognito.admin_create_user(UserPoolId=app.pool, Username="carl@example.com", TemporaryPassword="Temp-Passw0rd!1",
                                  MessageAction="SUPPRESS",
                                  UserAttributes=[{"Name": "email", "Value": "carl@example.com"}])
    first = app.login("carl@example.com", stdin="Temp-Passw0rd!1\nBrand-New-Passw0rd!\n")
    assert first.code == 0, first
    again = app.login("carl@example.com", stdin="Brand-New-Passw0rd!\n")
    assert again.code == 0, again
    assert app.login("carl@example.com", stdin="Temp-Passw0rd!1\n").code == 5
    ended = app.login("carl@example.com", stdin="Brand-New-Passw0rd!\n", env={"XDG_CONFIG_HOME": str(app.home / "x")})
    assert ended.code == 0


def test_an_mfa_code_is_asked_for(app):
    app.user("dana@example.com", phone=True)
    app.cognito.admin_set_user_mfa_preference(UserPoolId=app.pool, Username="dana@example.com",
                                             SMSMfaSettings={"Enabled": True, "PreferredMfa": True})
    without_code = app.login("dana@example.com")
    assert without_code.code == 2 and "standard input ended before the code (SMS_MFA)" in without_code.stderr, without_code
    with_code = app.login("dana@example.com", stdin=PASSWORD + "\n123456\n")
    assert with_code.code == 0, with_code
    assert app.gqlc("list", "Todo").code == 0


def test_an_authenticator_code_is_asked_for(app):
    app.cognito.set_user_pool_mfa_config(UserPoolId=app.pool, MfaConfiguration="OPTIONAL",
                                         SoftwareTokenMfaConfiguration={"Enabled": True})
    app.user("erin@example.com")
    assert app.login("erin@example.com").code == 0
    access = app.stored()["accessToken"]
    app.cognito.associate_software_token(AccessToken=access)
    app.cognito.verify_software_token(AccessToken=access, UserCode="123456")
    app.cognito.admin_set_user_mfa_preference(UserPoolId=app.pool, Username="erin@example.com",
                                             SoftwareTokenMfaSettings={"Enabled": True, "PreferredMfa": True})
    without_code = app.login("erin@example.com")
    assert without_code.code == 2, without_code
    assert "standard input ended before the code (SOFTWARE_TOKEN_MFA)" in without_code.stderr, without_code
    assert app.login("erin@example.com", stdin=PASSWORD + "\n123456\n").code == 0


def test_a_challenge_gqlc_cannot_answer_is_refused_with_its_name(app):
    # A pool that requires MFA asks an admin-created user to set it up after the new password: MFA_SETUP.
    app.cognito.set_user_pool_mfa_config(UserPoolId=app.pool, MfaConfiguration="ON",
                                         SoftwareTokenMfaConfiguration={"Enabled": True})
    app.cognito.admin_create_user(UserPoolId=app.pool, Username="finn@example.com", TemporaryPassword="Temp-Passw0rd!1",
                                  MessageAction="SUPPRESS",
                                  UserAttributes=[{"Name": "email", "Value": "finn@example.com"}])
    run = app.login("finn@example.com", stdin="Temp-Passw0rd!1\nBrand-New-Passw0rd!\n")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr_lines == ["gqlc: the user pool asks for the MFA_SETUP challenge, which gqlc cannot answer; "
                                "complete it in the app (or the Cognito console), then sign in again"], run
    assert not app.token_file.exists()


def test_an_expired_token_is_refreshed_and_the_request_sent_again(app):
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    old = app.stored()
    expiry = _expire_on_server(app)
    run = app.gqlc("--verbose", "list", "Todo")
    assert run.code == 0, run
    assert any(line.startswith("< HTTP 401") for line in run.stderr_lines), run
    assert "* refreshing the user-pool tokens (REFRESH_TOKEN_AUTH)" in run.stderr_lines
    new = app.stored()
    assert new["accessToken"] != old["accessToken"] and _claims(new["accessToken"])["exp"] > expiry
    assert new["refreshToken"] == old["refreshToken"]  # REFRESH_TOKEN_AUTH returns none; the old one is kept
    assert old["accessToken"] not in run.stderr and new["accessToken"] not in run.stderr


def test_a_token_about_to_expire_is_refreshed_before_sending(moto, start_appsync, tmp_path):
    app = App(moto, start_appsync, tmp_path, token_minutes=5)  # Cognito's shortest lifetime; gqlc's margin is 5 min
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    old = app.stored()
    assert _claims(old["accessToken"])["exp"] - _claims(old["accessToken"])["iat"] == 300
    while int(time.time()) <= _claims(old["accessToken"])["iat"]:  # less than 5 minutes left now
        time.sleep(0.05)
    run = app.gqlc("--verbose", "list", "Todo")
    assert run.code == 0, run
    assert "* refreshing the user-pool tokens (REFRESH_TOKEN_AUTH)" in run.stderr_lines
    # The status lines only: " 401" can be a size or a time in the trace ("< HTTP 200 (980 bytes in 401 ms)").
    assert not any(line.startswith("< HTTP 401") for line in run.stderr_lines), run
    assert app.server.headers()["authorization"] == app.stored()["accessToken"] != old["accessToken"]


def test_a_refresh_token_that_is_no_longer_valid_says_login_again(app):
    sub = app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    # Revokes the refresh token (moto matches the internal user name, the sub, here).
    app.cognito.admin_user_global_sign_out(UserPoolId=app.pool, Username=sub)
    _expire_on_server(app)
    run = app.gqlc("get", "Todo", "--id", "t1")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr_lines[0] == ("gqlc: the stored sign-in can no longer be refreshed (Refresh Token has been "
                                   "revoked); run gqlc login again")


def test_whoami_shows_the_user_and_never_a_token(app):
    sub = app.user("ann@example.com", groups=("admins",))
    not_yet = app.gqlc("whoami")
    assert (not_yet.code, not_yet.stderr_lines) == (5, ["gqlc: not signed in to this user pool; run gqlc login"])
    assert app.login("ann@example.com").code == 0
    run = app.gqlc("whoami")
    assert run.code == 0, run
    shown = run.json()
    assert {key: shown[key] for key in ("username", "signedInAs", "sub", "groups", "userPoolId", "expired")} == {
        "username": sub, "signedInAs": "ann@example.com", "sub": sub, "groups": ["admins"], "userPoolId": app.pool,
        "expired": False}
    # The ID token's email claim (moto writes the internal user name there after SRP; Cognito the address).
    assert shown["email"] == _claims(app.stored()["idToken"])["email"]
    stored = app.stored()
    for token in (stored["accessToken"], stored["idToken"], stored["refreshToken"]):
        assert token not in run.stdout + run.stderr


def test_logout_forgets_the_tokens(app):
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    refresh_token = app.stored()["refreshToken"]
    run = app.gqlc("logout")
    assert run.code == 0, run
    assert run.stderr_lines == [f"Signed out of {app.pool}"]
    assert json.loads(app.token_file.read_text())["signIns"] == {}
    # The refresh token was revoked at Cognito, not only forgotten here.
    with pytest.raises(Exception, match="NotAuthorizedException"):
        app.cognito.initiate_auth(ClientId=app.client_id, AuthFlow="REFRESH_TOKEN_AUTH",
                                  AuthParameters={"REFRESH_TOKEN": refresh_token})
    after = app.gqlc("list", "Todo")
    assert after.code == 5 and "not signed in to this user pool; run gqlc login" in after.stderr, after


def test_the_token_file_is_private_and_refused_when_others_can_read_it(app):
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    assert stat.S_IMODE(app.token_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(app.token_file.parent.stat().st_mode) == 0o700
    os.chmod(app.token_file, 0o644)
    run = app.gqlc("whoami")
    assert run.code == 2, run
    assert run.stderr_lines == [f"gqlc: the token file {app.token_file} can be read by other users (mode 644); "
                                f"fix it with: chmod 600 {app.token_file}"]


def test_multi_auth_picks_api_key_for_a_public_model_and_user_pool_for_an_owner_model(moto, start_appsync, tmp_path):
    app = App(moto, start_appsync, tmp_path, default_type="API_KEY", additional=("AMAZON_COGNITO_USER_POOLS",))
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    notice = app.gqlc("--verbose", "create", "Notice", "content=hello")
    assert notice.code == 0, notice
    assert any(line.startswith("* auth mode: apiKey (") for line in notice.stderr_lines), notice
    assert app.server.headers()["x-api-key"] == API_KEY
    todo = app.gqlc("--verbose", "create", "Todo", "content=mine")
    assert todo.code == 0, todo
    assert any(line.startswith("* auth mode: userPool (") for line in todo.stderr_lines), todo
    assert app.server.headers()["authorization"] == app.stored()["accessToken"]
    # The server enforces the rules: an API key may not touch the owner model.
    forced = app.gqlc("--auth-mode", "apiKey", "list", "Todo")
    assert forced.code == 1 and "Not Authorized to access listTodos on type Query" in forced.stderr, forced
    clash = app.gqlc("--auth-mode", "userPool", "--api-key", API_KEY, "list", "Notice")
    assert (clash.code, clash.stderr_lines) == (2, ["gqlc: --auth-mode userPool does not use --api-key; leave out one "
                                                    "of them"]), clash
    # A model whose rules allow none of the configured modes is refused before sending.
    before = len(app.server.requests())
    audit = app.gqlc("list", "Audit")
    assert (audit.code, audit.stdout) == (2, ""), audit
    assert audit.stderr_lines == [
        f"gqlc: Audit's auth rules allow private (iam), but {app.outputs} configures only apiKey, userPool; "
        "pass --auth-mode to choose one anyway"]
    assert len(app.server.requests()) == before


def test_an_unreachable_cognito_is_a_network_failure(app):
    from gqlc_runner import closed_port_url

    run = app.gqlc("login", "--username", "ann@example.com", "--password-stdin", stdin=PASSWORD + "\n",
                   env={"GQLC_COGNITO_ENDPOINT": closed_port_url()})
    assert (run.code, run.stdout) == (6, ""), run
    assert len(run.stderr_lines) == 1 and run.stderr_lines[0].startswith("gqlc: Cognito: "), run


def test_the_password_is_asked_for_on_the_terminal_without_echo(app):
    app.user("ann@example.com")
    terminal = app_terminal(app, "login")
    terminal.read_until(b"Username: ")
    terminal.type("ann@example.com\n")
    terminal.read_until(b"Password: ")
    terminal.type(PASSWORD + "\n")
    terminal.read_until(b"Signed in as ann@example.com")
    assert terminal.exit_code() == 0, terminal.seen
    assert b"ann@example.com" in terminal.seen  # the user name is echoed
    assert PASSWORD.encode() not in terminal.seen
    assert app.stored()["accessToken"]


def test_ctrl_c_at_the_password_prompt_stops_login(app):
    terminal = app_terminal(app, "login", "--username", "ann@example.com")
    terminal.read_until(b"Password: ")
    terminal.type("\x03")
    terminal.read_until(b"gqlc: interrupted")
    assert terminal.exit_code() == 130, terminal.seen
    assert not app.token_file.exists()


def test_a_forged_token_is_refused_by_the_server(app):
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    header, payload, signature = app.stored()["accessToken"].split(".")
    claims = _claims(app.stored()["accessToken"])
    claims["username"] = "someone-else"
    forged_payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    run = app.gqlc("--auth-token", f"{header}.{forged_payload}.{signature}", "list", "Todo")
    assert run.code == 5, run
    assert "HTTP 401" in run.stderr and "UnauthorizedException: You are not authorized to make this call." in run.stderr


@pytest.mark.slow
def test_subscribe_picks_the_models_mode_and_renews_an_expired_token_when_it_connects_again(moto, start_appsync,
                                                                                             tmp_path):
    # Board allows signed-in users and the API key; the file's default is the API key. Each connection carries one
    # event (--ws-drop-after 1), and the token expires on the server while the first connection is up.
    app = App(moto, start_appsync, tmp_path, default_type="API_KEY", additional=("AMAZON_COGNITO_USER_POOLS",),
              server_args=("--ws-drop-after", "1"))
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    old = app.stored()
    watch = Background(["--schema", app.outputs, "--verbose", "subscribe", "Board", "--on", "create", "--count", "2"],
                       env=app.env)
    try:
        watch.subscribed("onCreateBoard")
        assert any(line.startswith("* auth mode: userPool (the first of Board's rules") for line in watch.stderr_seen)
        expiry = _expire_on_server(app)
        assert app.gqlc("--auth-mode", "apiKey", "create", "Board", "content=one").code == 0
        assert watch.event()["content"] == "one"
        watch.subscribed("onCreateBoard")
        assert app.gqlc("--auth-mode", "apiKey", "create", "Board", "content=two").code == 0
        assert watch.event()["content"] == "two"
        code, _, stderr = watch.finish()
    finally:
        watch.kill()
    assert code == 0, stderr
    assert "* refreshing the user-pool tokens (REFRESH_TOKEN_AUTH)" in stderr.splitlines()
    new = app.stored()
    assert new["accessToken"] != old["accessToken"] and _claims(new["accessToken"])["exp"] > expiry
    assert old["accessToken"] not in stderr and new["accessToken"] not in stderr
    # The server refused the old token on the second connection and took the renewed one on the same attempt.
    log = app.server.stderr_text()
    assert "connection 2 refused: UnauthorizedException" in log and "connection 3 acknowledged" in log, log


def test_a_user_pool_token_the_server_refuses_hints_at_logging_in_again(app):
    app.user("ann@example.com")
    assert app.login("ann@example.com").code == 0
    app.clock.write_text(str(int(time.time()) + 86400))  # for the server every token has expired, even a refreshed one
    run = app.gqlc("get", "Todo", "--id", "t1")
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr_lines == ["gqlc: HTTP 401 Unauthorized: UnauthorizedException: Token has expired.; the user-pool "
                                "sign-in was not accepted; run gqlc login again, and check that the API allows "
                                "user-pool auth"], run
