#!/usr/bin/env python3
"""Generates the real-world explain evaluation: runs small Python programs that
trigger errors in the standard library and the installed third-party packages,
captures their real stderr and the interpreter's own ground truth (gt_hook.py),
and derives the variants a user pastes (tests/realworld/README.md).

  gen_realworld.py OUT [--sample N] [--jobs J] [--stdlib whole|touched]

Writes into OUT:
  cases.jsonl    one line per (program, variant): input file, ground truth, split
  programs.jsonl one line per program run: status (kept / skipped and why)
  roots.json     the roots to scan into the catalog (copied under OUT/roots/)
  inputs/        the variant texts

Stdlib only. Programs run in `unshare -n` (no network) when it works here, else
plainly (they never need the network; a refused connection is what they want).
A program whose package is not installed is skipped, never failed.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import importlib.util

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import programs as program_table  # noqa: E402
import variants as variant_rules  # noqa: E402

STDLIB = os.path.realpath(sysconfig.get_paths()["stdlib"])
PURELIB = os.path.realpath(sysconfig.get_paths()["purelib"])


def program_id(pkg, code):
    return hashlib.sha1((pkg + "\0" + code).encode()).hexdigest()[:12]


def split_of(pid):
    """Held-out when the program's hash says so (a third of them): never tuned on."""
    return "heldout" if int(pid, 16) % 3 == 0 else "dev"


