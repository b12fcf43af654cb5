#!/bin/bash
# Runs inside the Debian 12 root of scripts/deb-test.sh (no Swift there): installs the package
# given with the Depends it names from the archive, then checks what a user would do with it, and
# removes it. Recordings go to /tmp/results for deb-test.sh to measure. Every wait is on a
# condition, bounded; the namespace ends every process started here.
set -euo pipefail
deb="$1"
results=/tmp/results
step() { echo "deb-test: $*"; }
fail() { echo "deb-test: FAILED: $*" >&2; exit 1; }
# Up to $1 tenths of a second for a command to succeed.
wait_for() { local tries=$1; shift; until "$@" >/dev/null 2>&1; do tries=$((tries - 1)); [ $tries -gt 0 ] || return 1; sleep 0.1; done; }
apt() { apt-get -o DPkg::Lock::Timeout=300 -qq "$@" >/dev/null; }

step "Debian $(cat /etc/debian_version); no Swift: $(command -v swift || echo 'no swift on PATH'), $(ldconfig -p | grep -ci swift) Swift libraries known to the loader"
[ ! -e /opt/swift ] && ! command -v swift >/dev/null && ! ldconfig -p | grep -qi swift || fail "this root has a Swift toolchain"

apt update
before="$(dpkg-query -W -f '${Package}\n' | sort)"
step "apt-get install $(basename "$deb") (no recommends: the Depends alone must be enough)"
apt install -y --no-install-recommends "$deb"
pulled="$(comm -13 <(echo "$before") <(dpkg-query -W -f '${Package}\n' | sort) | tr '\n' ' ')"
step "installed with it: $pulled"
dpkg-query -L entrain | sort > $results/files

version="$(entrain --version)"
[ "$version" = "$EXPECTED_VERSION" ] || fail "entrain --version said '$version', the build says '$EXPECTED_VERSION'"
step "entrain --version: $version"
ldd /usr/bin/entrain > $results/ldd
! grep -qi swift $results/ldd || fail "the binary still asks for Swift libraries: $(grep -i swift $results/ldd)"
! grep -q "not found" $results/ldd || fail "libraries missing: $(grep 'not found' $results/ldd)"

# A shipped session by name, from a folder that has no sessions/.
cd /tmp
entrain render --session theta-meditation --duration 8 --out $results/render.wav --quiet > $results/render.log
step "entrain render --session theta-meditation: $(tr '\n' ' ' < $results/render.log)"

# Test tools, installed after the package so they could not have satisfied its Depends.
echo "jackd2 jackd/tweak_rt_limits boolean false" | debconf-set-selections
apt install -y --no-install-recommends man-db jackd2 curl systemd

MANPAGER=cat MANWIDTH=80 man entrain > $results/man.txt 2>&1 || fail "man entrain: $(head -3 $results/man.txt)"
grep -q "entrain-run" $results/man.txt || fail "man entrain does not list its subcommands"
MANPAGER=cat man entrain-run 2>/dev/null | grep -q -- "--osc-bind" || fail "man entrain-run lacks --osc-bind"
step "man entrain: $(grep -m1 -A1 '^NAME' $results/man.txt | tail -1 | sed 's/^ *//')"

# The user units, as systemd reads them (an instance file stands for the template's instance).
mkdir -p /tmp/units
cp /usr/lib/systemd/user/entrain.service "/tmp/units/"
cp /usr/lib/systemd/user/entrain@.service "/tmp/units/entrain@stage.service"
mkdir -p /tmp/xdg-runtime
XDG_RUNTIME_DIR=/tmp/xdg-runtime systemd-analyze --user verify /tmp/units/entrain.service /tmp/units/entrain@stage.service \
  > $results/verify.txt 2>&1 \
  || fail "systemd-analyze verify: $(cat $results/verify.txt)"
step "systemd-analyze verify: both units pass$( [ -s $results/verify.txt ] && echo ", saying: $(tr '\n' ' ' < $results/verify.txt)")"

# Live: a private dummy jackd, the client on it, its page over HTTP, two seconds recorded.
export JACK_DEFAULT_SERVER=debtest JACK_NO_AUDIO_RESERVATION=1 JACK_NO_START_SERVER=1
jackd -n debtest --no-realtime -d dummy -r 48000 -p 256 > $results/jackd.log 2>&1 &
wait_for 200 jack_lsp || fail "jackd did not start: $(tail -5 $results/jackd.log)"
entrain run --session theta-meditation --osc-port 19417 --no-restore --quiet > $results/run.log 2>&1 &
client=$!
wait_for 300 curl -sf -o $results/page.html http://127.0.0.1:19417/ui/ \
  || fail "no control page at http://127.0.0.1:19417/ui/: $(tail -5 $results/run.log)"
grep -qi "<html" $results/page.html || fail "the control page is not HTML"
curl -sf -o $results/oscquery.json http://127.0.0.1:19417/ || fail "no OSCQuery tree"
grep -q '"FULL_PATH"' $results/oscquery.json || fail "the OSCQuery tree has no FULL_PATH"
step "control page: $(wc -c < $results/page.html) bytes of HTML, OSCQuery tree $(wc -c < $results/oscquery.json) bytes"
wait_for 100 sh -c 'jack_lsp | grep -q entrain:entrainment_R' || fail "no entrain ports: $(jack_lsp | tr '\n' ' ')"
ports=$(jack_lsp | grep -c '^entrain:')  # counted while it runs
jack_rec -f $results/live.wav -d 2 -b 16 entrain:entrainment_L entrain:entrainment_R > /dev/null 2>&1
kill -INT $client
wait $client || fail "entrain run exited $? on SIGINT: $(tail -5 $results/run.log)"
step "entrain run: $ports ports on a private jackd, 2 s recorded, SIGINT faded out and exited 0"

# Removing it leaves none of its files behind.
apt purge -y entrain
! dpkg-query -W entrain >/dev/null 2>&1 || fail "entrain is still known to dpkg"
left=""
while read -r path; do
  [ -d "$path" ] && continue  # shared folders (/usr/bin, /usr/share/man/man1) stay
  [ -e "$path" ] && left="$left $path"
done < $results/files
for folder in /usr/share/entrain /usr/share/doc/entrain; do [ -e $folder ] && left="$left $folder"; done
[ -z "$left" ] || fail "left after purge:$left"
step "purged: none of its $(grep -c . $results/files) paths left"
