#!/usr/bin/env bash
# Builds the container image with Debian's podman/buildah and smoke-tests it through the HTTP API.
# The base image the Containerfile names in FROM is made here from Debian packages (debootstrap)
# and tagged with that same name, so the build pulls from no image registry; anywhere else the same
# Containerfile builds on the official image of that name. See docs/deploy.md.
#
#   scripts/image.sh            base image (if missing), service image, smoke test
#   scripts/image.sh base       only (re)make the base image
#   scripts/image.sh build      base image (if missing) and service image, no smoke test
#   scripts/image.sh smoke      smoke-test the image built before
#
# Needs root and `apt-get install podman buildah debootstrap` (and runc on a host with hybrid
# cgroups, v1 controllers beside a v2 mount, where Debian's crun refuses to start containers). The Debian mirror is the first
# `URIs:` of /etc/apt/sources.list.d/debian.sources (or DEBIAN_MIRROR); that sources file, when
# present, becomes the image's own, so the image installs from the same mirror as this machine.
set -euo pipefail
cd "$(dirname "$0")/.."

step=${1:-all}
image=${WEBDATA_IMAGE:-localhost/webdata:latest}
base=$(awk 'toupper($1) == "FROM" { print $2; exit }' Containerfile)
sources=/etc/apt/sources.list.d/debian.sources
mirror=${DEBIAN_MIRROR:-$(awk '$1 == "URIs:" { print $2; exit }' "$sources" 2>/dev/null || true)}
mirror=${mirror:-http://deb.debian.org/debian}
# The CAs this machine trusts, for npm ci inside the build (see the Containerfile).
ca_bundle=${WEBDATA_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}

# What this host needs of podman and buildah, in a containers.conf of its own (both read
# CONTAINERS_CONF; the smoke test's podman inherits it): on hybrid cgroups (v1 controllers beside a
# v2 mount) crun cannot start containers and runc can; without CAP_SYS_RESOURCE podman's default
# ulimits, above the host's, cannot be set, so containers get the host's own hard limits.
if [ -z "${CONTAINERS_CONF:-}" ]; then
  conf=$(mktemp --suffix=.conf)
  trap 'rm -f "$conf"' EXIT
  if ! capsh --has-p=cap_sys_resource >/dev/null 2>&1; then
    printf '[containers]\ndefault_ulimits = ["nofile=%s:%s", "nproc=16384:16384"]\n' \
      "$(ulimit -Hn)" "$(ulimit -Hn)" >>"$conf"
  fi
  if mountpoint -q /sys/fs/cgroup/unified 2>/dev/null && command -v runc >/dev/null; then
    printf '[engine]\nruntime = "runc"\n' >>"$conf"
  fi
  export CONTAINERS_CONF=$conf
fi

elapsed() { echo "$(($(date +%s) - $1))s"; }

make_base() {
  local t0 root
  t0=$(date +%s)
  root=$(mktemp -d /var/tmp/webdata-rootfs.XXXXXX)
  echo "image: debootstrap bookworm from $mirror"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
  if [ -f "$sources" ]; then
    rm -f "$root/etc/apt/sources.list"
    cp "$sources" "$root/etc/apt/sources.list.d/debian.sources"
  fi
  # What Debian's own container images set: no docs or man pages from later installs, no .deb
  # files kept, no recommends unless asked.
  cat >"$root/etc/dpkg/dpkg.cfg.d/container" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
EOF
  cat >"$root/etc/apt/apt.conf.d/container" <<'EOF'
APT::Install-Recommends "false";
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; };
EOF
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb "$root"/usr/share/doc/* \
    "$root"/usr/share/man/* "$root"/usr/share/locale/*
  tar --numeric-owner -C "$root" -c . | podman import --quiet - "$base" >/dev/null
  rm -rf "$root"
  echo "image: base $base made in $(elapsed "$t0")"
}

build() {
  local t0
  t0=$(date +%s)
  podman image exists "$base" || make_base
  local secrets=()
  [ -f "$ca_bundle" ] && secrets=(--secret "id=ca-bundle,src=$ca_bundle")
  buildah build --pull=never --layers --format docker "${secrets[@]}" -f Containerfile -t "$image" . >/dev/null
  echo "image: $image built in $(elapsed "$t0"), $(podman image inspect --format '{{.Size}}' "$image" | awk '{ printf "%.0f MB", $1 / 1e6 }')"
}

# The smoke test runs on this machine with the project's pinned Node (npm ci installs it).
smoke() { node_modules/.bin/node scripts/image-smoke.ts "$image"; }

case "$step" in
  base) make_base ;;
  build) build ;;
  smoke) smoke ;;
  all)
    t0=$(date +%s)
    build
    smoke
    echo "image: all done in $(elapsed "$t0")"
    ;;
  *)
    echo "usage: scripts/image.sh [all|base|build|smoke]" >&2
    exit 2
    ;;
esac
