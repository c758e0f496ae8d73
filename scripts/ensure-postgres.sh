#!/usr/bin/env bash
# Makes sure a Postgres server answers on 127.0.0.1:5432 with a `webdata_test` database the tests
# can use. Starts the Debian cluster when it is installed but stopped.
set -euo pipefail
PGURL_BASE="${WEBDATA_TEST_PG_BASE:-postgres://postgres@127.0.0.1:5432}"

ready() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }

if ! ready; then
  version=$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1 || true)
  if [ -z "$version" ]; then
    echo "ensure-postgres: no Postgres cluster found; install the postgresql package" >&2
    exit 1
  fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do ready && break; sleep 1; done
fi
ready || { echo "ensure-postgres: Postgres is not answering on 127.0.0.1:5432" >&2; exit 1; }

if ! psql "$PGURL_BASE/postgres" -tAc "select 1 from pg_database where datname='webdata_test'" | grep -q 1; then
  psql "$PGURL_BASE/postgres" -qc 'create database webdata_test' || {
    # A fresh Debian cluster only trusts the postgres OS user over the socket.
    su postgres -c "psql -qc \"alter user postgres password 'postgres'\"" || true
    su postgres -c "psql -qc 'create database webdata_test'"
  }
fi
