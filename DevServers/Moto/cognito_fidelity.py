"""Where moto's Cognito differs from Cognito in ways the sign-in tests depend on, made to behave as Cognito does.

- ``--token-validity``: moto stores ``AccessTokenValidity``, ``IdTokenValidity`` and ``TokenValidityUnits`` on the
  app client but always issues tokens that last an hour. Tokens then last what the client says (units
  ``seconds``, ``minutes``, ``hours`` or ``days``; Cognito's default unit is hours).
- ``--enforce-auth-flows``: moto stores ``ExplicitAuthFlows`` but lets every flow through. A flow the client does not
  allow is then refused with Cognito's 400 ``InvalidParameterException`` "<FLOW> flow not enabled for this client".
  A client created without the setting allows SRP, refresh and custom auth, Cognito's default.
- ``--revoke-token``: moto answers ``RevokeToken`` with HTTP 500 (not implemented). It then revokes the refresh
  token as Cognito does (a later REFRESH_TOKEN_AUTH with it is ``NotAuthorizedException``).
"""

from __future__ import annotations

UNIT_SECONDS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}
DEFAULT_FLOWS = {"ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_CUSTOM_AUTH"}


def install_token_validity() -> None:
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


def install_auth_flow_checks() -> None:
    from moto.cognitoidp import models
    from moto.cognitoidp.exceptions import InvalidParameterException

    backend_class = models.CognitoIdpBackend
    original = backend_class.initiate_auth

    def initiate_auth(self, client_id, auth_flow, auth_parameters):
        needed = {"REFRESH_TOKEN": "ALLOW_REFRESH_TOKEN_AUTH"}.get(auth_flow, f"ALLOW_{auth_flow}")
        for pool in self.user_pools.values():
            client = pool.clients.get(client_id)
            if client is not None:
                allowed = set(client.extended_config.get("ExplicitAuthFlows") or DEFAULT_FLOWS)
                if needed not in allowed:
                    raise InvalidParameterException(f"{auth_flow} flow not enabled for this client")
        return original(self, client_id, auth_flow, auth_parameters)

    backend_class.initiate_auth = initiate_auth


def install_revoke_token() -> None:
    from moto.cognitoidp import models, responses
    from moto.cognitoidp.exceptions import NotAuthorizedError
    from moto.core.responses import EmptyResult

    def revoke_token(self) -> EmptyResult:
        token, client_id = self._get_param("Token"), self._get_param("ClientId")
        # Unsigned, so any account and region may hold the pool (as moto's own RegionAgnosticBackend searches).
        for backends in models.cognitoidp_backends.values():
            for region, backend in backends.items():
                if region == "global":
                    continue
                for pool in backend.user_pools.values():
                    entry = pool.refresh_tokens.get(token)  # (client_id, username, origin_jti), None once revoked
                    if entry is not None and entry[0] == client_id:
                        pool.refresh_tokens[token] = None
                        return EmptyResult()
        raise NotAuthorizedError("Invalid token")

    responses.CognitoIdpResponse.revoke_token = revoke_token
