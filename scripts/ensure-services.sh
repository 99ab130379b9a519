#!/usr/bin/env bash
# Makes sure what the test suite talks to is present on this machine: PostgreSQL running on
# 127.0.0.1:5432, Debian's Chromium for the browser tests (never a browser download), Debian's
# Caddy for the rolling-restart test and Debian's Prometheus for the metrics test.
# Idempotent and quick when everything is already there.
set -euo pipefail

if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  echo "ensure-services: starting PostgreSQL" >&2
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-services: installing Debian's chromium for the browser tests" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
  else
    echo "ensure-services: chromium is missing; install Debian's 'chromium' package for the browser tests" >&2
  fi
fi

# Debian's Caddy for the rolling-restart test, which runs its own caddy (admin off, a free port,
# a Caddyfile of its own): it never uses or touches a caddy service the package may have set up.
if ! command -v caddy >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-services: installing Debian's caddy for the rolling-restart test" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq caddy >/dev/null
  else
    echo "ensure-services: caddy is missing; install Debian's 'caddy' package for the rolling-restart test" >&2
  fi
fi

# Debian's Prometheus for the metrics test, which runs its own prometheus (its own config and
# storage in a temporary directory, a free loopback port): it never uses or touches the
# prometheus service the package sets up (which a container without an init does not start).
if ! command -v prometheus >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-services: installing Debian's prometheus for the metrics test" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  else
    echo "ensure-services: prometheus is missing; install Debian's 'prometheus' package for the metrics test" >&2
  fi
fi
