#!/usr/bin/env bash
# Writes the Debian changelog (what dpkg and lintian read) from CHANGELOG.md's release headings,
# "## VERSION (YYYY-MM-DD)", newest first: one entry a release, pointing at CHANGELOG.md.gz.
set -euo pipefail
changelog="$1"
maintainer="${DEB_MAINTAINER:?}"
first=true
grep -E '^## [0-9]+\.[0-9]+\.[0-9]+ \([0-9]{4}-[0-9]{2}-[0-9]{2}\)$' "$changelog" | while read -r _ version day; do
  day="${day//[()]/}"
  $first || echo
  first=false
  printf 'entrain (%s) unstable; urgency=medium\n\n' "$version"
  printf '  * Release %s: CHANGELOG.md.gz beside this file says what changed.\n\n' "$version"
  printf ' -- %s  %s\n' "$maintainer" "$(date -u -R -d "$day 12:00")"
done