def unshare_prefix():
    exe = shutil.which("unshare")
    if not exe:
        return []
    try:
        ok = subprocess.run([exe, "-n", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        ok = False
    return [exe, "-n"] if ok else []


def run_program(pid, pkg, code, workdir, prefix, timeout):
    d = os.path.join(workdir, pid)
    os.makedirs(d, exist_ok=True)
    prog = os.path.join(d, "prog_%s.py" % pid)
    with open(prog, "w", encoding="utf-8") as f:
        f.write("import gt_hook\n" + code.strip("\n") + "\n")
    gt_path = os.path.join(d, "gt.json")
    env = dict(os.environ)
    env.update({
        "ERRDEX_GT_OUT": gt_path,
        "PYTHONPATH": HERE,
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "HOME": d,
        "AWS_EC2_METADATA_DISABLED": "true",
        "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE",
        "AWS_SECRET_ACCESS_KEY": "secret",
        "AWS_CONFIG_FILE": os.path.join(d, "aws_config"),
        "AWS_SHARED_CREDENTIALS_FILE": os.path.join(d, "aws_credentials"),
        "NO_COLOR": "1",
        "TERM": "dumb",
        "COLUMNS": "100",
    })
    for k in ("AWS_DEFAULT_REGION", "AWS_REGION", "AWS_PROFILE", "PYTHONWARNINGS", "PYTHONSTARTUP"):
        env.pop(k, None)
    if "ERRDEX_WARN" in code:
        env["ERRDEX_GT_WARNINGS"] = "1"
    t0 = time.monotonic()
    try:
        p = subprocess.run(prefix + [sys.executable, prog], cwd=d, env=env, capture_output=True, timeout=timeout,
                           stdin=subprocess.DEVNULL)
        stderr = p.stderr.decode("utf-8", "replace")
        rc = p.returncode
    except subprocess.TimeoutExpired:
        return None, "timeout"
    seconds = round(time.monotonic() - t0, 2)
    try:
        with open(gt_path, encoding="utf-8") as f:
            gt = json.load(f)
    except (OSError, ValueError):
        return None, "no ground truth (rc=%d)" % rc
    return {"stderr": stderr, "gt": gt, "rc": rc, "seconds": seconds}, None


def root_of(path):
    """(repo, scan root, path relative to it) of a file of the stdlib or of site-packages."""
    path = os.path.realpath(path)
    if path.startswith(PURELIB + os.sep):
        rel = path[len(PURELIB) + 1:]
        top = rel.split(os.sep)[0]
        name = top[:-3] if top.endswith(".py") else top
        return "pypi/" + name, top, rel
    if path.startswith(STDLIB + os.sep):
        rel = path[len(STDLIB) + 1:]
        return "python/cpython", rel.split(os.sep)[0], rel
    return None, None, None


def statement_at(path, line):
    """The logical statement starting at `line` (1-based), joined; '' when unreadable."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError:
        return ""
    if not 1 <= line <= len(lines):
        return ""
    return lines[line - 1].strip()


RAISE_RE = re.compile(r"^(raise|assert)\b")


def ground_truth(res):
    """The one error the user hit: a kept exception, else the first warning/log."""
    gt = res["gt"]
    exc = gt.get("exception")
    if exc:
        if exc["class"] in ("SystemExit", "KeyboardInterrupt"):
            return None, "SystemExit"
        stmt = statement_at(exc["file"], exc["line"])
        if not RAISE_RE.match(stmt):
            return None, "raised outside a raise/assert statement (C code or a re-raise): " + stmt[:60]
        return dict(exc, kind="exception", statement=stmt), None
    for w in gt.get("warnings", []):
        if "message" in w:
            return dict(w, kind="warning", statement=statement_at(w["file"], w["line"])), None
    for lg in gt.get("logs", []):
        return dict(lg, kind="log", statement=statement_at(lg["file"], lg["line"])), None
    return None, "no error"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--sample", type=int, default=0, help="run only every k-th program so that about N run (0 = all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--pkgs", default="", help="only programs of these packages (comma-separated; 'stdlib' for the standard library)")
    ap.add_argument("--stdlib", choices=["whole", "touched"], default="touched",
                    help="scan the whole stdlib (its test suite included) or only the modules the programs touch")
    args = ap.parse_args()

    out = os.path.abspath(args.out)
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "inputs"))
    work = tempfile.mkdtemp(prefix="errdex_realworld_")
    prefix = unshare_prefix()

    progs = [(program_id(pkg, code), pkg, code) for pkg, code in program_table.PROGRAMS]
    if args.pkgs:
        wanted = set(args.pkgs.split(","))
        progs = [p for p in progs if p[1] in wanted]
    ids = [p[0] for p in progs]
    if len(ids) != len(set(ids)):
        sys.exit("gen_realworld: duplicate programs in programs.py")
    if args.sample and args.sample < len(progs):
        progs = sorted(progs, key=lambda p: p[0])[:: max(1, len(progs) // args.sample)][: args.sample]

    status = []
    runnable = []
    for pid, pkg, code in progs:
        if pkg != "stdlib" and importlib.util.find_spec(pkg) is None:
            status.append({"id": pid, "pkg": pkg, "status": "skipped", "why": "package not installed"})
            continue
        runnable.append((pid, pkg, code))

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(run_program, pid, pkg, code, work, prefix, args.timeout): (pid, pkg, code)
                for pid, pkg, code in runnable}
        for fut in concurrent.futures.as_completed(futs):
            results[futs[fut][0]] = fut.result()

    cases = []
    roots = {}  # repo -> set of top-level entries to scan
    kept = 0
    for pid, pkg, code in runnable:
        res, why = results[pid]
        if res is None:
            status.append({"id": pid, "pkg": pkg, "status": "skipped", "why": why})
            continue
        gt, why = ground_truth(res)
        if gt is not None and res.get("seconds", 0) > 10:
            print("gen_realworld: %s (%s) took %.0fs" % (pid, pkg, res["seconds"]), file=sys.stderr)
        if gt is None:
            status.append({"id": pid, "pkg": pkg, "status": "skipped", "why": why})
            continue
        repo, top, rel = root_of(gt["file"])
        if repo is None:
            status.append({"id": pid, "pkg": pkg, "status": "skipped", "why": "raised outside the scanned roots: " + gt["file"]})
            continue
        if repo == "python/cpython" and rel.startswith("site-packages" + os.sep):
            status.append({"id": pid, "pkg": pkg, "status": "skipped", "why": "site-packages"})
            continue
        kept += 1
        split = split_of(pid)
        status.append({"id": pid, "pkg": pkg, "status": "kept", "split": split, "kind": gt["kind"],
                       "repo": repo, "file": rel, "line": gt["line"], "seconds": res["seconds"]})
        roots.setdefault(repo, set()).add(top)
        # Every stdlib module a traceback names is scanned too (frames point there).
        for m in re.finditer(r'File "([^"]+)"', res["stderr"]):
            r2, t2, _ = root_of(m.group(1))
            if r2:
                roots.setdefault(r2, set()).add(t2)
        for name, text in variant_rules.variants(pid, gt, res["stderr"]):
            fname = "%s.%s.txt" % (pid, name)
            with open(os.path.join(out, "inputs", fname), "w", encoding="utf-8") as f:
                f.write(text)
            cases.append({"id": pid, "pkg": pkg, "split": split, "variant": name, "input": "inputs/" + fname,
                          "kind": gt["kind"], "repo": repo, "file": rel, "line": gt["line"],
                          "function": gt.get("function", ""), "class": gt.get("class", "")})

    root_list = []
    for repo, tops in sorted(roots.items()):
        if repo == "python/cpython":
            base = STDLIB
            tops = None if args.stdlib == "whole" else sorted(tops)
        else:
            base = PURELIB
            tops = sorted(tops)
        root_list.append({"repo": repo, "base": base, "entries": tops})
    with open(os.path.join(out, "roots.json"), "w") as f:
        json.dump({"roots": root_list, "python": sys.executable, "version": sys.version.split()[0],
                   "unshare": bool(prefix)}, f, indent=1)
    with open(os.path.join(out, "cases.jsonl"), "w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    with open(os.path.join(out, "programs.jsonl"), "w", encoding="utf-8") as f:
        for s in sorted(status, key=lambda s: s["id"]):
            f.write(json.dumps(s, ensure_ascii=False) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    skipped = len(status) - kept
    print("gen_realworld: %d programs, %d kept (%d dev, %d held-out), %d skipped, %d cases%s" % (
        len(status), kept, sum(1 for s in status if s.get("split") == "dev"),
        sum(1 for s in status if s.get("split") == "heldout"), skipped, len(cases),
        "" if prefix else " (no unshare -n here: ran with the network namespace as is)"))


if __name__ == "__main__":
    main()
