#!/usr/bin/env python3
"""The errdex check corpus: precision and recall of `errdex check` against the
real program, run by python3.

For each (seed, style) a program is generated (gen_corpus.py), scanned into a
catalog, and run with random command lines, environment variables and GPUs:
  1. the real program, as is: the error it raises first (a traceback's last
     frame) or argparse's usage error, or none;
  2. the real program under a tracer that skips every raise (and failing
     assert) it reaches and lets the program go on: every error the command
     line leads to, in order -- the first of them must be (1)'s;
  3. errdex check on the same command line and environment (no GPU: check
     cannot see the file the run reads).
Precision: every WILL is an error of (2) (100% required). Recall: every error of
(2) is WILL or MAY (100% required). Usage errors: check's first message must be
argparse's. Decided share: the errors check called WILL rather than MAY, and the
command lines check answered completely (no MAY at all).

usage: check_corpus.py --errdex BIN --out DIR [--seeds 1,2] [--styles argparse,dataclass]
                       [--combos N] [--jobs 2] [--json SUMMARY]
exit 0 when precision and recall are 100% and every usage error matched, 1 otherwise.
"""
import argparse
import ast
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

TRACER = r'''
import ast, json, os, runpy, sys
meta = json.load(open(sys.argv[1]))
out_path = sys.argv[2]
sys.argv = ["corp"] + sys.argv[3:]
raises = {(f, l): t for f, l, t in meta["raises"]}
asserts = {}
for f, l, t, src in meta["asserts"]:
    asserts[(f, l)] = (t, compile(src, f, "eval"))
files = set(meta["files"])
fired = []
def tracer(frame, event, arg):
    if event == "call":
        return tracer if frame.f_code.co_filename in files else None
    if event == "line":
        key = (frame.f_code.co_filename, frame.f_lineno)
        if key in raises:
            fired.append(list(key))
            if raises[key] is not None:
                frame.f_lineno = raises[key]
        elif key in asserts:
            target, code = asserts[key]
            if not eval(code, frame.f_globals, frame.f_locals):
                fired.append(list(key))
                if target is not None:
                    frame.f_lineno = target
    return tracer
outcome = {"exit": 0}
sys.settrace(tracer)
try:
    runpy.run_module("corp.main", run_name="__main__", alter_sys=True)
except SystemExit as e:
    outcome = {"exit": e.code if isinstance(e.code, int) else (0 if e.code is None else 1)}
except BaseException as e:
    tb = e.__traceback__
    last = None
    while tb is not None:
        last = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    outcome = {"exception": type(e).__name__, "where": list(last) if last else None}
finally:
    sys.settrace(None)
json.dump({"fired": fired, "outcome": outcome}, open(out_path, "w"))
'''


def next_line(stack):
    """The line executed next if the statement at the top of `stack` were a no-op.
    stack: [(body list, index)], innermost last."""
    for body, idx, owner in reversed(stack):
        if idx + 1 < len(body):
            return body[idx + 1].lineno
        if isinstance(owner, (ast.For, ast.While, ast.AsyncFor)):
            return None  # the loop's next iteration: the generator avoids this
        if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            return None
    return None


def tracer_meta(tree_dir):
    raises, asserts, files = [], [], []
    for name in sorted(os.listdir(os.path.join(tree_dir, "corp"))):
        if not name.endswith(".py"):
            continue
        path = os.path.realpath(os.path.join(tree_dir, "corp", name))
        files.append(path)
        mod = ast.parse(open(path).read())

        def walk(body, owner, stack):
            for i, st in enumerate(body):
                here = stack + [(body, i, owner)]
                if isinstance(st, ast.Raise):
                    raises.append([path, st.lineno, next_line(here)])
                elif isinstance(st, ast.Assert):
                    asserts.append([path, st.lineno, next_line(here), ast.unparse(st.test)])
                for field in ("body", "orelse", "finalbody"):
                    sub = getattr(st, field, None)
                    if sub and isinstance(sub, list) and isinstance(sub[0], ast.stmt):
                        # an if's branches continue after the whole if; a def's body is its own
                        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                            walk(sub, st, [])
                        else:
                            walk(sub, st, here)
                for h in getattr(st, "handlers", []) or []:
                    walk(h.body, st, here)

        walk(mod.body, mod, [])
    return {"raises": raises, "asserts": asserts, "files": files}


def run(cmd, cwd, env, timeout=60):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def first_error(rc, err, tree):
    m = [l for l in err.splitlines() if l.startswith("corp: error: ")]
    if rc == 2 and m:
        return {"usage": m[-1][len("corp: error: "):]}
    frames = re.findall(r'File "([^"]+)", line (\d+)', err)
    if rc != 0 and frames:
        f, l = frames[-1]
        return {"error": [os.path.relpath(os.path.realpath(f), os.path.realpath(tree)), int(l)]}
    return {}


