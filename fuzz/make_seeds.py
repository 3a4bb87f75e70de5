#!/usr/bin/env python3
"""Writes seed inputs for every fuzz target (fuzz/README.md) into OUT/<target>/.

Seeds come from what the machine has: the Python standard library, the JavaScript
and TypeScript of tests/web/node_modules, C/C++ headers under /usr/include, real
tracebacks made by running python3, the user's seed records (../shared/seeds) and
a catalog made by scanning a few stdlib files with the errdex binary. They are
then minimized into fuzz/corpus/<target>/ with libFuzzer's -merge=1 (the corpus
kept in the repository); this script is only needed to start over.

usage: fuzz/make_seeds.py OUT [--errdex build/errdex]
"""
import argparse
import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys
import sysconfig
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX = 64 * 1024  # the targets' -max_len


def put(out, target, data, selector=None):
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if selector is not None:
        data = bytes([selector]) + data
    if len(data) > MAX:
        return
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def files_under(root, exts, limit, rng, max_bytes=MAX, must_contain=None):
    found = []
    for dirpath, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "site-packages")
        for n in names:
            if n.endswith(exts):
                p = os.path.join(dirpath, n)
                try:
                    if os.path.getsize(p) <= max_bytes and (must_contain is None or must_contain in read(p)):
                        found.append(p)
                except OSError:
                    pass
    found.sort()
    rng.shuffle(found)
    return found[:limit]


def read(p):
    with open(p, "rb") as f:
        return f.read()


CHUNK = 3 * 1024  # small seeds: many more executions per CPU second


def chunks(data, needle):
    """Pieces of at most CHUNK bytes, cut at line ends, that contain `needle`."""
    out, cur = [], b""
    for line in data.splitlines(keepends=True):
        if len(cur) + len(line) > CHUNK and cur:
            out.append(cur)
            cur = b""
        cur += line[:CHUNK]
    if cur:
        out.append(cur)
    return [c for c in out if needle in c][:2]


TRACEBACK_PROGRAMS = [
    "import json; json.loads('{')",
    "int('abc')",
    "{}['missing_key']",
    "import os; os.stat('/nonexistent/file')",
    "def f():\n    raise ValueError('the widget pool is exhausted')\ntry:\n    f()\nexcept ValueError as e:\n    raise RuntimeError('could not serve') from e",
    "try:\n    1/0\nexcept ZeroDivisionError:\n    [].pop()",
    "assert 1 == 2, 'document must start with a brace'",
    "raise KeyError('no loader for x in r')",
    "import sys; sys.setrecursionlimit(60)\ndef r(n): return r(n+1)\nr(0)",
    "raise ExceptionGroup('many', [ValueError('a'), TypeError('b')])",
]

LOG_PREFIXES = ["", "vllm-1  | ", "[rank0]: ", "(EngineCore_DP0 pid=123) ", "ERROR 03-10 14:17:52 [core.py:12] ",
                "[2025-03-10 14:17:52 TP6] ", "2025-03-10T14:17:52.123Z ERROR app: ", "ERROR:root:",
                "\x1b[31mERROR\x1b[0m ", "worker-3 | [rank1]: "]


