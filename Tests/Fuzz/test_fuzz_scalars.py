"""Generative agreement of gqlc's AWS scalar checks with appsync-local's (which follow AppSync's reference):
for strings near each format (AppSync's documented examples, mutated), gqlc refuses locally exactly what the
server's scalar would refuse. ``gqlc --dry-run create`` says what gqlc accepts without a server.

``GQLC_FUZZ_ITERATIONS`` and ``GQLC_FUZZ_SEED`` work as in fuzz_support.py.
"""

from __future__ import annotations

import os
import random
import subprocess
from concurrent.futures import ThreadPoolExecutor

from appsync_local.scalars import STRING_CHECKS
from gqlc_runner import GQLC_BIN, gqlc_env
from harness import REPO_ROOT

ITERATIONS = int(os.environ.get("GQLC_FUZZ_ITERATIONS") or 40)
SEED = int(os.environ.get("GQLC_FUZZ_SEED") or 1)
SCHEMA = str(REPO_ROOT / "Tests" / "Fixtures" / "schemas" / "aws-scalars.mis.json")
FIELDS = {"AWSDate": "day", "AWSTime": "time", "AWSDateTime": "at", "AWSEmail": "email", "AWSURL": "site",
          "AWSPhone": "phone", "AWSIPAddress": "ip"}
# AppSync's scalar reference examples, and near misses.
SEEDS = {
    "AWSDate": ["1970-01-01Z", "1970-01-01-07:00", "1970-01-01+05:30", "2024-02-29", "1970-01-01+05:30:15"],
    "AWSTime": ["12:30:24.500", "12:30", "12:30:24-07:00", "23:59:59.123456789Z"],
    "AWSDateTime": ["1970-01-01T12:00:00.000Z", "1930-01-01T16:00:00-07:00", "2025-01-31T09:30Z"],
    "AWSEmail": ["username@example.com", "a.b+c@mail.example.co.uk"],
    "AWSURL": ["https://www.amazon.com/dp/B000NZW3KC/", "mailto:example@example.com", "http://h:80/a?b=//c"],
    "AWSPhone": ["+1 206-555-0100", "(206) 555 0100", "555.0100"],
    "AWSIPAddress": ["123.12.34.56", "1a2b:3c4b::1234:4567", "123.45.67.89/16", "::ffff:192.0.2.1", "2001:db8::/128"],
}
PIECES = ["0", "9", "1", "-", "+", ":", ".", "/", "Z", "T", "z", "@", " ", "::", "//", "%", "a", "G", "\n", "é", "٣",
          "00", "99", "60", "24", "29", "255", "256", "129", "33"]


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 3)):
        position = rng.randint(0, len(text))
        choice = rng.random()
        if choice < 0.4 and text:
            text = text[:position] + text[position + 1:]  # delete one character
        elif choice < 0.8:
            text = text[:position] + rng.choice(PIECES) + text[position:]  # insert a piece
        else:
            end = min(len(text), position + rng.randint(1, 3))
            text = text[:position] + rng.choice(PIECES) + text[end:]  # replace a few
    return text


def cases() -> list[tuple[str, str]]:
    rng = random.Random(SEED)
    result = [(scalar, value) for scalar, values in SEEDS.items() for value in values]
    for _ in range(ITERATIONS):
        for scalar, values in SEEDS.items():
            result.append((scalar, mutate(rng, rng.choice(values))))
    return [(scalar, value) for scalar, value in result if "\x00" not in value]


def gqlc_accepts(scalar: str, value: str) -> bool:
    args = [str(GQLC_BIN), "--schema", SCHEMA, "--endpoint", "http://127.0.0.1:9/graphql", "--dry-run",
            "create", "Reading", "label=x", f"{FIELDS[scalar]}={value}"]
    done = subprocess.run(args, capture_output=True, timeout=60, env=gqlc_env(), stdin=subprocess.DEVNULL)
    assert done.returncode in (0, 2), (value, done)
    if done.returncode == 2:
        stderr = done.stderr.decode()
        assert f"is not a valid {scalar} for '{FIELDS[scalar]}'" in stderr and stderr.count("\n") == 1, (value, stderr)
    return done.returncode == 0


def test_gqlc_refuses_exactly_what_the_server_refuses():
    all_cases = cases()
    with ThreadPoolExecutor(max_workers=3) as pool:
        verdicts = list(pool.map(lambda case: gqlc_accepts(*case), all_cases))
    disagreements = [(scalar, value, ours) for (scalar, value), ours in zip(all_cases, verdicts)
                     if ours != STRING_CHECKS[scalar](value)]
    assert not disagreements, "gqlc (accepts?) vs appsync-local:\n" + "\n".join(map(repr, disagreements[:40]))
    # The seeds are AppSync's own examples: all valid.
    assert all(STRING_CHECKS[s](v) for s, values in SEEDS.items() for v in values)
