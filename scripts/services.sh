#!/usr/bin/env bash
# The services the scale tests stand on — Redis (shared short-lived state) and PostgreSQL (the
# durable registry), with nginx in front of the replicas — installed from Debian when missing and
# started on loopback only. Idempotent: `start` twice leaves one of each running.
#
#   scripts/services.sh start   install what is missing, start Redis and PostgreSQL, create the test role
#   scripts/services.sh stop    stop what `start` started
#   scripts/services.sh env     print the URLs the tests read (SWITCHBOARD_TEST_REDIS_URL, …)
#
# nginx is only installed here: each test starts its own `nginx -p DIR` on ports of its own.
set -euo pipefail

REDIS_PORT="${SWITCHBOARD_REDIS_PORT:-6379}"
PG_PORT="${SWITCHBOARD_PG_PORT:-5432}"
PG_USER=switchboard
PG_PASSWORD=switchboard
PG_DB=switchboard
REDIS_DIR="${SWITCHBOARD_SERVICES_DIR:-/tmp/switchboard-services}/redis"

say() { printf 'services: %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root (or sudo) to run: $*"; return 1
  fi
}

install_missing() {
  local missing=()
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
  command -v redis-server >/dev/null || missing+=(redis-server)
  command -v pg_ctlcluster >/dev/null || missing+=(postgresql)
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]} from Debian"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  # policy-rc.d 101: the packages must not start their services on all interfaces by themselves.
  as_root sh -c 'printf "#!/bin/sh\nexit 101\n" > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d'
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  as_root rm -f /usr/sbin/policy-rc.d
}

redis_up() { redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1; }

start_redis() {
  if redis_up; then say "redis already up on 127.0.0.1:$REDIS_PORT"; return; fi
  mkdir -p "$REDIS_DIR"
  # Loopback only, no persistence: the state it holds lives minutes (sessions, streams, counters).
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes --save '' --appendonly no \
    --dir "$REDIS_DIR" --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/redis.log"
  for _ in $(seq 50); do redis_up && break; sleep 0.1; done
  redis_up || { say "redis did not start; see $REDIS_DIR/redis.log"; exit 1; }
  say "redis up on 127.0.0.1:$REDIS_PORT"
}

pg_cluster() { pg_lsclusters -h | awk 'NR==1 {print $1" "$2}'; }

pg_up() { PGPASSWORD=$PG_PASSWORD psql -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d "$PG_DB" -Atc 'select 1' >/dev/null 2>&1; }

start_postgres() {
  if pg_up; then say "postgresql already up on 127.0.0.1:$PG_PORT"; return; fi
  local cluster
  cluster="$(pg_cluster)"
  if [ -z "$cluster" ]; then
    local version
    version="$(ls /usr/lib/postgresql | sort -n | tail -1)"
    as_root pg_createcluster "$version" main --port "$PG_PORT" >/dev/null
    cluster="$version main"
  fi
  # shellcheck disable=SC2086
  set -- $cluster
  as_root pg_ctlcluster "$1" "$2" start -o "-c listen_addresses=127.0.0.1 -c port=$PG_PORT" 2>/dev/null || true
  for _ in $(seq 100); do as_root su postgres -c "psql -p $PG_PORT -Atc 'select 1'" >/dev/null 2>&1 && break; sleep 0.1; done
  as_root su postgres -c "psql -p $PG_PORT -v ON_ERROR_STOP=1 -q" >/dev/null <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_USER') THEN
    CREATE ROLE $PG_USER LOGIN PASSWORD '$PG_PASSWORD' CREATEDB;
  END IF;
END \$\$;
SQL
  as_root su postgres -c "psql -p $PG_PORT -Atc \"SELECT 1 FROM pg_database WHERE datname = '$PG_DB'\"" | grep -q 1 ||
    as_root su postgres -c "createdb -p $PG_PORT -O $PG_USER $PG_DB"
  pg_up || { say "postgresql did not accept $PG_USER on 127.0.0.1:$PG_PORT"; exit 1; }
  say "postgresql up on 127.0.0.1:$PG_PORT (database $PG_DB)"
}

stop_all() {
  if redis_up; then redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true; say "redis stopped"; fi
  local cluster
  cluster="$(pg_cluster)"
  if [ -n "$cluster" ]; then
    # shellcheck disable=SC2086
    set -- $cluster
    as_root pg_ctlcluster "$1" "$2" stop 2>/dev/null || true
    say "postgresql stopped"
  fi
}

print_env() {
  echo "SWITCHBOARD_TEST_REDIS_URL=redis://127.0.0.1:$REDIS_PORT"
  echo "SWITCHBOARD_TEST_POSTGRES_URL=postgres://$PG_USER:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DB"
}

case "${1:-}" in
  start) install_missing; start_redis; start_postgres ;;
  stop) stop_all ;;
  env) print_env ;;
  *) echo "usage: scripts/services.sh start|stop|env" >&2; exit 2 ;;
esac
