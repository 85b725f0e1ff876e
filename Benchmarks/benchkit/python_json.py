"""Python's `json` on a file, in-process: `python3 python_json.py FILE RUNS`.

Prints `parse_ms=... write_ms=...`, the medians over RUNS. Parse is `json.loads` of the file's text;
write is `json.dumps` with compact separators and raw UTF-8, encoded to bytes (what a writer emits).
Run as its own process so that its memory never counts against the harness.
"""

import json
import statistics
import sys
import time


def main():
    path, runs = sys.argv[1], int(sys.argv[2])
    with open(path, encoding="utf-8") as source:
        text = source.read()
    parse, write = [], []
    for _ in range(runs):
        started = time.perf_counter()
        value = json.loads(text)
        parse.append(time.perf_counter() - started)
        started = time.perf_counter()
        json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        write.append(time.perf_counter() - started)
        del value
    print("parse_ms=%.2f write_ms=%.2f" % (statistics.median(parse) * 1000, statistics.median(write) * 1000))


if __name__ == "__main__":
    main()
