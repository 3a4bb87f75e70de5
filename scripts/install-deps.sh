#!/usr/bin/env bash
# Installs what errdex needs to build and test on Debian 12: the -dev packages
# (apt), then the pinned tree-sitter sources (npm pack, scripts/fetch-third-party.sh).
# Idempotent; safe to re-run. Needs root (or sudo) for apt.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libsqlite3-dev libgit2-dev libpcre2-dev libvectorscan-dev libxxhash-dev libzstd-dev libpq-dev
  nlohmann-json3-dev libcli11-dev libcpp-httplib-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  ripgrep python3 time
  # the store tests run on a real PostgreSQL 15 too (tests/pg/pg_server.sh starts one).
  postgresql-15
  # C/C++/CUDA differential test (tests/diff/cpp_oracle.py): clang's AST, and the
  # PyTorch / pybind11 headers as a real corpus.
  clang-19 libtorch-dev pybind11-dev
  # Rust differential test (tests/diff/rust_oracle): Debian's rustc/cargo build the
  # syn crate offline; the librust-*-dev crates are its corpus.
  rustc cargo librust-syn-dev librust-tokio-dev librust-hyper-dev librust-clap-dev librust-anyhow-dev
  librust-thiserror-dev librust-regex-dev librust-serde-json-dev
  # Go differential test (tests/diff/go_oracle): go/ast, and Go's own sources as corpus.
  golang-go
  # Java differential test (tests/diff/JavaOracle.java): javac's parser; the JDK's
  # own sources (src.zip) as corpus.
  openjdk-17-jdk-headless openjdk-17-source unzip
)
# fuzz/ (-DERRDEX_FUZZ=ON, .ci/run): clang 14 and its libFuzzer + sanitizer runtimes.
PACKAGES+=(clang-14 libclang-rt-14-dev)
# errdex check: the catalog keeps each scanned Python file's source, zstd-compressed.
PACKAGES+=(libzstd-dev)
# scan: libcrypto's SHA-1 names the files read from a directory as git's blobs.
PACKAGES+=(libssl-dev)
# errdex serve: mustache templates; Debian's chromium (+ a font) for the browser
# test; wrk for bench/serve_bench.sh.
PACKAGES+=(libkainjow-mustache-dev chromium fonts-dejavu-core wrk)
# deploy/slurm under a real single-node Slurm (tests/deploy/slurm_real_test.sh).
PACKAGES+=(slurmctld slurmd slurm-client munge)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ -x scripts/fetch-third-party.sh ]; then
  scripts/fetch-third-party.sh
fi

# errdex serve's node tests (tests/web/): puppeteer-core, the MCP TypeScript SDK and
# @redocly/cli, exactly as pinned by the lockfile; no install scripts (nothing
# downloads a browser: the test drives Debian's chromium).
if [ -f tests/web/package-lock.json ]; then
  if [ ! -d tests/web/node_modules ] || [ tests/web/package-lock.json -nt tests/web/node_modules ]; then
    echo "install-deps: npm ci (tests/web)"
    (cd tests/web && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    touch tests/web/node_modules
  fi
fi
# The JavaScript/TypeScript differential test's oracle (tests/diff/ts_oracle): the
# TypeScript compiler, exactly as pinned by its lockfile.
if [ -f tests/diff/ts_oracle/package-lock.json ]; then
  if [ ! -d tests/diff/ts_oracle/node_modules ] || [ tests/diff/ts_oracle/package-lock.json -nt tests/diff/ts_oracle/node_modules ]; then
    echo "install-deps: npm ci (tests/diff/ts_oracle)"
    (cd tests/diff/ts_oracle && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    touch tests/diff/ts_oracle/node_modules
  fi
fi
echo "install-deps: ok"
