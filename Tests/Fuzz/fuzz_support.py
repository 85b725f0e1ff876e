"""Helpers, constants and fixtures of test_fuzz_cli.py, shared with other test modules."""

from __future__ import annotations
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
import generators
from generators import Case
from gqlc_runner import GQLC_BIN, gqlc_env


ITERATIONS = int(os.environ.get("GQLC_FUZZ_ITERATIONS") or 40)


SEED = int(os.environ.get("GQLC_FUZZ_SEED") or 1)


WORKERS = 3


BLOG = str(generators.SCHEMA_EXAMPLES / "blog.json")


DOCUMENTED_CODES = {0, 1, 2, 3, 4, 5, 6}


LONGEST_LINE = 2000


CONTROL_CHARACTERS = set(map(chr, [*range(0, 9), *range(10, 32), *range(127, 160)]))  # "one clear line": a server's 10 MB message must not be dumped on the terminal


def run(args: list[str | bytes], timeout: float = 60, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """Runs gqlc with raw arguments (bytes are passed as they are, so argv may hold invalid UTF-8)."""
    return subprocess.run([str(GQLC_BIN), *args], capture_output=True, timeout=timeout, env=gqlc_env(),
                          **({"stdin": subprocess.DEVNULL} if stdin is None else {"input": stdin}))


def contract_violations(case: Case, result: subprocess.CompletedProcess) -> list[str]:
    """What is wrong with how gqlc handled ``case`` (empty when nothing is)."""
    problems = []
    code, out, err = result.returncode, result.stdout, result.stderr.decode("utf-8", "replace")
    lines = err.removesuffix("\n").split("\n") if err else []  # (str.splitlines would also split at \x1c-\x1e)
    if code < 0:
        return [f"killed by signal {-code}"]
    if code not in DOCUMENTED_CODES:
        problems.append(f"undocumented exit code {code}")
    if case.expect is not None and code != case.expect:
        problems.append(f"exit code {code}, expected {case.expect}")
    if code == 0:
        if err:
            problems.append(f"stderr on success: {err[:200]!r}")
        if not out.strip():
            problems.append("nothing on stdout on success")
    elif code in (1, 2, 4, 5, 6):
        # A listing that stopped before its first record still leaves valid JSON: an empty array.
        if out and not (case.extra.get("command") == "list" and out == b"[]\n"):
            problems.append(f"stdout for a rejected input: {out[:200]!r}")
        if code != 1 and len(lines) != 1:
            problems.append(f"{len(lines)} lines on stderr, expected 1: {err[:300]!r}")
    if code != 0 and (not lines or not all(line.startswith("gqlc: ") for line in lines)):
        problems.append(f"stderr lines must start with 'gqlc: ': {err[:300]!r}")
    if any(len(line) > LONGEST_LINE for line in lines):
        problems.append(f"a stderr line of {max(map(len, lines))} characters")
    if "(-" in err and " characters omitted)" in err:
        problems.append(f"a negative count of omitted characters: {err[:300]!r}")
    if any(ch in CONTROL_CHARACTERS for ch in err if ch != "\n"):
        problems.append(f"raw control characters on stderr (a terminal would act on them): {err[:200]!r}")
    return problems


def run_all(cases: list[Case], make_args, check=None, contract=contract_violations) -> None:
    """Runs every case (a few at a time) and fails with a list of every case that broke the contract.
    ``make_args`` gives the arguments, or the arguments and the bytes for standard input."""
    def one(case: Case) -> tuple[Case, list[str]]:
        args = make_args(case)
        args, stdin = args if isinstance(args, tuple) else (args, None)
        result = run(args, stdin=stdin)
        problems = contract(case, result)
        if check and not problems:
            problems = check(case, result)
        return case, problems

    with ThreadPoolExecutor(WORKERS) as pool:
        failures = [(case, problems) for case, problems in pool.map(one, cases) if problems]
    report = "\n".join(f"  {case.label}: {'; '.join(problems)}" for case, problems in failures[:20])
    assert not failures, f"{len(failures)} of {len(cases)} cases broke the contract (seed {SEED}):\n{report}"


def write(workdir: Path, case: Case, name: str) -> str:
    path = workdir / f"{abs(hash(case.label))}-{name}"
    path.write_bytes(case.data if isinstance(case.data, bytes) else str(case.data).encode())
    return str(path)
