#!/usr/bin/env bash
# `make run`: migrate, bootstrap a demo Platform Operator on first run (its password is printed once),
# then serve on http://127.0.0.1:8090 with the embedded defaults (no config file needed) and the bus
# in-process (`serve --bus`, its config exported once into the data directory) and the record store
# replicated into it, so that the platform it starts is complete: GET /api/ready answers 200 (with warnings: no encryption keys in a demo).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
platform="$root/scripts/platform"
email=${DEMO_OPERATOR_EMAIL:-operator@example.com}

"$platform" migrate up
if output=$("$platform" bootstrap --email "$email" --org "System" --operator-org "Operators" 2>&1); then
  echo "$output" | sed 's/^[0-9/]* [0-9:]* //'
  echo "Sign in to the console at http://127.0.0.1:8090/ as $email with the password above; it is not shown again."
elif ! grep -q "already bootstrapped" <<<"$output"; then
  echo "$output" >&2
  exit 1
fi
bus_dir="${PB_DATA_DIR:-$root/pb_data}/bus"
[ -f "$bus_dir/bus.conf" ] || "$platform" bus export --out "$bus_dir"
# Browsers reach the embedded bus on the websocket port the export wrote (9222).
export PLATFORM_BUS_WEBSOCKET_URLS=${PLATFORM_BUS_WEBSOCKET_URLS:-ws://127.0.0.1:9222}
# The record store streams into the bus's own object store (docs/operations.md "Disaster recovery").
export PLATFORM_REPLICATION_ENABLED=${PLATFORM_REPLICATION_ENABLED:-true}
echo "Serving the console on http://127.0.0.1:8090/ (admin UI: http://127.0.0.1:8090/_/; create a SuperUser with: scripts/platform superuser upsert EMAIL PASSWORD)"
exec "$platform" serve --http 127.0.0.1:8090 --bus --bus-config "$bus_dir/bus.conf"
