#!/usr/bin/env bash
# System packages the integration tests use: `ping` (the overlay tunnel tests send ICMP across real
# Nebula tunnels between network namespaces), `ip` (iproute2, for the namespaces), `sqlite3` and
# `promtool` (the prometheus package; checks real scrapes and the alert rules), `chromium` (the console's
# browser tests drive Debian's build through playwright-core, e2e/harness/browser.ts). Installed with apt
# when missing and running as root; otherwise the tunnel tests fail and say what to install.
set -euo pipefail
# Servers the tests run that the platform does not (built from Go modules like the pinned binaries).
"$(dirname "$0")/build-binaries.sh" --test-fixtures
missing=()
command -v ping >/dev/null 2>&1 || missing+=(iputils-ping)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} for the integration tests" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "the integration tests need: ${missing[*]} (install them with your package manager)" >&2
fi
