"""moto-local itself: it starts, serves Cognito and STS, and resets."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

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
