#!/bin/sh
# pg_server.sh start|stop DIR: a throwaway PostgreSQL 15 server for the tests
# (the ctest fixture "pg"): initdb into DIR/data, listening on a unix socket in
# DIR only (no TCP), trust authentication for the role "errdex", fsync off.
# PostgreSQL refuses to run as root and CI runs as root: then the server runs as
# "nobody" (setpriv), which owns DIR. The tests connect to
#   postgresql:///postgres?host=DIR&user=errdex
# and each makes its own schema in it. Without PostgreSQL installed, start leaves
# DIR/absent (the reason) and succeeds: the tests then skip with that reason.
set -eu
cmd=${1:?start or stop}
dir=${2:?directory}
bin=
for b in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
  if [ -x "$b/pg_ctl" ]; then bin=$b; break; fi
done
if [ -z "$bin" ]; then
  # No server on this machine: the tests skip, saying why (src/store/pg_test_catalog.h).
  msg="no pg_ctl under /usr/lib/postgresql/*/bin (scripts/install-deps.sh installs postgresql-15)"
  echo "pg_server: $msg" >&2
  if [ "$cmd" = start ]; then rm -rf "$dir"; mkdir -p "$dir"; echo "$msg" >"$dir/absent"; else rm -rf "$dir"; fi
  exit 0
fi
as=
if [ "$(id -u)" = 0 ]; then as="setpriv --reuid=nobody --regid=nogroup --clear-groups"; fi
case $cmd in
  start)
    if [ -f "$dir/data/postmaster.pid" ]; then $as "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ -n "$as" ]; then chown nobody:nogroup "$dir"; fi
    cd "$dir"
    $as "$bin/initdb" -D "$dir/data" -U errdex --auth=trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    $as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-k $dir -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      cd "$dir"
      $as "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: pg_server.sh start|stop DIR" >&2
    exit 2
    ;;
esac
