#!/usr/bin/env bash
# `make dist`: the source tarball of HEAD, dist/entrain-VERSION.tar.gz, beside the .deb that
# `make deb` put there. The tarball carries the commit stamp (Sources/EntrainBuildInfo/
# build-commit.h), so a build from it, without .git, still names its commit.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
version="$("$here/scripts/release-version.sh")"
out="${DEB_OUT:-$here/dist}"
name="entrain-$version"
commit="$(git -C "$here" rev-parse --short=12 HEAD)"
git -C "$here" diff --quiet HEAD -- || echo "make-dist: uncommitted changes are not in the tarball (it is HEAD, $commit)" >&2

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/$name/Sources/EntrainBuildInfo" "$out"
printf '#define ENTRAIN_BUILD_COMMIT "%s"\n' "$commit" > "$scratch/$name/Sources/EntrainBuildInfo/build-commit.h"
git -C "$here" archive --format=tar --prefix="$name/" HEAD > "$scratch/$name.tar"
tar -C "$scratch" --append -f "$scratch/$name.tar" --owner=0 --group=0 "$name/Sources/EntrainBuildInfo/build-commit.h"
gzip -9n < "$scratch/$name.tar" > "$out/$name.tar.gz.tmp"
mv "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"
echo "make-dist: $out/$name.tar.gz (commit $commit)"
ls -l "$out"
