#!/usr/bin/env bash
# `make deb-test`: the Debian package as a user installs it, on a Debian 12 root that has never
# seen a Swift toolchain. A debootstrapped bookworm root (made once, cached outside the checkout
# in ENTRAIN_DEB_TEST_CACHE, default ~/.cache/entrain/deb-test) is the lower layer of an overlay,
# so every run starts from the pristine root and leaves it untouched. In a private mount and PID
# namespace (mounts and every process started there end with it) scripts/deb-test-chroot.sh
# installs the package with its Depends from the archive, plays, renders, serves the page, checks
# the units and removes the package; this script then measures what it recorded.
# Needs root (debootstrap, mounts, chroot) and the Debian mirror (DEBIAN_MIRROR).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

if [ "${1:-}" = "--inside" ]; then
  # In the new namespaces: the overlay, /proc, a private /dev/shm for JACK, the network's names.
  run="$2" deb="$3"
  root="$run/root"
  mount -t overlay overlay -o "lowerdir=$4,upperdir=$run/upper,workdir=$run/work" "$root"
  mount -t proc proc "$root/proc"
  mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
  mkdir -p "$root/dev/pts"  # apt logs through a pseudo-terminal
  mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
  mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  cp "$deb" "$here/scripts/deb-test-chroot.sh" "$root/tmp/"
  mkdir -p "$root/tmp/results"
  status=0
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive EXPECTED_VERSION="$5" \
    /bin/bash /tmp/deb-test-chroot.sh "/tmp/$(basename "$deb")" || status=$?
  cp -a "$root/tmp/results/." "$run/results/"
  exit $status
fi

[ "$(id -u)" -eq 0 ] || { echo "deb-test: needs root (debootstrap, mounts, chroot): sudo make deb-test" >&2; exit 1; }
version="$("$here/scripts/release-version.sh")"
deb="$here/dist/entrain_${version}_$(dpkg --print-architecture).deb"
bin="$here/.build/release/entrain"
[ -f "$deb" ] || { echo "deb-test: no $deb (run \`make deb\` first)" >&2; exit 1; }
started=$(date +%s)

cache="${ENTRAIN_DEB_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/entrain/deb-test}"
base="$cache/bookworm"
if [ ! -e "$base/.complete" ]; then
  echo "deb-test: debootstrapping a minimal Debian 12 root into $base (once; a few minutes)"
  rm -rf "$base"
  mkdir -p "$cache"
  debootstrap --variant=minbase bookworm "$base" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" \
    > "$cache/debootstrap.log" 2>&1 || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
  touch "$base/.complete"
fi

run="$(mktemp -d "${TMPDIR:-/tmp}/entrain-deb-test.XXXXXX")"
trap 'rm -rf "$run"' EXIT
mkdir -p "$run/upper" "$run/work" "$run/root" "$run/results"
status=0
unshare --mount --pid --fork --propagation private \
  "$0" --inside "$run" "$deb" "$base" "$("$bin" --version)" || status=$?
results="$run/results"
[ $status -eq 0 ] || { echo "deb-test: FAILED in the Debian root (exit $status)"; exit 1; }

# The recordings, measured here (the Debian root has no Python): the render is the host build's
# render sample for sample, and both it and the live recording carry the session's binaural
# pair (theta-meditation starts at carrier 180 Hz, beat 10 Hz: one ear near 175 Hz, the other
# near 185 Hz) well above silence.
"$bin" render --session theta-meditation --duration 8 --out "$run/host.wav" --quiet
cmp -s "$run/host.wav" "$results/render.wav" \
  || { echo "deb-test: FAILED: the installed entrain's render differs from the build's own"; exit 1; }
python3 "$here/scripts/binaural-check.py" "$results/render.wav" 2 2 || exit 1
python3 "$here/scripts/binaural-check.py" "$results/live.wav" 0 2 || exit 1

echo "deb-test: passed in $(( $(date +%s) - started )) s: $(basename "$deb") on Debian $(cat "$base/etc/debian_version") without Swift"
