#!/usr/bin/env python3
"""Baseline for bench/match_bench.cc: the naive way to explain a log in Python --
for every line, re.search every message pattern of the catalog.

usage: match_bench.py PATTERNS.txt LOG.txt
  PATTERNS.txt  one messagePattern per line (the chosen form: see src/model/pattern.h)
  LOG.txt       the log sample
Prints one JSON object: seconds, bytes, mb_per_s, lines, lines_matched, pairs_matched.
lines_matched is diffed against errdex by the C++ bench before any timing is trusted.
"""
import json
import re
import sys
import time


def main():
    with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as f:
        patterns = [line.rstrip("\n") for line in f if line.rstrip("\n")]
    with open(sys.argv[2], "rb") as f:
        data = f.read()
    lines = data.decode("utf-8", errors="surrogateescape").split("\n")
    compiled = [re.compile(p, re.DOTALL) for p in patterns]
    t0 = time.perf_counter()
    lines_matched = 0
    pairs = 0
    for line in lines:
        hit = False
        for r in compiled:
            if r.search(line):
                pairs += 1
                hit = True
        lines_matched += hit
    dt = time.perf_counter() - t0
    print(json.dumps({"seconds": dt, "bytes": len(data), "mb_per_s": len(data) / dt / 1e6, "lines": len(lines),
                      "lines_matched": lines_matched, "pairs_matched": pairs}))


if __name__ == "__main__":
    main()