def tracebacks():
    out = []
    for prog in TRACEBACK_PROGRAMS:
        r = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True)
        out.append(r.stderr)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--errdex", default=os.path.join(ROOT, "build", "errdex"))
    a = ap.parse_args()
    rng = random.Random(15)
    out = a.out
    stdlib = sysconfig.get_paths()["stdlib"]

    py = files_under(stdlib, (".py",), 400, rng, 24 * 1024, must_contain=b"raise ")
    for i, p in enumerate(py):
        for b in chunks(read(p), b"raise "):
            put(out, "python_tokenizer", b)
            put(out, "python_extractor", b, selector=i % 256)
            if i < 150:
                put(out, "document_file", b, selector=(i * 8) % 256 & ~7 | (3 if i % 5 == 0 else 0))

    nm = os.path.join(ROOT, "tests", "web", "node_modules")
    for i, p in enumerate(files_under(nm, (".js", ".mjs"), 150, rng, 64 * 1024, must_contain=b"throw ")):
        for b in chunks(read(p), b"throw "):
            put(out, "js_extractor", b, selector=(i % 2) << 2)
            if i < 20:
                put(out, "document_file", b, selector=4)
    for i, p in enumerate(files_under(nm, (".ts", ".tsx"), 100, rng, 64 * 1024, must_contain=b"throw ")):
        if p.endswith(".d.ts"):
            continue
        for b in chunks(read(p), b"throw "):
            put(out, "js_extractor", b, selector=(2 + i % 2) << 2)
            if i < 20:
                put(out, "document_file", b, selector=5)

    cpp = files_under("/usr/include/c10", (".h",), 120, rng, 64 * 1024, must_contain=b"TORCH_CHECK") + \
        files_under("/usr/include/pybind11", (".h",), 60, rng, 64 * 1024, must_contain=b"throw ")
    for i, p in enumerate(cpp):
        data = read(p)
        for b in chunks(data, b"TORCH_CHECK" if b"TORCH_CHECK" in data else b"throw")[:1]:
            put(out, "cpp_extractor", b, selector=i % 8)
            if i < 20:
                put(out, "document_file", b, selector=7)
    gen = tempfile.mkdtemp()
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "diff", "gen_cpp_corpus.py"), gen, "--files", "30"],
                   check=True, capture_output=True)
    for i, p in enumerate(files_under(gen, (".cu", ".cc", ".h", ".cuh", ".cpp"), 30, rng)):
        for b in chunks(read(p), b"")[:2]:
            put(out, "cpp_extractor", b, selector=2 if p.endswith((".cu", ".cuh")) else 0)

    # Format strings and messages: the string literals of stdlib raises.
    formats = []
    for p in py[:200]:
        for line in read(p).decode("utf-8", "replace").splitlines():
            if "raise" in line and ('%' in line or '{' in line or 'format' in line):
                formats.append(line.strip())
    rng.shuffle(formats)
    for i, f in enumerate(formats[:300]):
        lit = f[f.find("(") + 1:] if "(" in f else f
        put(out, "message_eval", lit.replace("{", "\x01{").replace("}", "}\x01") + "\x00arg\x00\x01hole\x01",
            selector=i % 256)
    for s in ["%s and %d of %(name)r", "{} {0} {name!r:>8} {{literal}}", "%5.2f%% done", "{0}\x02{1}\x03 tail",
              "a\x02b\x02c\x03 and \x01x\x01", "'{}' {1,number} ''quoted''", "%[1]d %v %n %%", "\\{} {} {}"]:
        for sel in range(8):
            put(out, "message_eval", s + "\x00one\x00two", selector=sel)

    tbs = tracebacks()
    for i, tb in enumerate(tbs):
        for j, prefix in enumerate(LOG_PREFIXES):
            text = "".join(prefix + line + "\n" for line in tb.splitlines())
            put(out, "traceback", text)
            put(out, "explain_session", text, selector=(i * 10 + j) % 256)
    for msg in ["ValueError: path must not be empty", "ConfigError: unknown mode 'x' for /etc/a",
                "OSError: path is too long: 5000 bytes", "KeyError: 'no loader for a in w'",
                "AssertionError: document must start with a brace",
                "SyntaxError: tabs are not allowed\nuse spaces instead",
                "TypeError: empty document given", "fastapi.exceptions.HTTPException: Item not found in the store",
                "ERROR:app.service:request GET failed after 3 retries", "RuntimeError: <Request> could not be served",
                "The value is 5", "got:hello-stdin"]:
        for sel in (0, 4, 8, 16, 32, 64 + 3):
            put(out, "explain_session", msg + "\n", selector=sel)
        put(out, "traceback", msg + "\n")

    # Records: the user's seeds, and a scanned catalog with facts.
    seeds_dir = os.path.join(ROOT, "..", "shared", "seeds")
    lines = []
    for n in sorted(os.listdir(seeds_dir)):
        lines.append(read(os.path.join(seeds_dir, n)).rstrip(b"\n"))
    work = tempfile.mkdtemp()
    src = os.path.join(work, "src")
    os.makedirs(src)
    for p in py[:6]:
        with open(os.path.join(src, os.path.basename(p)), "wb") as f:
            f.write(read(p))
    db = os.path.join(work, "c.db")
    subprocess.run([a.errdex, "scan", src, "--repo", "o/n", "--sha", "a" * 40, "--db", db, "-q"], check=True)
    exported = subprocess.run([a.errdex, "export", "--db", db, "--facts"], check=True, capture_output=True).stdout
    lines += exported.splitlines()[:40]
    for i, l in enumerate(lines):
        put(out, "record_json", l, selector=0)
        obj = json.loads(l)
        put(out, "record_json", json.dumps(obj["record"], ensure_ascii=False, separators=(",", ":")), selector=1)
        put(out, "jsonl_import", l + b"\n", selector=i % 4)
    put(out, "jsonl_import", b"\n".join(lines[:8]) + b"\n", selector=0)
    # Patterns as an imported catalog carries them, with the messages they should find.
    recs = [json.loads(l)["record"] for l in lines]
    pairs = [(r["messagePattern"], r["errorMessage"]) for r in recs if r.get("messagePattern")]
    for i in range(0, len(pairs), 4):
        chunk = pairs[i:i + 4]
        put(out, "catalog_patterns", "\n".join(p for p, _ in chunk) + "\x00" + "\n".join(
            "ValueError: " + (m or "") for _, m in chunk))
    for hostile in ["(a+)+$\x00" + "a" * 40 + "b", "error: (a+)+b\x00error: " + "a" * 30 + "c",
                    "duplicate key (\\w+) and again \\1 here\x00duplicate key foo and again foo here",
                    "(?:x|y){50}z\nbad regex ((( here\n(.*?)\x00xyz", "a{0,1000}b{0,1000}c{0,1000}d\x00abcd",
                    "(?=lookahead)ahead (\\d+) items\x00lookahead 12 items", "[^\\n]*tail (.*?)\x00x tail y"]:
        put(out, "catalog_patterns", hostile)
    con = sqlite3.connect(db)
    for (key, value) in con.execute("SELECT key, bytes FROM blobs"):
        if str(key).startswith("knowledge:") and len(value) < MAX:
            put(out, "record_json", value, selector=3)
            blob = json.loads(value)
            for ctx in list(blob.get("sites", {}).values())[:20]:
                put(out, "record_json", json.dumps(ctx), selector=2)
    con.close()


if __name__ == "__main__":
    main()
