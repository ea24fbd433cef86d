#!/usr/bin/env bash
# Check that richout works on the lowest versions pyproject.toml allows.
#
#   bash scripts/check_floors.sh              (another interpreter: PYTHON=/path/to/python3.10)
#
# 1. Creates a fresh venv in a temporary directory (removed on exit) with $PYTHON
#    (default python3).
# 2. Installs richout from this checkout with `-c constraints/floors.txt`, which pins every
#    runtime dependency to its declared floor.
# 3. Checks with `pip list` that exactly those versions got installed.
# 4. Runs `richout conformance` (every profile; exit status must be 0) and the README's main
#    job, `richout parse examples/reply.md` (its output must be JSON).
# 5. Runs the reference-policy security tables against the installed package: they depend on
#    the URL parser's version in ways the conformance cases do not show (ada-url 1.10 passes
#    every case, but does not read `https://%31%32%37.0.0.1/` or `https://127。0。0。1/` as
#    the IPv4 address WHATWG parsing gives).
# Exit status is non-zero when any step fails. Needs package registry access (steps 2 and 5).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
FLOORS="$REPO/constraints/floors.txt"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/richout-floors.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
VENV="$TMP/venv"

echo "check_floors: installing richout with $(basename "$FLOORS") ($("$PYTHON" --version))"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/pip" install -q -c "$FLOORS" "$REPO"

# pip list names and versions, normalised (PEP 503 names) so the two lists compare.
"$VENV/bin/pip" list --format=freeze >"$TMP/installed.txt"
"$VENV/bin/python" - "$FLOORS" "$TMP/installed.txt" <<'PY'
import re
import sys

def pins(path: str) -> dict[str, str]:
    out = {}
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            out[re.sub(r"[-_.]+", "-", name).lower()] = version
    return out

floors, installed = pins(sys.argv[1]), pins(sys.argv[2])
wrong = {n: installed.get(n, "missing") for n, v in floors.items() if installed.get(n) != v}
for name, version in sorted(floors.items()):
    print(f"  {name}=={installed.get(name, 'missing')}")
if wrong:
    sys.exit(f"check_floors: not the floors: {wrong}")
PY

cd "$REPO"
"$VENV/bin/richout" conformance
"$VENV/bin/richout" parse examples/reply.md >"$TMP/reply.json"
"$VENV/bin/python" -c "import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))" \
  "$TMP/reply.json"
echo "check_floors: richout parse examples/reply.md: ok"

"$VENV/bin/pip" install -q pytest hypothesis
# The venv's pytest (not `python -m pytest`) so that the installed richout is imported.
"$VENV/bin/pytest" -p no:cacheprovider tests/test_security_remote.py \
  tests/test_security_local.py tests/test_policy.py tests/test_envelope_refkey.py
