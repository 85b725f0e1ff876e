"""Helpers, constants and fixtures of test_login.py, shared with other test modules."""

from __future__ import annotations
import base64
import json
import time
from pathlib import Path
import pytest
from gqlc_runner import Terminal, run_gqlc
from moto_harness import start_moto  # noqa: E402




PASSWORD = "Secret-Passw0rd!"


API_KEY = "da2-logintestkey000000000000"


def _field(name: str, type_: str = "String", required: bool = False) -> dict:
    return {"name": name, "isArray": False, "type": type_, "isRequired": required, "attributes": []}


def _model(name: str, rules: list[dict], owner: bool = False) -> dict:
    fields = {"id": _field("id", "ID", True), "content": _field("content"),
              "createdAt": _field("createdAt", "AWSDateTime", True), "updatedAt": _field("updatedAt", "AWSDateTime", True)}
    if owner:
        fields["owner"] = _field("owner")
    return {"name": name, "fields": fields, "syncable": True, "pluralName": name + "s",
            "attributes": [{"type": "model", "properties": {}}, {"type": "auth", "properties": {"rules": rules}}],
            "primaryKeyInfo": {"isCustomPrimaryKey": False, "primaryKeyFieldName": "id", "sortKeyFieldNames": []}}


OWNER_RULE = {"provider": "userPools", "ownerField": "owner", "allow": "owner", "identityClaim": "cognito:username",
              "operations": ["create", "update", "delete", "read"]}


PUBLIC_RULE = {"allow": "public", "provider": "apiKey", "operations": ["create", "update", "delete", "read"]}


PRIVATE_RULE = {"allow": "private", "provider": "userPools", "operations": ["create", "update", "delete", "read"]}


MODELS = {"Todo": _model("Todo", [OWNER_RULE], owner=True), "Notice": _model("Notice", [PUBLIC_RULE]),
          "Audit": _model("Audit", [{"allow": "private", "provider": "iam", "operations": ["read"]}]),
          "Board": _model("Board", [PUBLIC_RULE, PRIVATE_RULE]),
          "Report": _model("Report", [{"allow": "groups", "groups": ["admins"], "groupClaim": "cognito:groups",
                                      "provider": "userPools", "operations": ["create", "update", "delete", "read"]}])}


@pytest.fixture(scope="module")
def moto():
    with start_moto(["--verify-srp", "--token-validity", "--enforce-auth-flows", "--revoke-token"]) as handle:
        yield handle


class App:
    """One user pool in moto, an appsync-local that trusts it, an amplify_outputs.json naming both, and a home."""

    def __init__(self, moto, start_appsync, tmp_path: Path, default_type: str = "AMAZON_COGNITO_USER_POOLS",
                 additional: tuple[str, ...] = ("API_KEY",), token_minutes: int = 60, server_args: tuple[str, ...] = ()):
        self.cognito = moto.client("cognito-idp")
        self.pool = self.cognito.create_user_pool(PoolName="app", UsernameAttributes=["email"])["UserPool"]["Id"]
        self.client_id = self.cognito.create_user_pool_client(
            UserPoolId=self.pool, ClientName="web",
            ExplicitAuthFlows=["ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_CUSTOM_AUTH"],
            AccessTokenValidity=token_minutes, IdTokenValidity=token_minutes,
            TokenValidityUnits={"AccessToken": "minutes", "IdToken": "minutes"},
        )["UserPoolClient"]["ClientId"]
        self.clock = tmp_path / "clock"
        self.server = start_appsync(
            _mis_file(tmp_path), api_key=API_KEY, record_requests=True,
            args=["--user-pool-id", self.pool, "--jwks-url", f"{moto.url}/{self.pool}/.well-known/jwks.json",
                  "--clock-file", str(self.clock), *server_args])
        self.outputs = tmp_path / "amplify_outputs.json"
        self.outputs.write_text(json.dumps({
            "version": "1.3",
            "auth": {"user_pool_id": self.pool, "user_pool_client_id": self.client_id, "aws_region": "us-east-1"},
            "data": {"url": self.server.url, "aws_region": "us-east-1", "api_key": API_KEY,
                     "default_authorization_type": default_type, "authorization_types": list(additional),
                     "model_introspection": {"version": 1, "models": MODELS, "enums": {}, "nonModels": {}}}}))
        self.home = tmp_path / "home"
        self.home.mkdir()
        self.env = {"HOME": str(self.home), "XDG_CONFIG_HOME": str(self.home / "config"),
                    "GQLC_COGNITO_ENDPOINT": moto.url + "/"}

    def user(self, email: str, groups: tuple[str, ...] = (), phone: bool = False) -> str:
        """Signs a user up and confirms them; returns their sub (the user name in an e-mail pool)."""
        attributes = [{"Name": "email", "Value": email}]
        if phone:
            attributes.append({"Name": "phone_number", "Value": "+15555550100"})
        sub = self.cognito.sign_up(ClientId=self.client_id, Username=email, Password=PASSWORD,
                                   UserAttributes=attributes)["UserSub"]
        self.cognito.admin_confirm_sign_up(UserPoolId=self.pool, Username=email)
        for group in groups:
            self.cognito.create_group(GroupName=group, UserPoolId=self.pool)
            self.cognito.admin_add_user_to_group(UserPoolId=self.pool, Username=email, GroupName=group)
        return sub

    def gqlc(self, *args, stdin=None, env=None):
        return run_gqlc(["--schema", self.outputs, *args], env={**self.env, **(env or {})}, stdin=stdin)

    def login(self, email: str, stdin: str = PASSWORD + "\n", env=None):
        return self.gqlc("login", "--username", email, "--password-stdin", stdin=stdin, env=env)

    @property
    def token_file(self) -> Path:
        return self.home / "config" / "gqlc" / "tokens.json"

    def stored(self) -> dict:
        return json.loads(self.token_file.read_text())["signIns"][f"{self.pool}/{self.client_id}"]


def _mis_file(tmp_path: Path) -> Path:
    path = tmp_path / "mis.json"
    path.write_text(json.dumps({"version": 1, "models": MODELS, "enums": {}, "nonModels": {}}))
    return path


def _claims(token: str) -> dict:
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


@pytest.fixture
def app(moto, start_appsync, tmp_path):
    return App(moto, start_appsync, tmp_path)


def _expire_on_server(app) -> int:
    """Moves the server's clock to the stored access token's expiry, once a later token can be issued."""
    issued = _claims(app.stored()["accessToken"])
    while int(time.time()) <= issued["iat"]:  # a refreshed token must carry a later exp
        time.sleep(0.05)
    app.clock.write_text(str(issued["exp"]))
    return issued["exp"]


def app_terminal(app, *args) -> Terminal:
    """gqlc with the app's schema file and home, in a pseudo-terminal."""
    return Terminal(["--schema", app.outputs, *args], env=app.env)
