#!/usr/bin/env bash
# prose_report.sh: the prose of the document stage on real repositories, as
# `errdex lint-docs` counts it (docs/document.md, "What the checker flags").
# One row per corpus: records, the user records (non-assert, outside tests),
# each check's count, the share of the messages' imperatives the solutions
# carry, the exampleFix and solutions shares of the user records, and how many
# records share their documentation with another.
#
#   bench/prose_report.sh [ERRDEX_BINARY] [CORPUS...]
#
# A CORPUS is a directory (a work tree) or a bare git mirror (/work/.mirror/
# owner+name/repo, scanned at HEAD); "stdlib" is the Python standard library
# of this machine (its .py files minus site-packages, copied once to
# $ERRDEX_BENCH_DIR/stdlib). Without CORPUS: stdlib and every mirror under
# $MIRRORS (default /work/.mirror). Catalogs and findings are kept in
# $ERRDEX_BENCH_DIR/prose/<name>.{db,findings.jsonl} for reading by hand
# (`errdex show ID --db ...`, or jq over the findings).
# Prints a Markdown table; no pass/fail (tests/prose/ holds the assertions).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$HERE")"
ERRDEX="${1:-$ROOT/build/errdex}"
shift || true
WORK="${ERRDEX_BENCH_DIR:-/tmp/errdex-bench}"
MIRRORS="${MIRRORS:-/work/.mirror}"
JOBS="${JOBS:-2}"
OUT="$WORK/prose"
[ -x "$ERRDEX" ] || { echo "prose_report: no errdex binary at $ERRDEX" >&2; exit 2; }
mkdir -p "$OUT"

stdlib_corpus() {
  local stdlib
  stdlib="${STDLIB:-$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')}"
  if [ ! -f "$WORK/stdlib.done" ]; then
    echo "prose_report: copying the .py files of $stdlib to $WORK/stdlib (once)" >&2
    rm -rf "$WORK/stdlib" && mkdir -p "$WORK/stdlib"
    (cd "$stdlib" && find . -path ./site-packages -prune -o -type f -name '*.py' -print0 |
       tar --null -T - -cf -) | tar -xf - -C "$WORK/stdlib"
    touch "$WORK/stdlib.done"
  fi
  echo "$WORK/stdlib"
}

corpora=("$@")
if [ ${#corpora[@]} -eq 0 ]; then
  corpora=(stdlib)
  for m in "$MIRRORS"/*/repo; do [ -d "$m" ] && corpora+=("$m"); done
fi

echo "| corpus | records | user | restated-guard | constant-guard | repeated-field | unfilled-placeholder | truncated-hint | identical-fix | imperative-dropped | flag-as-attribute | imperatives carried | exampleFix | solutions | shared doc |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for c in "${corpora[@]}"; do
  args=()
  if [ "$c" = stdlib ]; then
    path="$(stdlib_corpus)"; name=stdlib; args=(--repo python/stdlib)
  elif [ -d "$c/objects" ] || [ -f "$c/HEAD" ] && [ ! -d "$c/.git" ]; then
    path="$c"; name="$(basename "$(dirname "$c")")"; args=(--rev HEAD --repo "${name/+//}")
  else
    path="$c"; name="$(basename "$c")"
  fi
  db="$OUT/$name.db"
  rm -f "$db" "$db-wal" "$db-shm"
  rc=0
  "$ERRDEX" scan "$path" "${args[@]}" --db "$db" -j "$JOBS" --quiet >"$OUT/$name.scan.log" 2>&1 || rc=$?
  [ "$rc" -le 1 ] || { echo "prose_report: scan of $c failed (exit $rc), see $OUT/$name.scan.log" >&2; continue; }
  "$ERRDEX" lint-docs --db "$db" --json >"$OUT/$name.findings.jsonl" || true
  python3 - "$name" "$OUT/$name.findings.jsonl" <<'EOF'
import json, sys
name, path = sys.argv[1], sys.argv[2]
summary = None
for line in open(path, encoding="utf-8"):
    o = json.loads(line)
    if o["type"] == "summary":
        summary = o["data"]
if summary is None:
    print(f"| {name} | (no summary) |")
    sys.exit(0)
s = summary
pct = lambda a, b: f"{100.0 * a / b:.1f}%" if b else "-"
checks = ["restated-guard", "constant-guard", "repeated-field", "unfilled-placeholder", "truncated-hint",
          "identical-fix", "imperative-dropped", "flag-as-attribute"]
row = [name, s["records"], s["userRecords"]] + [s["checks"].get(c, 0) for c in checks]
row += [f'{s["imperativesCarried"]}/{s["imperatives"]} ({pct(s["imperativesCarried"], s["imperatives"])})',
        f'{s["userWithExampleFix"]} ({pct(s["userWithExampleFix"], s["userRecords"])})',
        f'{s["userWithSolutions"]} ({pct(s["userWithSolutions"], s["userRecords"])})',
        s["sharedDocumentation"]]
print("| " + " | ".join(str(x) for x in row) + " |")
EOF
done
