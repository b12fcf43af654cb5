#!/usr/bin/env bash
# Writes the git commit into Sources/EntrainBuildInfo/build-commit.h for `entrain --version`,
# only when it changed (so a rebuild recompiles one C file). Outside a git checkout (a source
# tarball) it keeps the header that came with the tarball, or none: the build names no commit.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
header="$here/Sources/EntrainBuildInfo/build-commit.h"
# Only this checkout's own history: a tarball unpacked inside another repository is no checkout.
[ -e "$here/.git" ] || exit 0
commit="$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null)" || exit 0
git -C "$here" diff --quiet HEAD -- 2>/dev/null || commit="$commit-dirty"
line="#define ENTRAIN_BUILD_COMMIT \"$commit\""
[ "$(cat "$header" 2>/dev/null)" = "$line" ] && exit 0
printf '%s\n' "$line" > "$header.tmp"
mv "$header.tmp" "$header"
# A header that did not exist at the last compile is not in its dependency list: make the
# build see the change through the source file.
touch "$here/Sources/EntrainBuildInfo/BuildInfo.c"
