#!/usr/bin/env bash
# Starts the local PostgreSQL and Redis that the store tests talk to, when they are installed but not
# running (a machine restarted since its services were started). Idempotent and quiet: a service already
# answering, or not installed, is left alone; only a failed start prints, with the server's own log.
set -euo pipefail

if command -v pg_isready >/dev/null 2>&1 && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  if ! pg_isready -q -h 127.0.0.1; then
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    if ! out=$(pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>&1); then
      echo "ci-start-services: PostgreSQL $version did not start:" >&2
      echo "$out" >&2
      exit 1
    fi
    for _ in $(seq 1 50); do pg_isready -q -h 127.0.0.1 && break; sleep 0.2; done
  fi
fi

if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; then
  if ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
    if ! out=$(redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no 2>&1); then
      echo "ci-start-services: Redis did not start:" >&2
      echo "$out" >&2
      exit 1
    fi
    for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 0.1; done
  fi
fi
