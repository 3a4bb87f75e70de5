#!/usr/bin/env bash
# lang_bench.sh: the speed of errdex's C/C++/CUDA, Rust, Go, Java and JS/TS front ends
# beside ripgrep (finding the sink lines) and each language's oracle (the compiler
# front end of tests/diff/lang_oracle.py and cpp_oracle.py), in CPU seconds (user +
# sys, so a loaded machine does not distort it) and MB per CPU second: "per core".
# `errdex scan` runs with -j 1, every record written (JSON Lines to a file, --no-docs:
# the document stage is another stage's cost). Prints numbers, no pass/fail; run the
# differential tests (ctest -R DiffOracle) for correctness first.
#
#   bench/lang_bench.sh [BUILD_DIR] [LANG=CORPUS ...]
#
# Default corpora: cpp = $FLASHINFER/csrc + include (a fetched flashinfer-ai/flashinfer
# work tree, when FLASHINFER is set) else the libtorch headers; rust = Debian's crate
# registry; go = GOROOT/src; java = the JDK sources the DiffOracle.JavaOracleBuild test
# unpacked; ts = tests/web/node_modules. The oracles are the ones ctest built in
# BUILD_DIR (run `ctest -R OracleBuild` once). The C/C++ oracle (clang-19's JSON AST,
# tests/diff/cpp_oracle.py) is not timed here: it runs three clang passes per file
# (about 5-15 files per second).
set -uo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$HERE")"
BUILD="${1:-$ROOT/build}"
shift || true
ERRDEX="$BUILD/errdex"
WORK="${ERRDEX_BENCH_DIR:-/tmp/errdex-bench}/lang"
mkdir -p "$WORK"
[ -x "$ERRDEX" ] || { echo "lang_bench: no errdex at $ERRDEX" >&2; exit 2; }

declare -A CORPUS
if [ -n "${FLASHINFER:-}" ]; then
  rm -rf "$WORK/cpp" && mkdir -p "$WORK/cpp" && cp -r "$FLASHINFER/csrc" "$FLASHINFER/include" "$WORK/cpp/"
  CORPUS[cpp]="$WORK/cpp"
elif [ -d /usr/include/ATen ]; then
  CORPUS[cpp]=/usr/include/ATen
fi
[ -d /usr/share/cargo/registry ] && CORPUS[rust]=/usr/share/cargo/registry
command -v go >/dev/null && CORPUS[go]="$(go env GOROOT)/src"
[ -d "$BUILD/java_oracle/jdk" ] && CORPUS[java]="$BUILD/java_oracle/jdk"
[ -d "$ROOT/tests/web/node_modules" ] && CORPUS[ts]="$ROOT/tests/web/node_modules"
for kv in "$@"; do CORPUS[${kv%%=*}]="${kv#*=}"; done

declare -A EXT=([cpp]='c|cc|cpp|cxx|h|hh|hpp|hxx|cu|cuh|inl' [rust]='rs' [go]='go' [java]='java'
                [ts]='js|mjs|cjs|jsx|ts|mts|cts|tsx')
declare -A SINKS=(
  [cpp]='TORCH_CHECK|TORCH_INTERNAL_ASSERT|AT_ERROR|TVM_FFI_[A-Z_]*|FLASHINFER_[A-Z_]*|CHECK(_[A-Z]+)?\(|LOG\(|throw |PyErr_'
  [rust]='panic!|unreachable!|todo!|unimplemented!|assert(_eq|_ne)?!|\.expect\(|anyhow!|bail!|ensure!|error!|warn!|#\[error|Err\('
  [go]='errors\.New|Errorf|panic\(|Fatal|\.Error\(|\.Warn|http\.Error|status\.Error'
  [java]='throw new|check(Argument|State|NotNull)|requireNonNull|\.(error|warn|severe|warning)\('
  [ts]='throw |console\.(error|warn)|\.(error|warn)\(|createError|status\([45][0-9][0-9]\)')
declare -A ORACLE=(
  [rust]="$BUILD/rust_oracle/target/release/rust_oracle"
  [go]="$BUILD/go_oracle/go_oracle"
  [java]="java -cp $BUILD/java_oracle/classes JavaOracle"
  [ts]="node $ROOT/tests/diff/ts_oracle/ts_oracle.js")

# cpu CMD...: user+sys CPU seconds of one run (the best of 3), output discarded.
cpu() {
  local best=""
  for _ in 1 2 3; do
    /usr/bin/time -f '%U %S' -o "$WORK/time" "$@" >/dev/null 2>"$WORK/stderr" || true
    local t
    t=$(awk '{printf "%.3f", $1 + $2}' <"$WORK/time" | tail -1)
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  echo "$best"
}

printf '%-5s %7s %8s | %-24s | %-18s | %-24s\n' lang files MB 'errdex -j1 (CPU s, MB/s)' 'rg (CPU s)' 'oracle (CPU s, MB/s)'
for lang in cpp rust go java ts; do
  dir="${CORPUS[$lang]:-}"
  [ -n "$dir" ] && [ -d "$dir" ] || { echo "$lang: no corpus"; continue; }
  find "$dir/" -type f -regextype posix-extended -regex ".*\.(${EXT[$lang]})" -not -path '*/node_modules/*/node_modules/*' \
    -printf '%P\n' | LC_ALL=C sort >"$WORK/$lang.files"
  files=$(wc -l <"$WORK/$lang.files")
  bytes=$( (cd "$dir" && tr '\n' '\0' <"$WORK/$lang.files" | du -cb --files0-from=- 2>/dev/null | tail -1 | cut -f1) )
  mb=$(awk "BEGIN{printf \"%.1f\", $bytes/1e6}")
  e=$(cpu "$ERRDEX" scan "$dir" --repo bench/"$lang" --sha "$(printf '0%.0s' {1..40})" --no-docs -j 1 --quiet -o "$WORK/$lang.jsonl")
  r=$(cpu rg -c -e "${SINKS[$lang]}" --type-add "x:*.{${EXT[$lang]//|/,}}" -t x "$dir")
  o="-"
  orc="${ORACLE[$lang]:-}"
  if [ -n "$orc" ] && [ -e "${orc%% *}" -o -n "$(command -v "${orc%% *}")" ]; then
    o=$(cpu sh -c "$orc '$dir' - <'$WORK/$lang.files'")
  fi
  rate() { awk "BEGIN{ if ($1 > 0) printf \"%.1f\", $bytes/1e6/$1; else print \"-\" }"; }
  printf '%-5s %7s %8s | %8s s %8s MB/s | %8s s         | %8s s %8s MB/s\n' "$lang" "$files" "$mb" "$e" "$(rate "$e")" \
    "$r" "$o" "$( [ "$o" = - ] && echo - || rate "$o")"
done
