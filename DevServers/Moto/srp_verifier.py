"""``moto-local --verify-srp``: make moto check USER_SRP_AUTH proofs as Cognito does.

moto answers USER_SRP_AUTH with random SALT and SRP_B, a SECRET_BLOCK that is its session id (not base64), and
accepts any PASSWORD_CLAIM_SIGNATURE. This wraps its two backend calls: the challenge gets a real salt, a real
B = k·v + g^b (v from the password moto stores) and a base64 SECRET_BLOCK; the answer is checked by recomputing
S = (A·v^u)^b, the HKDF key and the HMAC claim signature (SRP-6a as in the Cognito research note §2.5), and a wrong
one is refused with Cognito's 400 NotAuthorizedException "Incorrect username or password.". Then moto goes on as
usual with its own session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import threading

N = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
    "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
    "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF", 16)
G = 2
# Cognito's TIMESTAMP: English day and month names, the day not zero-padded, 24-hour clock.
TIMESTAMP = re.compile(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
                       r"[1-9]\d? \d\d:\d\d:\d\d UTC \d{4}$")


def pad(value: int) -> bytes:
    """Java ``BigInteger.toByteArray()`` of a non-negative value."""
    data = value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")
    return b"\x00" + data if data[0] & 0x80 else data


def sha(data: bytes) -> int:
    return int.from_bytes(hashlib.sha256(data).digest(), "big")


K = sha(pad(N) + pad(G))


def verifier_x(pool_name: str, user_id: str, password: str, salt: int) -> int:
    inner = hashlib.sha256(f"{pool_name}{user_id}:{password}".encode()).digest()
    return sha(pad(salt) + inner)


def install() -> None:
    """Wraps moto's CognitoIdpBackend.initiate_auth and respond_to_auth_challenge."""
    from moto.cognitoidp import models
    from moto.cognitoidp.exceptions import NotAuthorizedError

    backend_class = models.CognitoIdpBackend
    original_initiate = backend_class.initiate_auth
    original_respond = backend_class.respond_to_auth_challenge
    pending: dict[str, dict] = {}
    lock = threading.Lock()

    def initiate_auth(self, client_id, auth_flow, auth_parameters):
        result = original_initiate(self, client_id, auth_flow, auth_parameters)
        if auth_flow != "USER_SRP_AUTH" or result.get("ChallengeName") != "PASSWORD_VERIFIER":
            return result
        parameters = result["ChallengeParameters"]
        pool = next(p for p in self.user_pools.values() if client_id in p.clients)
        user = self.admin_get_user(pool.id, parameters["USERNAME"])
        a = int(auth_parameters["SRP_A"], 16)
        if a % N == 0:
            raise NotAuthorizedError("Incorrect username or password.")
        salt = int.from_bytes(secrets.token_bytes(16), "big")
        pool_name = pool.id.split("_", 1)[1]
        v = pow(G, verifier_x(pool_name, parameters["USER_ID_FOR_SRP"], user.password, salt), N)
        b = int.from_bytes(secrets.token_bytes(32), "big")
        big_b = (K * v + pow(G, b, N)) % N
        block = base64.b64encode(secrets.token_bytes(64)).decode()
        with lock:
            pending[block] = {"session": result["Session"], "a": a, "b": b, "B": big_b, "v": v,
                              "pool_name": pool_name, "user_id": parameters["USER_ID_FOR_SRP"]}
        parameters.update({"SALT": f"{salt:x}", "SRP_B": f"{big_b:x}", "SECRET_BLOCK": block})
        return result

    def respond_to_auth_challenge(self, session, client_id, challenge_name, challenge_responses):
        if challenge_name == "PASSWORD_VERIFIER":
            block = challenge_responses.get("PASSWORD_CLAIM_SECRET_BLOCK", "")
            with lock:
                state = pending.pop(block, None)
            if state is None:
                raise NotAuthorizedError("Incorrect username or password.")
            u = sha(pad(state["a"]) + pad(state["B"]))
            shared = pow(state["a"] * pow(state["v"], u, N), state["b"], N)
            prk = hmac.new(pad(u), pad(shared), hashlib.sha256).digest()
            key = hmac.new(prk, b"Caldera Derived Key\x01", hashlib.sha256).digest()[:16]
            timestamp = challenge_responses.get("TIMESTAMP", "")
            message = (state["pool_name"].encode() + state["user_id"].encode() + base64.b64decode(block)
                       + timestamp.encode())
            expected = base64.b64encode(hmac.new(key, message, hashlib.sha256).digest()).decode()
            given = challenge_responses.get("PASSWORD_CLAIM_SIGNATURE", "")
            if not TIMESTAMP.match(timestamp) or not hmac.compare_digest(expected, given):
                raise NotAuthorizedError("Incorrect username or password.")
            challenge_responses = dict(challenge_responses, PASSWORD_CLAIM_SECRET_BLOCK=state["session"])
        return original_respond(self, session, client_id, challenge_name, challenge_responses)

    backend_class.initiate_auth = initiate_auth
    backend_class.respond_to_auth_challenge = respond_to_auth_challenge
