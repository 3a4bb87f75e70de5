#!/usr/bin/env python3
"""Scores `errdex explain --json` on the real-world cases of gen_realworld.py (or on
the pasted issue reports of tests/realworld/issues/, see issues_eval.py, which shares
the scoring below) and prints one table per split: per variant, how often the
first hit is the raising site (top-1), how often it is among the first three
(top-3), and how often the first hit is wrong while claiming to be exact
(confident-wrong: not approximate, not a "normalized" near-exact hit, not a hit
that says several sites match equally). Exits 1 when a target is missed.

  run_eval.py --errdex build/errdex --work DIR [--sample N] [--stdlib touched|whole]
              [--cases DIR] [--check-split heldout|all] [--no-targets]

Stdlib only. The catalog is the scanned roots the programs touched (copied
under WORK/roots/, one repo each: python/cpython, pypi/<package>).
"""
import argparse
import ast
import collections
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# The targets of issue 9, per variant group: (metric, minimum).
TARGETS = {
    "traceback": ("top1", 0.95),
    "message": ("top1", 0.95),
    "log": ("top1", 0.95),
    "inline": ("top1", 0.90),
    "reworded": ("top3", 0.70),
}
MAX_CONFIDENT_WRONG = 0.02
# A first hit that lists this many equal sites or fewer, the right one among them,
# counts for top-1 (the "strict" column counts only the first site named).
MAX_TIED = 3


def group_of(variant):
    if variant.startswith("log"):
        return "log"
    return variant


def fake_sha(repo):
    return hashlib.sha1(repo.encode()).hexdigest()


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit("run_eval: %s failed (%d):\n%s" % (" ".join(cmd[:4]), p.returncode, p.stderr[-4000:]))
    return p


def build_catalog(errdex, roots, work, reuse=False):
    """Copies each root's entries under WORK/roots/<repo> and scans it into one catalog
    (reuse: keep WORK's catalog and roots from an earlier run, for changes to explain only)."""
    db = os.path.join(work, "catalog.db")
    if reuse and os.path.exists(db):
        return db, {r["repo"]: os.path.join(work, "roots", r["repo"].replace("/", "__")) for r in roots}, 0.0, 0.0
    if os.path.exists(db):
        os.remove(db)
    root_dirs = {}
    t0 = time.monotonic()
    for r in roots:
        dest = os.path.join(work, "roots", r["repo"].replace("/", "__"))
        if os.path.exists(dest):
            shutil.rmtree(dest)
        os.makedirs(dest)
        entries = r["entries"]
        if entries is None:  # the whole stdlib, without the installed packages
            entries = [e for e in os.listdir(r["base"]) if e not in ("site-packages", "__pycache__")]
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so")
        for e in entries:
            src = os.path.join(r["base"], e)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(dest, e), ignore=ignore, symlinks=True)
            elif os.path.isfile(src):
                shutil.copy2(src, os.path.join(dest, e))
        run([errdex, "scan", dest, "--repo", r["repo"], "--sha", fake_sha(r["repo"]), "--db", db, "--no-docs",
             "-q", "-j", "2"])
        root_dirs[r["repo"]] = dest
    scan_s = time.monotonic() - t0
    # The first explain compiles the matcher and caches it in the catalog.
    t0 = time.monotonic()
    subprocess.run([errdex, "explain", "--db", db, "-q", "--json"], input="warm-up\n", capture_output=True, text=True)
    return db, root_dirs, scan_s, time.monotonic() - t0


def explain_all(errdex, db, inputs, per_file, jobs=2):
    """{input path: [hit data, ...]} in output order."""
    out = {p: [] for p in inputs}
    if per_file:  # binaries that take one input
        import concurrent.futures

        def one(p):
            r = subprocess.run([errdex, "explain", "--db", db, "--json", "--top", "3", "-q", p],
                               capture_output=True, text=True)
            return p, [json.loads(l)["data"] for l in r.stdout.splitlines() if l.startswith("{")]

        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            for p, hits in ex.map(one, inputs):
                out[p] = hits
        return out
    for i in range(0, len(inputs), 400):
        batch = inputs[i:i + 400]
        r = subprocess.run([errdex, "explain", "--db", db, "--json", "--top", "3", "-q"] + batch,
                           capture_output=True, text=True)
        if r.returncode not in (0, 1):
            sys.exit("run_eval: explain failed (%d): %s" % (r.returncode, r.stderr[-2000:]))
        cur = None
        for line in r.stdout.splitlines():
            if not line.startswith("{"):
                continue
            j = json.loads(line)
            if j["type"] == "begin":
                cur = j["data"]["input"]
            elif j["type"] == "hit" and cur is not None:
                out[cur].append(j["data"])
    return out


