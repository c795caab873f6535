#!/usr/bin/env bash
# Installs the Debian packages that CI needs beyond Node: `prometheus` (the real server the
# dashboard-query test scrapes the gateway with), `chromium` (the browser the dashboard tests
# drive through playwright-core) and `haproxy` (the load balancer of `npm run fleet` and the
# fault drills in test/fleet/). Idempotent: a package already installed is
# skipped, and with nothing missing apt is not touched at all. Quiet unless something fails.
set -euo pipefail

PACKAGES=(prometheus chromium haproxy)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ci-install-system-deps: apt-get not available; cannot install: ${missing[*]}" >&2
  exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo -n); else
    echo "ci-install-system-deps: not root and no sudo; cannot install: ${missing[*]}" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# --no-install-recommends: prometheus recommends node-exporter etc., which CI does not need.
# The package's service is never started here (no init in CI); the test runs the binary itself.
if ! { "${SUDO[@]}" apt-get update -qq &&
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "ci-install-system-deps: failed to install: ${missing[*]}" >&2
  exit 1
fi
echo "ci-install-system-deps: installed ${missing[*]}"
