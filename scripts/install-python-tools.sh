#!/usr/bin/env bash
# Python tools the tests use as real peers, in a virtual environment under .build/python (not
# committed): python-oscquery 0.4.0 (PyPI), which reads the OSCQuery tree in an
# interoperability test. That test skips itself when this could not be set up (offline).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/python
if "$venv/bin/python" -c 'import pythonoscquery' 2>/dev/null; then exit 0; fi
python3 -m venv "$venv" 2>/dev/null || { scripts/install-deps.sh python3-venv && python3 -m venv "$venv"; }
"$venv/bin/pip" install --quiet --disable-pip-version-check 'python-oscquery==0.4.0' \
  || echo "install-python-tools: python-oscquery could not be installed; its test will skip" >&2
