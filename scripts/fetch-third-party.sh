#!/usr/bin/env bash
# Fetches the pinned tree-sitter C sources errdex builds its JavaScript/TypeScript,
# Rust, Go and Java front ends from (cmake/tree_sitter.cmake) into third_party/ (git-ignored).
#
# Source: the npm registry only, through `npm pack` (nothing else downloads).
# Pins (each tarball's sha512 is checked against the constant below BEFORE unpacking):
#   tree-sitter@0.25.1              core C library, vendored in the tarball at
#                                   package/vendor/tree-sitter/lib/{src/lib.c,include/}
#                                   (accepts grammar ABI 13..15)
#   tree-sitter-javascript@0.25.0   src/parser.c (LANGUAGE_VERSION 15) + src/scanner.c
#   tree-sitter-typescript@0.23.2   typescript/src and tsx/src parser.c (LANGUAGE_VERSION 14)
#                                   + scanner.c, and common/scanner.h they include
#   tree-sitter-rust@0.24.0         src/parser.c (LANGUAGE_VERSION 15) + src/scanner.c
#   tree-sitter-go@0.25.0           src/parser.c (LANGUAGE_VERSION 15)
#   tree-sitter-java@0.23.5         src/parser.c (LANGUAGE_VERSION 14)
#   (C/C++/CUDA has its own token-level front end, src/extract/cpp/: no grammar)
#
# Layout produced:
#   third_party/tree-sitter/lib/{src,include}          + LICENSE, .errdex-pin
#   third_party/tree-sitter-javascript/src/            + LICENSE, .errdex-pin
#   third_party/tree-sitter-typescript/{typescript,tsx}/src/, common/ + LICENSE, .errdex-pin
#   third_party/tree-sitter-{rust,go,java}/src/        + LICENSE, .errdex-pin
#
# Idempotent: a package whose .errdex-pin already names the pinned version and
# integrity is skipped. Exits non-zero with a message on any failure (npm
# missing, download failure, checksum mismatch, expected file missing).
# Usage: scripts/fetch-third-party.sh [--force]
set -euo pipefail
cd "$(dirname "$0")/.."

readonly TREE_SITTER_VERSION="0.25.1"
readonly TREE_SITTER_INTEGRITY="sha512-mrcEdkYtHfrK1A6fs3O6FxkBo0Qig5XUXqHhxUOQu0bmPo00QF4XaSx4edpazdHwxnSCjlGKGgIqWdaN4dvTLA=="
readonly TS_JAVASCRIPT_VERSION="0.25.0"
readonly TS_JAVASCRIPT_INTEGRITY="sha512-1fCbmzAskZkxcZzN41sFZ2br2iqTYP3tKls1b/HKGNPQUVOpsUxpmGxdN/wMqAk3jYZnYBR1dd/y/0avMeU7dw=="
readonly TS_TYPESCRIPT_VERSION="0.23.2"
readonly TS_TYPESCRIPT_INTEGRITY="sha512-e04JUUKxTT53/x3Uq1zIL45DoYKVfHH4CZqwgZhPg5qYROl5nQjV+85ruFzFGZxu+QeFVbRTPDRnqL9UbU4VeA=="

readonly TS_RUST_VERSION="0.24.0"
readonly TS_RUST_INTEGRITY="sha512-NWemUDf629Tfc90Y0Z55zuwPCAHkLxWnMf2RznYu4iBkkrQl2o/CHGB7Cr52TyN5F1DAx8FmUnDtCy9iUkXZEQ=="
readonly TS_GO_VERSION="0.25.0"
readonly TS_GO_INTEGRITY="sha512-APBc/Dq3xz/e35Xpkhb1blu5UgW+2E3RyGWawZSCNcbGwa7jhSQPS8KsUupuzBla8PCo8+lz9W/JDJjmfRa2tw=="
readonly TS_JAVA_VERSION="0.23.5"
readonly TS_JAVA_INTEGRITY="sha512-Yju7oQ0Xx7GcUT01mUglPP+bYfvqjNCGdxqigTnew9nLGoII42PNVP3bHrYeMxswiCRM0yubWmN5qk+zsg0zMA=="

readonly DEST="third_party"
FORCE=0
if [ "${1:-}" = "--force" ]; then FORCE=1; fi

die() { echo "fetch-third-party: error: $*" >&2; exit 1; }
note() { echo "fetch-third-party: $*"; }

command -v npm >/dev/null 2>&1 || die "npm not found (install Debian package 'npm' or nodejs)"
command -v node >/dev/null 2>&1 || die "node not found (needed to compute sha512 integrity)"
command -v tar >/dev/null 2>&1 || die "tar not found"