class Spans:
    """End line of the statement starting at a line, from Python's own ast."""

    def __init__(self, root_dirs):
        self.root_dirs = root_dirs
        self.cache = {}

    def end_line(self, repo, path, line):
        key = (repo, path)
        if key not in self.cache:
            spans = {}
            try:
                with open(os.path.join(self.root_dirs.get(repo, "/nonexistent"), path), "rb") as f:
                    tree = ast.parse(f.read())
                for node in ast.walk(tree):
                    if isinstance(node, ast.stmt) or isinstance(node, ast.Call):
                        spans[node.lineno] = max(spans.get(node.lineno, 0), node.end_lineno or node.lineno)
            except (OSError, SyntaxError, ValueError):
                pass
            self.cache[key] = spans
        return self.cache[key].get(line, line)


def is_correct(hit, case, spans):
    """The hit is the case's site: same repo and file, and the site's statement (in
    some version the catalog holds of it) spans the case's line."""
    if hit.get("repo") != case["repo"] or hit.get("filePath") != case["file"]:
        return False
    lines = {hit.get("lineNumber", 0)} | {v.get("lineNumber", 0) for v in hit.get("versions", [])}
    lines |= set(hit.get("versionLines", []))
    return any(l == case["line"] or l <= case["line"] <= spans.end_line(case["repo"], case["file"], l) for l in lines)


def is_confident(hit):
    if hit.get("approximate"):
        return False
    if hit.get("tier") == "normalized":
        return False
    return hit.get("equalSites", 1) <= 1


def score(cases, results, spans):
    """[(split, variant, n, top1, top3, confident_wrong)] and per-case outcomes."""
    rows = collections.defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    outcomes = []
    for c in cases:
        hits = results.get(c["path"], [])
        strict = bool(hits) and is_correct(hits[0], c, spans)
        also = [] if not hits else hits[0].get("alsoAt", [])
        # The first answer names the site: it is the site, or it says "several sites
        # match equally" and lists it among at most MAX_TIED.
        top1 = strict or (bool(hits) and hits[0].get("equalSites", 1) <= MAX_TIED and
                          any(is_correct(a, c, spans) for a in also))
        top3 = top1 or any(is_correct(h, c, spans) for h in hits[:3]) or any(is_correct(a, c, spans) for a in also)
        cw = bool(hits) and not top1 and is_confident(hits[0])
        # Not top-1, yet honest: the first answer says more than MAX_TIED sites match
        # equally (the same message raised in many places) and lists this one; only
        # frames can tell them apart.
        tied = bool(hits) and not top1 and hits[0].get("equalSites", 1) > MAX_TIED and (
            strict or any(is_correct(a, c, spans) for a in also))
        for key in ((c["split"], c["variant"]), (c["split"], "*" + group_of(c["variant"])), ("all", c["variant"]),
                    ("all", "*" + group_of(c["variant"]))):
            r = rows[key]
            r[0] += 1
            r[1] += top1
            r[2] += top3
            r[3] += cw
            r[4] += strict
            r[5] += tied
        outcomes.append(dict(c, top1=top1, strict=strict, top3=top3, confident_wrong=cw,
                             got=[(h.get("repo"), h.get("filePath"), h.get("lineNumber"), h.get("tier", ""),
                                   h.get("score")) for h in hits[:3]]))
    return rows, outcomes


def print_table(rows, title, baseline=None):
    print("\n" + title)
    print("%-9s %-16s %6s %8s %8s %8s %8s %8s" % ("split", "variant", "n", "top-1", "strict", "top-3", "conf-wr",
                                                  "tie>%d" % MAX_TIED))
    for key in sorted(rows, key=lambda k: (k[0] != "dev", k[0] != "heldout", k[1].startswith("*"), k[1])):
        n, t1, t3, cw, st = rows[key][:5]
        tied = rows[key][5] if len(rows[key]) > 5 else 0
        line = "%-9s %-16s %6d %7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%%" % (
            key[0], key[1], n, 100 * t1 / n, 100 * st / n, 100 * t3 / n, 100 * cw / n, 100 * tied / n)
        if baseline and key in baseline:
            bn, b1, b3, bcw = baseline[key][:4]
            line += "   (before: %5.1f%% %5.1f%% %5.1f%%)" % (100 * b1 / bn, 100 * b3 / bn, 100 * bcw / bn)
        print(line)


