"""Model auth rules (model introspection's ``auth`` attribute) enforced as AppSync's generated resolvers do.

Only when the server runs with a user pool (``--user-pool-id``): each root query and mutation of a model checks
the caller's mode (``apiKey``, ``iam`` or ``userPools``) against the model's rules, and so does each subscription start
(``subscription_access``, the transformer's subscription auth resolver). ``public`` and ``private`` rules
and static ``groups`` rules (``cognito:groups``) grant the operation; ``owner`` rules grant it on the caller's own
records only (owner from ``username``, else ``cognito:username``; ``sub::username`` as Gen 2 writes it): a create
fills the owner field, a get, update or delete of another's record is refused, a list keeps the caller's records.
A refusal is HTTP 200 with ``errorType: Unauthorized`` and ``Not Authorized to access F on type T``.

Subscriptions (``listen``, which ``read`` covers) follow amplify-category-api's generated subscription resolver
(``graphql-auth-transformer`` ``vtl-generator/ddb/resolvers/subscription.ts``): a static rule (public, private, a
static group) lets the caller hear every event; with owner rules only, an ``owner`` argument that is not the caller is
refused, one that is the caller filters by it, and without it the caller hears only records they own (the runtime
filter ``{or: [{owner: {eq: <claim>}}, …]}``); a caller no rule admits is refused (``$util.unauthorized()``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import AppSyncError

ALL_OPERATIONS = ("create", "update", "delete", "read")


@dataclass(frozen=True)
class Identity:
    """Who is calling: the auth mode the request used and, for user pools, the token's claims."""

    mode: str  # "apiKey", "iam" or "userPools"
    claims: dict = field(default_factory=dict)

    def owner_values(self, claim: str | None) -> list[str]:
        """The values an owner field may hold for this caller, the one written on create first."""
        username = self.claims.get("username") or self.claims.get("cognito:username")
        sub = self.claims.get("sub")
        if claim in (None, "username", "cognito:username"):
            values = [username, f"{sub}::{username}", sub]
        elif claim == "sub::username":
            values = [f"{sub}::{username}", username, sub]
        else:
            values = [self.claims.get(claim)]
        return [str(value) for value in values if value]


def _provider(rule: dict) -> str:
    default = "apiKey" if rule.get("allow") == "public" else "userPools"
    provider = rule.get("provider") or default
    return "iam" if provider == "identityPool" else provider


def _covers(rule: dict, operation: str) -> bool:
    operations = rule.get("operations") or ALL_OPERATIONS
    return operation in operations or (operation in ("get", "list", "listen") and "read" in operations)


@dataclass
class Decision:
    """Full access, or access to records whose owner field holds one of the caller's values."""

    full: bool
    owner_fields: list[tuple[str, list[str]]]

    def owns(self, item: dict) -> bool:
        return self.full or any(str(item.get(name)) in values for name, values in self.owner_fields
                                if item.get(name) is not None) or any(
            isinstance(item.get(name), list) and set(map(str, item[name])) & set(values)
            for name, values in self.owner_fields)


def decide(rules: list[dict], operation: str, identity: Identity) -> Decision | None:
    """None when no rule lets this caller do ``operation`` at all."""
    if not rules:
        return Decision(True, [])
    owners: list[tuple[str, list[str]]] = []
    for rule in rules:
        if _provider(rule) != identity.mode or not _covers(rule, operation):
            continue
        allow = rule.get("allow")
        if allow in ("public", "private"):
            return Decision(True, [])
        if allow == "groups" and rule.get("groups"):
            caller = identity.claims.get(rule.get("groupClaim") or "cognito:groups") or []
            if set(caller if isinstance(caller, list) else [caller]) & set(rule["groups"]):
                return Decision(True, [])
        if allow == "owner":
            owners.append((rule.get("ownerField") or "owner", identity.owner_values(rule.get("identityClaim"))))
    return Decision(False, owners) if owners else None


def guard(resolve: Callable, model, operation: str, field_name: str, type_name: str) -> Callable:
    """Wraps a root resolver with the rule check (a no-op unless the context has an identity)."""

    def refuse() -> AppSyncError:
        return AppSyncError(f"Not Authorized to access {field_name} on type {type_name}", "Unauthorized")

    def guarded(source: Any, info, **args) -> Any:
        identity: Identity | None = getattr(info.context, "identity", None)
        if identity is None:
            return resolve(source, info, **args)
        decision = decide(model.auth_rules, operation, identity)
        if decision is None:
            raise refuse()
        if decision.full:
            return resolve(source, info, **args)
        if operation == "create":
            item = dict(args["input"])
            name, values = decision.owner_fields[0]
            if item.get(name) is None:
                item[name] = values[0]
            elif not decision.owns(item):
                raise refuse()
            return resolve(source, info, **{**args, "input": item})
        if operation in ("update", "delete"):
            existing = info.context.store.get(model.name, [args["input"].get(name) for name in model.key_fields])
            if existing is not None and not decision.owns(existing):
                raise refuse()
            return resolve(source, info, **args)
        result = resolve(source, info, **args)
        if operation == "get":
            if result is not None and not decision.owns(result):
                raise refuse()
            return result
        return {**result, "items": [item for item in result["items"] if decision.owns(item)]}
    return guarded


def subscription_access(model, identity: Identity | None, arguments: dict, field_name: str) -> Decision:
    """Whose events a subscription start may hear; raises ``AppSyncError`` (``Unauthorized``) when refused.
    Without an identity (no user pool configured) rules are not enforced."""
    if identity is None:
        return Decision(True, [])
    refusal = AppSyncError(f"Not Authorized to access {field_name} on type Subscription", "Unauthorized")
    decision = decide(model.auth_rules, "listen", identity)
    if decision is None:
        raise refusal
    if decision.full:
        return decision
    for name, values in decision.owner_fields:
        given = arguments.get(name)
        if given is not None:
            if str(given) not in values:
                raise refusal
            return Decision(True, [])  # the owner argument itself filters the events
    return decision