def make_combo(rng, flags, envs, hw_dir):
    args = []
    invalid = rng.random() < 0.05
    for f in flags["flags"]:
        if rng.random() > 0.12:
            continue
        if f["kind"] == "bool":
            if f.get("negative") and rng.random() < 0.5:
                args.append(f["negative"])
            else:
                args.append(f["option"])
            continue
        value = rng.choice(f["values"])
        if rng.random() < 0.5:
            args += [f["option"]] + value.split(" ")
        else:
            if " " in value:
                args += [f["option"]] + value.split(" ")
            else:
                args.append(f["option"] + "=" + value)
    if invalid:
        kind = rng.randint(0, 2)
        if kind == 0:
            choice = [f for f in flags["flags"] if f["kind"] == "choice"]
            args += [rng.choice(choice)["option"], "nope"]
        elif kind == 1:
            ints = [f for f in flags["flags"] if f["kind"] == "int"]
            args += [rng.choice(ints)["option"], "x1"]
        else:
            args += ["--bogus-flag", "1"]
    env = {}
    for e in envs:
        r = rng.random()
        if r < 0.3:
            env[e] = "1"
        elif r < 0.5:
            env[e] = "0"
    hw = rng.choice([None, 70, 80, 90, 100])
    return args, env, hw


def check_tree(opts, seed, style, combos):
    base = os.path.join(opts.out, "seed%d-%s" % (seed, style))
    shutil.rmtree(base, ignore_errors=True)
    tree = os.path.join(base, "tree")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_corpus.py"), tree, "--seed", str(seed), "--style", style], check=True)
    db = os.path.join(base, "catalog.db")
    r = subprocess.run([opts.errdex, "scan", tree, "--repo", "corpus/seed%d-%s" % (seed, style), "--sha", "%040x" % seed,
                        "--db", db, "-q"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("scan failed: " + r.stderr)
    flags = json.load(open(os.path.join(tree, "flags.json")))
    meta = tracer_meta(tree)
    meta_path = os.path.join(base, "tracer.json")
    json.dump(meta, open(meta_path, "w"))
    tracer_path = os.path.join(base, "tracer.py")
    open(tracer_path, "w").write(TRACER)
    hw_dir = os.path.join(base, "hw")
    os.makedirs(hw_dir, exist_ok=True)
    for cap in (70, 80, 90, 100):
        json.dump({"capability": cap}, open(os.path.join(hw_dir, "%d.json" % cap), "w"))
    rng = random.Random(seed * 7919 + (0 if style == "argparse" else 1))
    work = [make_combo(rng, flags, flags["envs"], hw_dir) for _ in range(combos)]

    def one(k):
        args, env, hw = work[k]
        penv = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": tree, "PYTHONDONTWRITEBYTECODE": "1"}
        penv.update(env)
        if hw is not None:
            penv["CORP_HW_FILE"] = os.path.join(hw_dir, "%d.json" % hw)
        rc, out, err = run([sys.executable, "-m", "corp.main"] + args, tree, penv)
        first = first_error(rc, err, tree)
        trace_out = os.path.join(base, "trace%d.json" % k)
        run([sys.executable, tracer_path, meta_path, trace_out] + args, tree, penv)
        traced = json.load(open(trace_out))
        os.remove(trace_out)
        env_file = os.path.join(base, "env%d" % k)
        with open(env_file, "w") as fh:
            for key, v in env.items():
                fh.write("%s=%s\n" % (key, v))
        rc2, out2, err2 = run([opts.errdex, "check", "--json", "--no-environ", "--env-file", env_file, "--db", db, "--",
                               "python", "-m", "corp.main"] + args, tree, penv)
        os.remove(env_file)
        lines = [json.loads(l) for l in out2.splitlines() if l.strip()]
        return {"k": k, "args": args, "env": env, "hw": hw, "first": first, "traced": traced, "check_rc": rc2,
                "check_err": err2, "check": lines, "tree": tree}

    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as ex:
        results = list(ex.map(one, range(combos)))
    return results


def score(results, stats, failures):
    for r in results:
        tree = os.path.realpath(r["tree"])
        will = {(d["data"]["filePath"], d["data"]["lineNumber"]) for d in r["check"] if d["type"] == "will"}
        may = {(d["data"]["filePath"], d["data"]["lineNumber"]) for d in r["check"] if d["type"] == "may"}
        usage = [d["data"]["message"] for d in r["check"] if d["type"] == "usage"]
        stats["combos"] += 1
        if r["check_rc"] not in (0, 1):
            stats["check_failed"] += 1
            failures.append({"why": "check failed", "args": r["args"], "stderr": r["check_err"][:500]})
            continue
        if "usage" in r["first"]:
            stats["usage_combos"] += 1
            if usage and usage[0] == r["first"]["usage"]:
                stats["usage_matched"] += 1
            else:
                failures.append({"why": "usage error differs", "args": r["args"], "python": r["first"]["usage"],
                                 "check": usage[:1]})
            continue
        if usage:
            stats["usage_false"] += 1
            failures.append({"why": "check reports a usage error python does not", "args": r["args"], "check": usage[:1]})
            continue
        fired = [(os.path.relpath(f, tree), l) for f, l in r["traced"]["fired"]]
        outcome = r["traced"]["outcome"]
        if "exception" in outcome:
            stats["unexpected"] += 1
            failures.append({"why": "the program failed outside a raise site", "args": r["args"], "outcome": outcome})
        real = set(fired)
        # the first error of the plain run is the first the tracer saw
        if "error" in r["first"]:
            if not fired or tuple(r["first"]["error"]) != fired[0]:
                stats["first_mismatch"] += 1
                failures.append({"why": "first error differs from the traced run", "args": r["args"],
                                 "first": r["first"], "fired": fired[:3]})
        stats["real_errors"] += len(real)
        stats["combos_with_errors"] += 1 if real else 0
        for w in will:
            if w in real:
                stats["will_true"] += 1
            else:
                stats["will_false"] += 1
                failures.append({"why": "WILL but the program does not raise it", "args": r["args"], "env": r["env"],
                                 "hw": r["hw"], "site": w, "fired": sorted(real)})
        for e in real:
            if e in will:
                stats["real_will"] += 1
            elif e in may:
                stats["real_may"] += 1
            else:
                stats["missed"] += 1
                failures.append({"why": "raised but check says neither WILL nor MAY", "args": r["args"], "env": r["env"],
                                 "hw": r["hw"], "site": e})
        stats["may_total"] += len(may)
        stats["may_not_raised"] += len(may - real)
        if not may:
            stats["fully_decided"] += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--errdex", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--styles", default="argparse,dataclass")
    ap.add_argument("--combos", type=int, default=300, help="command lines per (seed, style)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write the summary here")
    opts = ap.parse_args()
    opts.errdex = os.path.abspath(opts.errdex)
    opts.out = os.path.abspath(opts.out)
    os.makedirs(opts.out, exist_ok=True)
    keys = ["combos", "usage_combos", "usage_matched", "usage_false", "check_failed", "combos_with_errors", "real_errors",
            "will_true", "will_false", "real_will", "real_may", "missed", "may_total", "may_not_raised", "fully_decided",
            "first_mismatch", "unexpected"]
    stats = {k: 0 for k in keys}
    failures = []
    programs = []
    for seed in [int(s) for s in opts.seeds.split(",")]:
        for style in opts.styles.split(","):
            results = check_tree(opts, seed, style, opts.combos)
            flags = json.load(open(os.path.join(opts.out, "seed%d-%s" % (seed, style), "tree", "flags.json")))
            programs.append({"seed": seed, "style": style, "flags": len(flags["flags"]), "raises": flags["raises"]})
            score(results, stats, failures)
    wills = stats["will_true"] + stats["will_false"]
    summary = dict(stats)
    summary["programs"] = programs
    summary["precision"] = stats["will_true"] / wills if wills else 1.0
    summary["recall"] = (stats["real_will"] + stats["real_may"]) / stats["real_errors"] if stats["real_errors"] else 1.0
    summary["decided_share_of_errors"] = stats["real_will"] / stats["real_errors"] if stats["real_errors"] else 1.0
    runnable = stats["combos"] - stats["usage_combos"] - stats["check_failed"]
    summary["decided_share_of_command_lines"] = stats["fully_decided"] / runnable if runnable else 1.0
    summary["failures"] = failures[:20]
    text = json.dumps(summary, indent=1)
    print(text)
    if opts.json:
        open(opts.json, "w").write(text)
    ok = (stats["will_false"] == 0 and stats["missed"] == 0 and stats["usage_combos"] == stats["usage_matched"] and
          stats["usage_false"] == 0 and stats["check_failed"] == 0 and stats["unexpected"] == 0 and
          stats["first_mismatch"] == 0 and all(p["flags"] >= 30 and p["raises"] >= 50 for p in programs))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
