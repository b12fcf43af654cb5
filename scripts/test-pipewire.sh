#!/usr/bin/env bash
# PipeWire's subset of the live tests (scripts/pipewire-subset.sh says which and why) on its own,
# through scripts/test.sh; ENTRAIN_BINARY as for the main run. `make test` runs the same subset as
# a shard of its own (TEST_WITH_PIPEWIRE=1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v pw-jack >/dev/null || { echo "test-pipewire: pw-jack is missing (scripts/install-deps.sh installs pipewire-jack)" >&2; exit 1; }
. "$here/pipewire-subset.sh"
echo "test-pipewire: $(pipewire --version | grep -o 'libpipewire [0-9.]*'); ${#pipewire_subset[@]} groups of live tests"
TEST_FILTER=$pipewire_filter exec "$here/test.sh" "${pipewire_wrapper[@]}"