def check_targets(rows, split, targets=TARGETS, max_cw=MAX_CONFIDENT_WRONG):
    failures = []
    for group, (metric, minimum) in targets.items():
        key = (split, "*" + group)
        if key not in rows:
            continue
        n, t1, t3, cw = rows[key][:4]
        val = (t1 if metric == "top1" else t3) / n
        if val < minimum:
            failures.append("%s %s: %s %.1f%% < %.0f%%" % (split, group, metric, 100 * val, 100 * minimum))
        if cw / n > max_cw:
            failures.append("%s %s: confident-wrong %.1f%% > %.0f%%" % (split, group, 100 * cw / n, 100 * max_cw))
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--errdex", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cases", help="an existing gen_realworld.py output (default: generate into WORK/cases)")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--stdlib", choices=["whole", "touched"], default="touched")
    ap.add_argument("--pkgs", default="", help="only programs of these packages (gen_realworld.py --pkgs)")
    ap.add_argument("--min", action="append", default=[], metavar="GROUP=VALUE",
                    help="override a target (its metric as in TARGETS), e.g. message=0.75; repeatable")
    ap.add_argument("--max-confident-wrong", type=float, default=MAX_CONFIDENT_WRONG)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--per-file", action="store_true", help="one explain process per input (binaries before batching)")
    ap.add_argument("--check-split", default="heldout", help="split whose numbers must meet the targets (heldout, dev, all)")
    ap.add_argument("--no-targets", action="store_true")
    ap.add_argument("--reuse-catalog", action="store_true", help="keep WORK's catalog of an earlier run (explain changes only)")
    ap.add_argument("--baseline", help="outcomes.json of an earlier run, shown beside")
    ap.add_argument("--misses", type=int, default=0, help="print this many missed cases per variant group")
    args = ap.parse_args()

    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    errdex = os.path.abspath(args.errdex)
    cases_dir = args.cases
    t0 = time.monotonic()
    if not cases_dir:
        cases_dir = os.path.join(work, "cases")
        cmd = [sys.executable, os.path.join(HERE, "gen_realworld.py"), cases_dir, "--jobs", str(args.jobs),
               "--stdlib", args.stdlib]
        if args.sample:
            cmd += ["--sample", str(args.sample)]
        if args.pkgs:
            cmd += ["--pkgs", args.pkgs]
        print(run(cmd).stdout.strip())
    gen_s = time.monotonic() - t0
    with open(os.path.join(cases_dir, "roots.json")) as f:
        roots = json.load(f)["roots"]
    cases = [json.loads(l) for l in open(os.path.join(cases_dir, "cases.jsonl"), encoding="utf-8")]
    for c in cases:
        c["path"] = os.path.join(cases_dir, c["input"])
    if not cases:
        print("run_eval: no cases (no program could run here)")
        return 0
    db, root_dirs, scan_s, compile_s = build_catalog(errdex, roots, work, args.reuse_catalog)
    t0 = time.monotonic()
    results = explain_all(errdex, db, [c["path"] for c in cases], args.per_file, args.jobs)
    explain_s = time.monotonic() - t0
    rows, outcomes = score(cases, results, Spans(root_dirs))
    with open(os.path.join(work, "outcomes.json"), "w", encoding="utf-8") as f:
        json.dump({"rows": [[k[0], k[1]] + v for k, v in rows.items()], "outcomes": outcomes}, f, ensure_ascii=False)
    baseline = None
    if args.baseline:
        with open(args.baseline, encoding="utf-8") as f:
            baseline = {(r[0], r[1]): r[2:] for r in json.load(f)["rows"]}
    programs = len({c["id"] for c in cases})
    print_table(rows, "explain on real errors: %d programs, %d cases (generate %.0fs, scan %.0fs, matcher %.0fs, "
                "explain %.0fs)" % (programs, len(cases), gen_s, scan_s, compile_s, explain_s), baseline)
    if args.misses:
        by_group = collections.defaultdict(list)
        for o in outcomes:
            if not o["top1"]:
                by_group[group_of(o["variant"])].append(o)
        for g, lst in sorted(by_group.items()):
            print("\nmisses (%s): %d" % (g, len(lst)))
            for o in lst[: args.misses]:
                print("  %s %s %s:%d  got %s  [%s]" % (o["id"], o["variant"], o["file"], o["line"], o["got"][:2], o["input"]))
    if args.no_targets:
        return 0
    targets = dict(TARGETS)
    for m in args.min:
        group, value = m.split("=", 1)
        targets[group] = (targets[group][0], float(value))
    print("\ntargets (%s): %s; confident-wrong <= %.0f%%" % (
        args.check_split, ", ".join("%s %s >= %.0f%%" % (g, t[0], 100 * t[1]) for g, t in targets.items()),
        100 * args.max_confident_wrong))
    failures = check_targets(rows, args.check_split, targets, args.max_confident_wrong)
    if failures:
        print("\nrun_eval: below target:\n  " + "\n  ".join(failures))
        return 1
    print("\nrun_eval: targets met on split '%s'" % args.check_split)
    return 0


if __name__ == "__main__":
    sys.exit(main())
