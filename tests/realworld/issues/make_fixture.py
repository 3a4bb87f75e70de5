#!/usr/bin/env python3
"""Authoring tool (not run by the tests): copies the code around one located raise
site into the fixture tree, at its real path and its real line numbers.

  make_fixture.py --repo OWNER/NAME --commit SHA --path P --line N
                  (--git-dir MIRROR | --file LOCAL_COPY)

What is copied (Python's own ast decides the extents): the whole function that holds
line N (with its decorators), the header line of each enclosing class, and the
module-level assignments of the names that function uses (a message template
kept in a module constant). Everything else stays blank, so the scanner sees the
statement where the project has it. Several sites of one file merge into one tree
file; each commit of a repo has its own directory (tree/OWNER__NAME@SHA12/),
scanned as that version of the repo. The file's origin is appended to
tree/SOURCES.tsv (repo, commit, path): the projects' licences apply to these lines.
"""
import argparse
import ast
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TREE = os.path.join(HERE, "tree")


def ranges_for(src, line):
    tree = ast.parse(src)
    best = None
    classes = []

    def visit(node, stack):
        nonlocal best, classes
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                start = min([d.lineno for d in child.decorator_list] + [child.lineno])
                if start <= line <= child.end_lineno:
                    if isinstance(child, ast.ClassDef):
                        visit(child, stack + [child])
                    else:
                        if best is None or start >= best[0]:
                            best = (start, child.end_lineno, child)
                            classes = list(stack)
                        visit(child, stack)
            elif hasattr(child, "body") or hasattr(child, "orelse"):
                visit(child, stack)

    visit(tree, [])
    out = []
    if best is None:  # module level: the statement itself
        for stmt in tree.body:
            if stmt.lineno <= line <= stmt.end_lineno:
                out.append((stmt.lineno, stmt.end_lineno))
        used = set()
        for stmt in tree.body:
            if stmt.lineno <= line <= stmt.end_lineno:
                used |= {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
    else:
        out.append((best[0], best[1]))
        for c in classes:
            out.append((c.lineno, c.lineno))
        used = {n.id for n in ast.walk(best[2]) if isinstance(n, ast.Name)}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            if names & used:
                out.append((stmt.lineno, stmt.end_lineno))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--path", required=True)
    ap.add_argument("--line", type=int, required=True)
    ap.add_argument("--git-dir")
    ap.add_argument("--file")
    args = ap.parse_args()
    if args.git_dir:
        src = subprocess.run(["git", "--git-dir", args.git_dir, "show", "%s:%s" % (args.commit, args.path)],
                             check=True, capture_output=True).stdout.decode("utf-8")
    else:
        src = open(args.file, encoding="utf-8").read()
    lines = src.split("\n")
    # One directory per (repo, commit): each is scanned as its own version of the repo.
    dest = os.path.join(TREE, "%s@%s" % (args.repo.replace("/", "__"), args.commit[:12]), args.path)
    sources = os.path.join(TREE, "SOURCES.tsv")
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    rows = []
    if os.path.exists(sources):
        rows = [l.rstrip("\n").split("\t") for l in open(sources) if l.strip()]
    have = open(dest, encoding="utf-8").read().split("\n") if os.path.exists(dest) else []
    out = have + [""] * max(0, len(lines) - len(have))
    for a, b in ranges_for(src, args.line):
        for i in range(a - 1, b):
            if out[i] and out[i] != lines[i]:
                sys.exit("make_fixture: line %d differs from the tree's copy" % (i + 1))
            out[i] = lines[i]
    while out and out[-1] == "":
        out.pop()
    with open(dest, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    if not any(r[0] == args.repo and r[1] == args.commit and r[2] == args.path for r in rows):
        with open(sources, "a") as f:
            f.write("%s\t%s\t%s\n" % (args.repo, args.commit, args.path))
    print("%s:%d -> %s" % (args.path, args.line, os.path.relpath(dest, HERE)))


if __name__ == "__main__":
    main()
