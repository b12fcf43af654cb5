#!/usr/bin/env bash
# Python tools the tests use as real peers, in a virtual environment under .build/python (not
# committed): python-oscquery 0.4.0 (PyPI), which reads the OSCQuery tree in an
# interoperability test, and tosclib 0.3.5 (PyPI; with pyparsing and numpy, which it imports),
# which reads the TouchOSC layout back, and websockets 17.4 (PyPI), an independent WebSocket
# client for our own server's handshake and frames. Their tests skip themselves when this could
# not be set up (offline).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/python
if "$venv/bin/python" -c 'import pythonoscquery, tosclib, websockets' 2>/dev/null; then exit 0; fi
python3 -m venv "$venv" 2>/dev/null || { scripts/install-deps.sh python3-venv && python3 -m venv "$venv"; }
"$venv/bin/pip" install --quiet --disable-pip-version-check 'python-oscquery==0.4.0' \
  || echo "install-python-tools: python-oscquery could not be installed; its test will skip" >&2
"$venv/bin/pip" install --quiet --disable-pip-version-check 'tosclib==0.3.5' pyparsing numpy \
  || echo "install-python-tools: tosclib could not be installed; the TouchOSC layout's read-back test will skip" >&2
"$venv/bin/pip" install --quiet --disable-pip-version-check 'websockets==17.4' \
  || echo "install-python-tools: websockets could not be installed; its WebSocket interoperability test will skip" >&2
