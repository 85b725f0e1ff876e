#!/usr/bin/env python3
"""Writes bigint-vectors.json: modular powers, products and remainders computed by Python's own integers (pow, *, %),
the independent reference BigUIntTests checks gqlc's big integers against. Seeded, so a rerun writes the same file."""
import json
import random
from pathlib import Path

N = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
    "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
    "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF", 16)

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
