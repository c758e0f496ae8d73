#!/usr/bin/env bash
# Sets up everything webdata needs on a Debian machine: system packages (scripts/debian-packages.txt,
# the list the Containerfile installs too; xdotool and iproute2, which makes the hosts of the
# scale-out test, for the tests), npm packages (Node 24 comes in as the `node` devDependency), and
# with --test the Postgres server the Postgres tests run against.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=false
[ "${1:-}" = "--test" ] && want_test=true

mapfile -t apt_packages < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' scripts/debian-packages.txt)
$want_test && apt_packages+=(postgresql xdotool iproute2)

missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    echo "setup: missing Debian packages (${missing[*]}); install them as root" >&2
    exit 1
  fi
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x node_modules/.bin/node ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

if $want_test; then
  bash scripts/ensure-postgres.sh
fi
