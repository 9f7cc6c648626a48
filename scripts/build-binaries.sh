#!/usr/bin/env bash
# Provides bin/pocketbase, bin/nats-server, bin/nebula, bin/nebula-cert and bin/litestream at the versions pinned in
# scripts/binaries.env, built from their Go modules. A binary already at its pinned version is kept.
# POCKETBASE_BIN, NATS_SERVER_BIN, NEBULA_BIN, NEBULA_CERT_BIN and LITESTREAM_BIN may point at existing binaries instead.
# `--test-fixtures` provides the tests' own servers instead (bin/gofakes3, an S3 server).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=binaries.env
. "$root/scripts/binaries.env"
bin="$root/bin"
mkdir -p "$bin"

# module version of a Go binary, empty when unknown
built_version() {
  go version -m "$1" 2>/dev/null | awk '$1 == "mod" { print $3; exit }'
}

# provide NAME MODULE_PACKAGE VERSION OVERRIDE_VAR
provide() {
  local name=$1 pkg=$2 version=$3 override_var=$4
  local override=${!override_var:-}
  local target="$bin/$name"
  if [ -n "$override" ]; then
    [ -x "$override" ] || { echo "$override_var=$override is not an executable file" >&2; exit 1; }
    ln -sf "$(cd "$(dirname "$override")" && pwd)/$(basename "$override")" "$target"
    return
  fi
  if ! command -v go >/dev/null 2>&1; then
    if [ -x "$target" ]; then return; fi
    echo "Go is required to build $name $version (install Go >= 1.21 from your distribution, e.g. 'apt-get install golang'), or set $override_var to an existing $name binary." >&2
    exit 1
  fi
  if [ -x "$target" ] && [ ! -L "$target" ] && [ "$(built_version "$target")" = "$version" ]; then
    return
  fi
  echo "building $name $version" >&2
  local tmp
  tmp=$(mktemp -d)
  # GOTOOLCHAIN lets an older local Go fetch the pinned toolchain from the module proxy.
  GOTOOLCHAIN=$GO_TOOLCHAIN CGO_ENABLED=0 GOFLAGS=-trimpath GOBIN="$tmp" go install "$pkg@$version"
  mv "$tmp"/* "$target"
  rm -rf "$tmp"
}

if [ "${1:-}" = "--test-fixtures" ]; then
  provide gofakes3 github.com/johannesboyne/gofakes3/cmd/gofakes3 "$GOFAKES3_VERSION" GOFAKES3_BIN
  exit 0
fi
provide pocketbase github.com/pocketbase/pocketbase/examples/base "$POCKETBASE_VERSION" POCKETBASE_BIN
provide nats-server github.com/nats-io/nats-server/v2 "$NATS_SERVER_VERSION" NATS_SERVER_BIN
provide nebula github.com/slackhq/nebula/cmd/nebula "$NEBULA_VERSION" NEBULA_BIN
provide nebula-cert github.com/slackhq/nebula/cmd/nebula-cert "$NEBULA_VERSION" NEBULA_CERT_BIN
provide litestream github.com/benbjohnson/litestream/cmd/litestream "$LITESTREAM_VERSION" LITESTREAM_BIN
