#!/usr/bin/env python3
"""Scores `errdex explain --json` on reports users pasted into GitHub issue threads
of LLM-serving projects (tests/realworld/issues/cases/*.txt), against the raise,
assert or log sites located in those projects' source (the fixture tree
tests/realworld/issues/tree/, one directory per repo and commit, each scanned as
that version of the repo). Prints a table per form of report and per project;
exits 1 below --min-top1 or above --max-confident-wrong.

  issues_eval.py --errdex build/errdex --work DIR [--min-top1 F] [--max-confident-wrong F]

A case file: "key: value" lines (url, repo, commit, file, line, function, form,
note), a line "----", then the report as the user pasted it. Stdlib only.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_eval  # noqa: E402  (scoring shared with the generated cases)

ISSUES = os.path.join(HERE, "issues")


def read_cases(directory):
    cases = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".txt"):
            continue
        text = open(os.path.join(directory, name), encoding="utf-8").read()
        head, sep, body = text.partition("\n----\n")
        if not sep:
            sys.exit("issues_eval: %s: no '----' line" % name)
        c = {"name": name, "path": os.path.join(directory, name + ".report")}
        for line in head.split("\n"):
            if ": " in line:
                k, v = line.split(": ", 1)
                c[k.strip()] = v.strip()
        for k in ("url", "repo", "commit", "file", "line", "form"):
            if k not in c:
                sys.exit("issues_eval: %s: no %s" % (name, k))
        c["line"] = int(c["line"])
        c["report"] = body
        cases.append(c)
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--errdex", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--min-top1", type=float, default=0.0)
    ap.add_argument("--max-confident-wrong", type=float, default=1.0)
    ap.add_argument("--misses", action="store_true", help="print every case whose first hit is not the site")
    ap.add_argument("--per-file", action="store_true", help="one explain process per input (binaries before batching)")
    args = ap.parse_args()
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    errdex = os.path.abspath(args.errdex)

    cases = read_cases(os.path.join(ISSUES, "cases"))
    reports = os.path.join(work, "reports")
    os.makedirs(reports, exist_ok=True)
    for c in cases:
        c["path"] = os.path.join(reports, c["name"])
        with open(c["path"], "w", encoding="utf-8") as f:
            f.write(c["report"])

    # One scan per (repo, commit) directory of the tree.
    shas = {}
    for line in open(os.path.join(ISSUES, "tree", "SOURCES.tsv"), encoding="utf-8"):
        repo, sha, _path = line.rstrip("\n").split("\t")
        shas[(repo.replace("/", "__"), sha[:12])] = (repo, sha)
    db = os.path.join(work, "catalog.db")
    if os.path.exists(db):
        os.remove(db)
    root_dirs = collections.defaultdict(list)
    tree = os.path.join(ISSUES, "tree")
    for d in sorted(os.listdir(tree)):
        full = os.path.join(tree, d)
        if not os.path.isdir(full) or "@" not in d:
            continue
        owner_name, short = d.split("@", 1)
        repo, sha = shas[(owner_name, short)]
        run_eval.run([errdex, "scan", full, "--repo", repo, "--sha", sha, "--db", db, "--no-docs", "-q", "-j", "2"])
        root_dirs[repo].append(full)
    results = run_eval.explain_all(errdex, db, [c["path"] for c in cases], per_file=args.per_file)

    # Spans: the statement around a hit, from whichever version directory has the file.
    class TreeSpans(run_eval.Spans):
        def end_line(self, repo, path, line):
            best = line
            for d in root_dirs.get(repo, []):
                self.root_dirs = {repo: d}
                self.cache.pop((repo, path), None)
                best = max(best, run_eval.Spans.end_line(self, repo, path, line))
            return best

    spans = TreeSpans({})
    rows = collections.defaultdict(lambda: [0, 0, 0, 0])
    misses = []
    for c in cases:
        c["split"] = "issues"
        hits = results.get(c["path"], [])
        top1 = bool(hits) and run_eval.is_correct(hits[0], c, spans)
        also = hits[0].get("alsoAt", []) if hits else []
        top1_tie = top1 or (hits and hits[0].get("equalSites", 1) <= run_eval.MAX_TIED and
                            any(run_eval.is_correct(a, c, spans) for a in also))
        top3 = top1_tie or any(run_eval.is_correct(h, c, spans) for h in hits[:3])
        cw = bool(hits) and not top1_tie and run_eval.is_confident(hits[0])
        for key in (("form", c["form"]), ("project", c["repo"]), ("all", "all")):
            r = rows[key]
            r[0] += 1
            r[1] += bool(top1_tie)
            r[2] += bool(top3)
            r[3] += cw
        if not top1_tie:
            misses.append((c, hits[:2]))
    print("\nexplain on %d reports pasted into issue threads (%d projects)" % (
        len(cases), len({c["repo"] for c in cases})))
    print("%-40s %5s %8s %8s %8s" % ("", "n", "top-1", "top-3", "conf-wr"))
    for key in sorted(rows, key=lambda k: (k[0] != "form", k[0] != "project", k[1])):
        n, t1, t3, cw = rows[key]
        print("%-40s %5d %7.1f%% %7.1f%% %7.1f%%" % (key[0] + " " + key[1], n, 100 * t1 / n, 100 * t3 / n, 100 * cw / n))
    if args.misses:
        for c, hits in misses:
            print("\nmiss %s (%s:%d)" % (c["name"], c["file"], c["line"]))
            for h in hits:
                print("   got %s %s:%s tier=%s score=%s" % (h.get("repo"), h.get("filePath"), h.get("lineNumber"),
                                                         h.get("tier"), h.get("score")))
    n, t1, t3, cw = rows[("all", "all")]
    failures = []
    if t1 / n < args.min_top1:
        failures.append("top-1 %.1f%% < %.0f%%" % (100 * t1 / n, 100 * args.min_top1))
    if cw / n > args.max_confident_wrong:
        failures.append("confident-wrong %.1f%% > %.0f%%" % (100 * cw / n, 100 * args.max_confident_wrong))
    if failures:
        print("\nissues_eval: " + "; ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