# integrity FILE: prints "sha512-<base64>" of FILE, the form npm's dist.integrity uses.
integrity() {
  node -e 'const c=require("crypto"),f=require("fs");
process.stdout.write("sha512-"+c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$1"
}

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# fetch NAME VERSION INTEGRITY DIR STRIP MEMBER... : npm pack NAME@VERSION, check its
# integrity, then unpack MEMBERs (tar paths inside the tarball) into $DEST/DIR with
# --strip-components=STRIP. The finished directory is moved into place atomically.
fetch() {
  local name="$1" version="$2" want="$3" dir="$4" strip="$5"
  shift 5
  local pin="${name}@${version} ${want}"
  local target="${DEST}/${dir}"
  if [ "$FORCE" = 0 ] && [ -f "${target}/.errdex-pin" ] && [ "$(cat "${target}/.errdex-pin")" = "$pin" ]; then
    note "${name}@${version} already present"
    return 0
  fi
  note "fetching ${name}@${version}"
  local pack_dir="${WORK}/${name}"
  mkdir -p "$pack_dir"
  if ! (cd "$pack_dir" && npm pack --silent "${name}@${version}" >"${pack_dir}/npm.out" 2>"${pack_dir}/npm.err"); then
    cat "${pack_dir}/npm.err" >&2 || true
    die "npm pack ${name}@${version} failed"
  fi
  local tgz="${pack_dir}/${name}-${version}.tgz"
  [ -f "$tgz" ] || die "npm pack did not produce ${tgz}"
  local got
  got="$(integrity "$tgz")" || die "could not hash ${tgz}"
  if [ "$got" != "$want" ]; then
    die "integrity mismatch for ${name}@${version}: expected ${want}, got ${got}"
  fi
  local stage="${WORK}/stage-${dir}"
  mkdir -p "$stage"
  tar -xzf "$tgz" -C "$stage" --no-same-owner --strip-components="$strip" "$@" \
    || die "unpacking ${name}@${version} failed (members: $*)"
  printf '%s\n' "$pin" >"${stage}/.errdex-pin"
  mkdir -p "$DEST"
  rm -rf "$target"
  mv "$stage" "$target"
}

# require PATH...: each path must exist after fetching.
require() {
  local p
  for p in "$@"; do
    [ -e "$p" ] || die "expected file missing after fetch: $p"
  done
}

fetch tree-sitter "$TREE_SITTER_VERSION" "$TREE_SITTER_INTEGRITY" tree-sitter 3 \
  package/vendor/tree-sitter/lib
# The core's LICENSE sits at the package root (strip 3 would drop it): add it separately.
if [ ! -f "${DEST}/tree-sitter/LICENSE" ]; then
  npm_tgz="${WORK}/tree-sitter/tree-sitter-${TREE_SITTER_VERSION}.tgz"
  if [ -f "$npm_tgz" ]; then
    tar -xzf "$npm_tgz" -O package/LICENSE >"${DEST}/tree-sitter/LICENSE" 2>/dev/null || true
  fi
fi
fetch tree-sitter-javascript "$TS_JAVASCRIPT_VERSION" "$TS_JAVASCRIPT_INTEGRITY" tree-sitter-javascript 1 \
  package/src/parser.c package/src/scanner.c package/src/tree_sitter package/LICENSE
fetch tree-sitter-typescript "$TS_TYPESCRIPT_VERSION" "$TS_TYPESCRIPT_INTEGRITY" tree-sitter-typescript 1 \
  package/typescript/src/parser.c package/typescript/src/scanner.c package/typescript/src/tree_sitter \
  package/tsx/src/parser.c package/tsx/src/scanner.c package/tsx/src/tree_sitter \
  package/common/scanner.h package/LICENSE
fetch tree-sitter-rust "$TS_RUST_VERSION" "$TS_RUST_INTEGRITY" tree-sitter-rust 1 \
  package/src/parser.c package/src/scanner.c package/src/tree_sitter package/LICENSE
fetch tree-sitter-go "$TS_GO_VERSION" "$TS_GO_INTEGRITY" tree-sitter-go 1 \
  package/src/parser.c package/src/tree_sitter package/LICENSE
fetch tree-sitter-java "$TS_JAVA_VERSION" "$TS_JAVA_INTEGRITY" tree-sitter-java 1 \
  package/src/parser.c package/src/tree_sitter package/LICENSE

require \
  "${DEST}/tree-sitter/lib/src/lib.c" "${DEST}/tree-sitter/lib/include/tree_sitter/api.h" \
  "${DEST}/tree-sitter-javascript/src/parser.c" "${DEST}/tree-sitter-javascript/src/scanner.c" \
  "${DEST}/tree-sitter-typescript/typescript/src/parser.c" "${DEST}/tree-sitter-typescript/typescript/src/scanner.c" \
  "${DEST}/tree-sitter-typescript/tsx/src/parser.c" "${DEST}/tree-sitter-typescript/tsx/src/scanner.c" \
  "${DEST}/tree-sitter-typescript/common/scanner.h" \
  "${DEST}/tree-sitter-rust/src/parser.c" "${DEST}/tree-sitter-rust/src/scanner.c" \
  "${DEST}/tree-sitter-go/src/parser.c" "${DEST}/tree-sitter-java/src/parser.c"
note "ok (${DEST}/)"
