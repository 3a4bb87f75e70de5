#!/bin/sh
# same_as_serial.sh ERRDEX DIR MERGED_DB: the 20 tasks of DIR/tasks scanned one
# after the other into DIR/serial.db; every (repo, rev) exported from MERGED_DB
# must be byte-identical to it (SOURCE_DATE_EPOCH fixed by the caller).
set -eu
errdex=${1:?errdex} t=${2:?directory} merged=${3:?merged catalog}
while read -r repo rev name; do
  "$errdex" scan "$repo" --rev "$rev" --repo "$name" -q --db "$t/serial.db"
done <"$t/tasks"
while read -r repo rev name; do
  "$errdex" export --db "$merged" --repo "$name" --sha "$rev" >"$t/a"
  "$errdex" export --db "$t/serial.db" --repo "$name" --sha "$rev" >"$t/b"
  [ -s "$t/a" ] || { echo "FAIL: $name@$rev missing from the merged catalog"; exit 1; }
  cmp -s "$t/a" "$t/b" || { echo "FAIL: $name@$rev differs from the serial scan"; exit 1; }
done <"$t/tasks"
