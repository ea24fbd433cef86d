#!/usr/bin/env bash
# Check the optional compiled build: the whole test suite against mypyc-compiled richout.
#
#   bash scripts/check_compiled.sh            (another interpreter: PYTHON=/path/to/python3.12)
#
# 1. Creates a fresh venv in a temporary directory (removed on exit) with $PYTHON
#    (default python3).
# 2. Builds richout's wheel from this checkout with the compiled build switched on
#    (HATCH_BUILD_HOOK_ENABLE_CUSTOM=1, see hatch_build.py; set for that build only, since it
#    is hatchling's generic switch) and installs it with the test extras. Needs gcc, the
#    Python headers and package registry access.
# 3. Runs the test suite with that venv's pytest (not `python -m pytest`, which would put
#    this checkout's pure-Python richout first on sys.path), with PYTHONSAFEPATH=1 so that
#    the tests' own `python -m richout` / `python -c` children do not either (Python 3.11+).
#    RICHOUT_EXPECT_COMPILED=1 makes tests/conftest.py refuse to run unless the imported
#    richout is the installed, compiled one, so a broken build cannot pass as pure Python.
#    The suite runs on every CPU (pytest-xdist, `-n auto --dist worksteal`), as the README's
#    test command does; each worker process makes that check.
# 4. Requires byte-identical outputs from both builds: scripts/output_digest.py hashes every
#    pipeline's result, explained and not, under every profile (and the streamed chunks) on
#    the reply corpus and the hostile families, once with the compiled install and once with
#    this checkout's sources.
# Tests that replace a module function to watch or disable it are skipped here (marker
# `pure_python`): compiled modules call each other directly, not through module attributes.
# Exit status is non-zero when any step fails.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/richout-compiled.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
VENV="$TMP/venv"

echo "check_compiled: building and installing compiled richout ($("$PYTHON" --version))"
"$PYTHON" -m venv "$VENV"
HATCH_BUILD_HOOK_ENABLE_CUSTOM=1 "$VENV/bin/pip" wheel -q --no-deps -w "$TMP/wheel" "$REPO"
WHEEL="$(ls "$TMP"/wheel/richout-*.whl)"
"$VENV/bin/pip" install -q "$WHEEL[test]"
# From outside the checkout: `python -c` puts the current directory first on sys.path.
(cd "$TMP" && "$VENV/bin/python" -c \
  "import richout, sys; sys.exit(0 if richout.is_compiled() else 'not compiled: ' + richout.__file__)")

cd "$REPO"
PYTHONSAFEPATH=1 RICHOUT_EXPECT_COMPILED=1 "$VENV/bin/pytest" -p no:cacheprovider -n auto --dist worksteal
echo "check_compiled: the test suite passed on compiled richout"

# From outside the checkout, so that the installed (compiled) richout is the one imported.
compiled="$(cd "$TMP" && "$VENV/bin/python" "$REPO/scripts/output_digest.py")"
pure="$(cd "$TMP" && PYTHONPATH="$REPO" "$VENV/bin/python" "$REPO/scripts/output_digest.py")"
echo "  $compiled"
echo "  $pure"
case "$compiled" in *", compiled, "*) ;; *) echo "check_compiled: digest did not run compiled"; exit 1 ;; esac
case "$pure" in *", pure Python, "*) ;; *) echo "check_compiled: digest did not run pure"; exit 1 ;; esac
if [ "${compiled%% *}" != "${pure%% *}" ]; then
  echo "check_compiled: the compiled and pure-Python builds give different outputs"
  exit 1
fi
echo "check_compiled: compiled and pure-Python outputs are identical"
