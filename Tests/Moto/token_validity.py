"""``moto-local --token-validity``: honour the app client's token lifetimes as Cognito does.

moto stores ``AccessTokenValidity``, ``IdTokenValidity`` and ``TokenValidityUnits`` on the app client but always
issues tokens that last an hour. This wraps ``CognitoIdpUserPool.create_jwt`` so that an access or ID token lasts
what the client says (units ``seconds``, ``minutes``, ``hours`` or ``days``; Cognito's default unit is hours), so
that tests can get short-lived tokens from the real sign-in flow.
"""

from __future__ import annotations

UNIT_SECONDS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}


def install() -> None:
    from moto.cognitoidp import models

    pool_class = models.CognitoIdpUserPool
    original = pool_class.create_jwt

    def create_jwt(self, client_id, username, token_use, expires_in=60 * 60, extra_data=None):
        client = self.clients.get(client_id)
        setting = {"access": "AccessTokenValidity", "id": "IdTokenValidity"}.get(token_use)
        config = client.extended_config if client is not None else {}
        if setting and config.get(setting):
            unit = (config.get("TokenValidityUnits") or {}).get("AccessToken" if token_use == "access" else "IdToken")
            expires_in = int(config[setting]) * UNIT_SECONDS.get(unit or "hours", 3600)
        return original(self, client_id, username, token_use, expires_in, extra_data)

    pool_class.create_jwt = create_jwt
