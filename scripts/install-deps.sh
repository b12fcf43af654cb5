#!/usr/bin/env bash
# Installs the Debian packages entrain needs, only those missing, so `make run` and
# `make test` work on a fresh Debian 12 machine with the Swift toolchain.
# Extra packages given as arguments are installed too, e.g. `scripts/install-deps.sh aubio-tools`
# for the beat-analysis comparison tests (they skip themselves without it).
set -euo pipefail

# libsndfile1-dev writes FLAC/Ogg/Opus renders and reads --mix files; sox, flac and vorbis-tools
# decode them back in the tests.
# fluidsynth and fluid-soundfont-gm render the beat analysis's sampled-instrument songs (tests).
# ola: OLA's olad and ola_recorder, the real sACN/Art-Net receiver of the pixel and DMX outputs' tests.
# ableton-link-dev: Ableton Link (header-only, built in); pipewire and pipewire-jack: the live tests
# run again on PipeWire's JACK (scripts/test-pipewire.sh). aalink (PyPI) is the Link tests' peer.
packages=(jackd2 libjack-jackd2-dev liblo-dev liblo-tools libfftw3-dev pkg-config avahi-utils avahi-daemon dbus-daemon
          liblilv-dev lilv-utils swh-lv2 x42-plugins lsp-plugins-lv2 mda-lv2 dragonfly-reverb-lv2
          fluidsynth fluid-soundfont-gm
          libsndfile1-dev sox flac vorbis-tools zlib1g-dev
          ableton-link-dev pipewire pipewire-jack ola "$@")

# The Link tests' peer, from PyPI (pip installs for the user when not root).
link_peer() { python3 -c 'import aalink' 2>/dev/null || python3 -m pip install --quiet aalink; }

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then link_peer; exit 0; fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# jackd2 asks whether to enable realtime priority; answer it ahead of time.
echo "jackd2 jackd/tweak_rt_limits boolean false" | $sudo debconf-set-selections
# Several set-ups may run at once (parallel checkouts): wait for the package lock instead of failing.
lock=(-o DPkg::Lock::Timeout=900)
$sudo apt-get "${lock[@]}" update -qq
$sudo apt-get "${lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
link_peer
