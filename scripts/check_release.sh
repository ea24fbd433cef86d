#!/usr/bin/env bash
# Optional check against the published OpenClaw release (not part of the test suite).
#
#   scripts/check_release.sh [--cases DIR] [--count N] [--seed S] [--show K] [--keep]
#
# 1. Fetches openclaw@$OPENCLAW_VERSION (default 2026.9.6) from the npm registry with
#    `npm pack` and unpacks only what the driver loads (package.json, dist/*.mjs and the
#    Control UI's *.js), then installs the few runtime dependencies those chunks import
#    (@openclaw/fs-safe, entities; versions as pinned by the package). Set OPENCLAW_DIR to an
#    unpacked package to skip this step.
# 2. Runs the profile's conformance cases through scripts/openclaw_driver.mjs (the release
#    itself must reproduce them): `richout conformance --program … --cases …`.
# 3. Runs the generated-replies differential between `richout jsonl` (options.profile =
#    release-2026.9.6) and the driver, printing per-op agreement: scripts/differential.py.
#
# Needs node >= 20, npm and registry access (for step 1), and the project venv (.venv).
# Exit status is non-zero when a case fails or any generated reply disagrees.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
VERSION="${OPENCLAW_VERSION:-2026.9.6}"
PROFILE="${RICHOUT_PROFILE:-release-$VERSION}"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
RICHOUT="${RICHOUT:-$REPO/.venv/bin/richout jsonl}"
CASES=""
COUNT=2000
SEED=1
SHOW=3
KEEP=0

while [ $# -gt 0 ]; do
  case "$1" in
    --cases) CASES="$2"; shift 2 ;;
    --count) COUNT="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --show) SHOW="$2"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

if [ -z "$CASES" ]; then
  for candidate in \
    "$REPO/conformance/profiles/$PROFILE" \
    "$REPO/conformance/cases/profiles/$PROFILE" \
    "$REPO/../shared/vectors/profiles/$PROFILE"; do
    if [ -d "$candidate" ]; then CASES="$candidate"; break; fi
  done
fi
if [ -z "$CASES" ] || [ ! -e "$CASES" ]; then
  echo "no cases for profile $PROFILE found; pass --cases DIR" >&2
  exit 2
fi

node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$node_major" -lt 20 ]; then
  echo "node >= 20 is needed (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 2
fi

if [ -z "${OPENCLAW_DIR:-}" ]; then
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/openclaw-release.XXXXXX")"
  if [ "$KEEP" = 0 ]; then
    trap 'rm -rf "$WORK"' EXIT
  else
    echo "keeping $WORK"
  fi
  echo "== fetching openclaw@$VERSION"
  tarball="$(cd "$WORK" && npm pack --silent "openclaw@$VERSION")"
  tar -xzf "$WORK/$tarball" -C "$WORK" --wildcards --no-wildcards-match-slash \
    'package/package.json' 'package/dist/*.mjs' 'package/dist/control-ui/assets/*.js'
  rm -f "$WORK/$tarball"
  deps="$(node -e '
    const deps = require(process.argv[1]).dependencies || {};
    const names = ["@openclaw/fs-safe", "entities"];
    console.log(names.map((n) => `${n}@${deps[n] ?? "latest"}`).join(" "));
  ' "$WORK/package/package.json")"
  echo "== installing runtime dependencies: $deps"
  # shellcheck disable=SC2086
  npm install --prefix "$WORK" --ignore-scripts --no-audit --no-fund --no-package-lock \
    --loglevel=error $deps >/dev/null
  export OPENCLAW_DIR="$WORK/package"
fi

DRIVER="node $HERE/openclaw_driver.mjs"
status=0

echo "== release cases ($CASES) through the driver"
"$PYTHON" -m richout conformance --program "$DRIVER" --cases "$CASES" --progress none \
  | tail -n 25 || status=1

echo "== differential: richout (profile $PROFILE) vs openclaw@$VERSION on $COUNT replies"
"$PYTHON" "$HERE/differential.py" --a "$RICHOUT" --b "$DRIVER" --profile "$PROFILE" \
  --count "$COUNT" --seed "$SEED" --show "$SHOW" || status=1

exit "$status"
