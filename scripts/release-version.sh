#!/usr/bin/env bash
# Prints the release version (BuildInfo.version, which `entrain --version` prints and CHANGELOG.md's
# top entry names) without building, for the names of `make deb` and `make dist`'s files.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
version="$(sed -n 's/^ *static let version = "\(.*\)"$/\1/p' "$here/Sources/entrain/BuildInfo.swift")"
[ -n "$version" ] || { echo "release-version: no version in Sources/entrain/BuildInfo.swift" >&2; exit 1; }
echo "$version"
