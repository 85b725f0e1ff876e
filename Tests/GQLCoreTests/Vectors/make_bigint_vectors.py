#!/usr/bin/env python3
"""Writes bigint-vectors.json: modular powers, products and remainders computed by Python's own integers (pow, *, %),
the independent reference CognitoSRPTests checks gqlc's big integers against. Seeded, so a rerun writes the same file.

Run it with DevServers/Moto importable: PYTHONPATH=DevServers/Moto python3 Tests/GQLCoreTests/Vectors/make_bigint_vectors.py"""
import json
import random
from pathlib import Path

from srp_verifier import N  # the RFC 3526 3072-bit group, written out once

rng = random.Random(13)


def odd(bits):
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1))


moduli = [N, 3, (1 << 64) - 59, (1 << 64) + 13, odd(65), odd(127), odd(1000), odd(2048), (1 << 3072) - 1]
bases = [0, 1, 2, N - 1, N, N + 1, (1 << 64) - 1, 1 << 64, (1 << 3072) - 1, 1 << 3071, rng.getrandbits(3072),
         rng.getrandbits(4000), rng.getrandbits(100)]
exponents = [0, 1, 2, (1 << 64) - 1, 1 << 64, rng.getrandbits(1024), rng.getrandbits(3072), N - 1]
powers = []
for m in moduli:
    chosen = [(b, e) for b in (bases if m == N else (0, 1, N - 1, (1 << 64) - 1, bases[11])) for e in ((0, 1, 1 << 64, exponents[5]) if m == N else (0, 2, exponents[3]))]
    if m == N:
        chosen += [(bases[10], exponents[6]), (bases[3], exponents[7]), (2, exponents[5])]
    else:
        chosen += [(bases[10], exponents[5])]
    for b, e in chosen:
        powers.append({"base": f"{b:x}", "exponent": f"{e:x}", "modulus": f"{m:x}", "power": f"{pow(b, e, m):x}"})
pairs = [(rng.getrandbits(rng.randrange(1, 4200)), rng.getrandbits(rng.randrange(1, 3300)) | 1) for _ in range(25)]
pairs += [((1 << 4096) - 1, (1 << 64) - 1), (N * N - 1, N), (N - 1, N), (0, 5), ((1 << 128) - 1, (1 << 128) - 1)]
arithmetic = [{"a": f"{a:x}", "b": f"{b:x}", "product": f"{a * b:x}", "sum": f"{a + b:x}", "remainder": f"{a % b:x}",
               "difference": f"{max(a, b) - min(a, b):x}"} for a, b in pairs]
out = Path(__file__).with_name("bigint-vectors.json")
out.write_text(json.dumps({"powers": powers, "arithmetic": arithmetic}, indent=0) + "\n")
print(f"{out}: {len(powers)} powers, {len(arithmetic)} arithmetic cases")
