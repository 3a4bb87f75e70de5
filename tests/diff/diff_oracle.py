#!/usr/bin/env python3
"""Differential check of the C++ Python front end against the CPython-ast oracle.

Runs ``python3 ../shared/tools/oracle_py.py DIR`` and ``py_extract_dump DIR``,
keeps the kinds both know (raise / http / assert), drops files the oracle
could not parse, and compares sites on (file, line, errorClass, messagePattern).
Prints recall, precision, the mismatch categories (largest first) with
examples, and optionally field agreement on the matched sites.

Build the driver (until CMakeLists.txt has a target for it):
  g++ -std=c++20 -O2 -Isrc tests/diff/py_extract_dump.cc build-py/liberrdex_extract.a \
      build-py/liberrdex_model.a -lxxhash -o build-py/py_extract_dump
  (CMake: add_executable(py_extract_dump tests/diff/py_extract_dump.cc)
          target_link_libraries(py_extract_dump PRIVATE errdex_extract))

Usage:
  python3 tests/diff/diff_oracle.py DIR [--dump build-py/py_extract_dump] [--oracle-cache O.json]
         [--oracle ../shared/tools/oracle_py.py] [--examples 5] [--json out.json]
Stdlib only.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KINDS = {"raise", "http", "assert"}
# Sites and messages errdex knows that the oracle does not model, by the
# messageResolution errdex gives them (issue 9, explain on real pastes). Our sites of
# these kinds are left out of the comparison and counted apart:
#   reraise-with-traceback  `raise exc.with_traceback(None)` of a caught exception:
#                           the traceback a user sees ends there, so it is a site.
TOLERATED_RESOLUTIONS = {"reraise-with-traceback"}
# Messages errdex rebuilds further than the oracle, by a tag in messageResolution:
# these sites are compared on (file, line, class) only, their pattern being ours.
#   +literal-args  a string/number literal given to .format() or % is written into
#                  the text ("{} requires X".format("Sharded Llama"))
#   +gettext       _("...") / gettext("...") / ngettext(a, b, n) read as their literals
#   +returns       a message built by a function of the same file (`msg =
#                  self._formatMessage(msg, "%s is not true" % x)`), read from its
#                  return statements with the call's arguments bound
#   +aug           a message grown by `msg += ...` (most often under an `if`): the part
#                  added is optional in our pattern
#   +callers       a message that is a parameter of its function (a raising helper,
#                  `def fail(self, message): raise BadParameter(message)`), read as the
#                  texts the function's callers in the same file pass
#   +factory       `raise suffixed_err(src, pos, "Invalid key")`: the one construction a
#                  factory of the same file returns (`return DecodeError(f"{msg} (at
#                  {...})")`), its parameters bound to the raise's arguments
#   +default       a parameter's default template where the message is that parameter or
#                  is formatted from it (`def _deprecated(name, message=_DEPRECATED_MSG,
#                  ...)`, `message.format(name=name)`): the text callers get by leaving it out
#   +exc-arg       `assert c, AssertionError(f"...")`: the exception's one argument is the message
#   +branches      a name bound in several branches of an if (`if obj: e = "A" else: e = "B"`,
#                  traitlets, requests' Client/Server Error): each branch's text an alternative
TOLERATED_PATTERN_TAGS = ("+literal-args", "+gettext", "+aug", "+callers", "+returns", "+factory", "+default",
                          "+branches", "+exc-arg")
# Classes errdex names further than the oracle (which leaves them None): `raise
# self.failureException(msg)` where the class body says `failureException =
# AssertionError`. Compared as the oracle has them, counted apart.
CLASS_ATTRIBUTE_EXPR = ("self.", "cls.")
# ... and `raise error(msg)` where `error` is a parameter defaulting to a class
# (`def f(mod, error=ImportError)`): errdex names the default, the oracle None.


def run_oracle(oracle, d, jobs, cache=None):
    if cache and os.path.exists(cache):
        with open(cache) as fh:
            c = json.load(fh)
        return c["sites"], c["stats"]
    with tempfile.NamedTemporaryFile("r", suffix=".json", delete=False) as st:
        stats_path = st.name
    out = subprocess.run([sys.executable, oracle, d, "-j", str(jobs), "--no-source", "--stats", stats_path],
                         check=True, capture_output=True).stdout.decode("utf-8", "replace")
    with open(stats_path) as fh:
        stats = json.load(fh)
    os.unlink(stats_path)
    sites = [json.loads(l) for l in out.split("\n") if l.strip()]
    if cache:
        with open(cache, "w") as fh:
            json.dump({"sites": sites, "stats": stats}, fh)
    return sites, stats


def run_dump(dump, d):
    p = subprocess.run([dump, d], check=True, capture_output=True)
    sys.stderr.write(p.stderr.decode("utf-8", "replace"))
    return [json.loads(l) for l in p.stdout.decode("utf-8", "replace").split("\n") if l.strip()]


def key(r):
    return (r["filePath"], r["lineNumber"], r["errorClass"], r["messagePattern"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--dump", default=os.path.join(ROOT, "build-py", "py_extract_dump"))
    ap.add_argument("--oracle", default=os.path.join(ROOT, "..", "shared", "tools", "oracle_py.py"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--examples", type=int, default=4)
    ap.add_argument("--exclude", action="append", default=["site-packages"],
                    help="path component to drop (default: site-packages)")
    ap.add_argument("--oracle-cache", default=None, help="reuse / save the oracle's output here")
    ap.add_argument("--json", default=None, help="write the summary here")
    ap.add_argument("--min-recall", type=float, default=None, help="exit 1 when recall is lower (for ctest)")
    ap.add_argument("--min-precision", type=float, default=None, help="exit 1 when precision is lower")
    args = ap.parse_args()

    oracle, stats = run_oracle(args.oracle, args.dir, args.jobs, args.oracle_cache)
    ours = run_dump(args.dump, args.dir)
    failed = {f["file"] for f in stats.get("parseFailureFiles", [])}

    def keep(r):
        parts = r["filePath"].split("/")
        return (r["kind"] in KINDS and r["filePath"] not in failed
                and not any(x in parts for x in args.exclude))

    oracle = [r for r in oracle if keep(r)]
    ours = [r for r in ours if keep(r)]
    tolerated = collections.Counter(r.get("messageResolution") for r in ours
                                    if r.get("messageResolution") in TOLERATED_RESOLUTIONS)
    ours = [r for r in ours if r.get("messageResolution") not in TOLERATED_RESOLUTIONS]
    oracle_at = collections.defaultdict(list)
    for r in oracle:
        oracle_at[(r["filePath"], r["lineNumber"], r["errorClass"])].append(r)
    for r in ours:
        expr = r.get("errorClassExpr") or ""
        if r.get("errorClass") and expr.startswith(CLASS_ATTRIBUTE_EXPR) and \
                oracle_at.get((r["filePath"], r["lineNumber"], None)):
            tolerated["class-attribute"] += 1
            r["errorClass"] = None
        elif r.get("errorClass") and expr.isidentifier() and expr != r["errorClass"] and \
                not oracle_at.get((r["filePath"], r["lineNumber"], r["errorClass"])) and \
                oracle_at.get((r["filePath"], r["lineNumber"], None)):
            tolerated["class-param-default"] += 1
            r["errorClass"] = None
    for r in ours:
        res = r.get("messageResolution") or ""
        if any(t in res for t in TOLERATED_PATTERN_TAGS):
            tolerated[res[res.index("+"):]] += 1
            same = oracle_at.get((r["filePath"], r["lineNumber"], r["errorClass"]))
            if same:
                r["messagePattern"] = same[0]["messagePattern"]
    ok = collections.Counter(map(key, oracle))
    uk = collections.Counter(map(key, ours))
    both = sum((ok & uk).values())
    recall = both / max(1, sum(ok.values()))
    precision = both / max(1, sum(uk.values()))

    by_line_o = collections.defaultdict(list)
    by_line_u = collections.defaultdict(list)
    for r in oracle:
        by_line_o[(r["filePath"], r["lineNumber"])].append(r)
    for r in ours:
        by_line_u[(r["filePath"], r["lineNumber"])].append(r)
    cats = collections.defaultdict(list)
    for loc, orecs in by_line_o.items():
        urecs = by_line_u.get(loc, [])
        ukeys = collections.Counter(map(key, urecs))
        for o in orecs:
            if ukeys[key(o)] > 0:
                ukeys[key(o)] -= 1
                continue
            if not urecs:
                cats["missing site (kind %s)" % o["kind"]].append((o, None))
                continue
            u = urecs[0]
            if u["errorClass"] != o["errorClass"]:
                cats["class differs (ours %s, oracle %s)" % ("null" if u["errorClass"] is None else "set",
                                                             "null" if o["errorClass"] is None else "set")].append((o, u))
            elif u["messagePattern"] is None:
                cats["pattern: ours null"].append((o, u))
            elif o["messagePattern"] is None:
                cats["pattern: oracle null"].append((o, u))
            else:
                cats["pattern differs"].append((o, u))
    for loc, urecs in by_line_u.items():
        if loc not in by_line_o:
            for u in urecs:
                cats["extra site (kind %s)" % u["kind"]].append((None, u))

    # agreement on other fields for sites matching on the key
    fields = ["errorMessage", "kind", "column", "endLineNumber", "function", "guards", "exceptContext", "cause",
              "assertCondition", "httpStatus", "dynamic", "inTests", "messageResolution", "messageExpr"]
    agree = collections.Counter()
    field_ex = collections.defaultdict(list)
    n_matched = 0
    umap = {}
    for u in ours:
        umap.setdefault((u["filePath"], u["lineNumber"], u["column"]), u)
    for o in oracle:
        u = umap.get((o["filePath"], o["lineNumber"], o["column"]))
        if u is None or key(u) != key(o):
            continue
        n_matched += 1
        for f in fields:
            if u.get(f) == o.get(f):
                agree[f] += 1
            elif len(field_ex[f]) < args.examples:
                field_ex[f].append((o["filePath"], o["lineNumber"], o.get(f), u.get(f)))

    print("oracle sites %d, ours %d, files failing oracle parse %d" % (sum(ok.values()), sum(uk.values()), len(failed)))
    print("recall %.4f  precision %.4f  (on file, line, errorClass, messagePattern)" % (recall, precision))
    if tolerated:
        print("tolerated (kinds the oracle does not model): " +
              ", ".join("%s %d" % (k, v) for k, v in sorted(tolerated.items())))
    print("\nmismatch categories:")
    for c, items in sorted(cats.items(), key=lambda kv: -len(kv[1])):
        print("  %6d  %s" % (len(items), c))
        for o, u in items[:args.examples]:
            r = o or u
            print("          %s:%d" % (r["filePath"], r["lineNumber"]))
            if o:
                print("            oracle: %s | %s" % (o["errorClass"], o["messagePattern"]))
            if u:
                print("            ours:   %s | %s" % (u["errorClass"], u["messagePattern"]))
    print("\nfield agreement on %d matched sites:" % n_matched)
    for f in fields:
        print("  %-18s %.4f" % (f, agree[f] / max(1, n_matched)))
        for ex in field_ex[f][:2] if agree[f] < n_matched else []:
            print("      %s:%d oracle=%r ours=%r" % (ex[0], ex[1], ex[2], ex[3]))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"recall": recall, "precision": precision, "oracle": sum(ok.values()), "ours": sum(uk.values()),
                       "categories": {c: len(v) for c, v in cats.items()},
                       "fieldAgreement": {f: agree[f] / max(1, n_matched) for f in fields}}, fh, indent=1)
    if args.min_recall is not None and recall < args.min_recall:
        print("FAIL: recall %.4f < %.4f" % (recall, args.min_recall))
        return 1
    if args.min_precision is not None and precision < args.min_precision:
        print("FAIL: precision %.4f < %.4f" % (precision, args.min_precision))
        return 1
    if sum(ok.values()) == 0:
        print("FAIL: the oracle found no sites in %s" % args.dir)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
