#!/bin/sh
# make_tasks.sh DIR: two generated git repositories (alpha, beta) of ten commits
# each under DIR, and DIR/tasks listing the 20 (repo, rev, owner/name) lines
# deploy/slurm takes -- the input of both Slurm tests.
set -eu
t=${1:?directory}
: >"$t/tasks"
for r in alpha beta; do
  mkdir -p "$t/$r/pkg" && git -C "$t/$r" init -q
  for i in $(seq 1 10); do
    printf 'def f%s(x):\n    if x < %s:\n        raise ValueError("x below %s in %s")\n' "$i" "$i" "$i" "$r" >"$t/$r/pkg/m$i.py"
    printf 'def g(y):\n    raise KeyError("version %s of %s")\n' "$i" "$r" >"$t/$r/pkg/common.py"
    git -C "$t/$r" add -A && git -C "$t/$r" -c user.name=t -c user.email=t@example.com commit -qm "c$i"
    echo "$t/$r $(git -C "$t/$r" rev-parse HEAD) o/$r" >>"$t/tasks"
  done
done
[ "$(grep -c . "$t/tasks")" = 20 ] || { echo "make_tasks: expected 20 tasks" >&2; exit 1; }
