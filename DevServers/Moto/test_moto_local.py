"""moto-local itself: it starts, serves Cognito and STS, and resets."""

from __future__ import annotations


import pytest


from moto_harness import start_moto  # noqa: E402


@pytest.fixture(scope="module")
def moto():
    with start_moto() as handle:
        yield handle


def test_serves_cognito_and_reset_forgets_pools(moto):
    cognito = moto.client("cognito-idp")
    cognito.create_user_pool(PoolName="app")
    assert [pool["Name"] for pool in cognito.list_user_pools(MaxResults=10)["UserPools"]] == ["app"]
    moto.reset()
    assert cognito.list_user_pools(MaxResults=10)["UserPools"] == []


def test_serves_sts_assume_role(moto):
    credentials = moto.client("sts").assume_role(RoleArn="arn:aws:iam::123456789012:role/admin",
                                                 RoleSessionName="test")["Credentials"]
    assert credentials["AccessKeyId"].startswith("ASIA")
    assert credentials["SessionToken"]


def _srp_answer(cognito, client_id: str, pool_id: str, username: str, password: str) -> dict:
    """Signs in with USER_SRP_AUTH as a Cognito client does (the research note's recipe, in Python)."""
    import base64
    import hashlib
    import hmac
    import secrets

    from srp_verifier import G, N, K, pad, sha, verifier_x

    a = int.from_bytes(secrets.token_bytes(128), "big")
    big_a = pow(G, a, N)
    step = cognito.initiate_auth(ClientId=client_id, AuthFlow="USER_SRP_AUTH",
                                 AuthParameters={"USERNAME": username, "SRP_A": f"{big_a:x}"})
    challenge = step["ChallengeParameters"]
    big_b, salt = int(challenge["SRP_B"], 16), int(challenge["SALT"], 16)
    pool_name = pool_id.split("_", 1)[1]
    u = sha(pad(big_a) + pad(big_b))
    x = verifier_x(pool_name, challenge["USER_ID_FOR_SRP"], password, salt)
    shared = pow((big_b - K * pow(G, x, N)) % N, a + u * x, N)
    prk = hmac.new(pad(u), pad(shared), hashlib.sha256).digest()
    key = hmac.new(prk, b"Caldera Derived Key\x01", hashlib.sha256).digest()[:16]
    timestamp = "Tue Mar 5 07:08:09 UTC 2024"
    message = (pool_name + challenge["USER_ID_FOR_SRP"]).encode() + base64.b64decode(challenge["SECRET_BLOCK"]) \
        + timestamp.encode()
    signature = base64.b64encode(hmac.new(key, message, hashlib.sha256).digest()).decode()
    return cognito.respond_to_auth_challenge(
        ClientId=client_id, ChallengeName="PASSWORD_VERIFIER", Session=step["Session"],
        ChallengeResponses={"USERNAME": challenge["USERNAME"], "PASSWORD_CLAIM_SECRET_BLOCK": challenge["SECRET_BLOCK"],
                            "TIMESTAMP": timestamp, "PASSWORD_CLAIM_SIGNATURE": signature})


@pytest.mark.slow
def test_verify_srp_accepts_the_right_password_and_refuses_a_wrong_one():
    import botocore.exceptions

    with start_moto(["--verify-srp"]) as handle:
        cognito = handle.client("cognito-idp")
        pool = cognito.create_user_pool(PoolName="app", UsernameAttributes=["email"])["UserPool"]["Id"]
        client = cognito.create_user_pool_client(UserPoolId=pool, ClientName="web")["UserPoolClient"]["ClientId"]
        cognito.sign_up(ClientId=client, Username="ann@example.com", Password="Secret-Passw0rd!")
        cognito.admin_confirm_sign_up(UserPoolId=pool, Username="ann@example.com")
        tokens = _srp_answer(cognito, client, pool, "ann@example.com", "Secret-Passw0rd!")["AuthenticationResult"]
        assert tokens["AccessToken"] and tokens["RefreshToken"]
        with pytest.raises(botocore.exceptions.ClientError) as refused:
            _srp_answer(cognito, client, pool, "ann@example.com", "Wrong-Passw0rd!")
        assert refused.value.response["Error"] == {"Code": "NotAuthorizedException",
                                                   "Message": "Incorrect username or password."}
