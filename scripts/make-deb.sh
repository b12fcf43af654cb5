#!/usr/bin/env bash
# Builds dist/entrain_VERSION_ARCH.deb from the release build (`make deb`): scripts/install.sh
# stages the files under /usr, this script adds what Debian asks of a package (stripped binary,
# compressed man pages and changelog, copyright, zsh's vendor folder, md5sums) and a control
# file whose Depends dpkg-shlibdeps computes from the libraries the binary links. Then lintian,
# when installed, reads the package; packaging/lintian-overrides explains each tag it keeps.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${ENTRAIN_BINARY:-$here/.build/release/entrain}"
out="${DEB_OUT:-$here/dist}"
version="$("$here/scripts/release-version.sh")"
arch="$(dpkg --print-architecture)"
name="entrain_${version}_${arch}"
work="$here/.build/deb"
stage="$work/$name"
# The Maintainer field and the changelog's signature: DEB_MAINTAINER, else git's user, as
# Debian's own tools take DEBFULLNAME/DEBEMAIL.
export DEB_MAINTAINER="${DEB_MAINTAINER:-$(git -C "$here" config user.name 2>/dev/null || echo entrain maintainers) <$(git -C "$here" config user.email 2>/dev/null || echo "root@$(hostname -f)")>}"

[ -x "$bin" ] || { echo "make-deb: no release build at $bin (run \`make build\` first)" >&2; exit 1; }
rm -rf "$stage"
mkdir -p "$stage/DEBIAN" "$out"
umask 022

ENTRAIN_BINARY="$bin" "$here/scripts/install.sh" "$stage" /usr >/dev/null
usr="$stage/usr"
doc="$usr/share/doc/entrain"

# Debian's places and forms: symbols out of the binary (kept in the build), man pages and the
# changelog gzipped reproducibly, zsh completions in its vendor folder, the licence as copyright.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$usr/bin/entrain"
gzip -9n "$usr"/share/man/man[17]/*
mkdir -p "$usr/share/zsh/vendor-completions"
mv "$usr/share/zsh/site-functions/_entrain" "$usr/share/zsh/vendor-completions/_entrain"
rmdir "$usr/share/zsh/site-functions"
# bash-completion sources its files: a hashbang line there is only misleading (lintian says so).
sed -i '1{/^#!/d}' "$usr/share/bash-completion/completions/entrain"
rm "$doc/LICENSE"
sed "s/@year@/$(date -u +%Y)/" "$here/packaging/copyright" > "$doc/copyright"
"$here/scripts/debian-changelog.sh" "$here/CHANGELOG.md" | gzip -9n > "$doc/changelog.gz"
gzip -9n "$doc/CHANGELOG.md"
install -D -m 644 "$here/packaging/lintian-overrides" "$usr/share/lintian/overrides/entrain"

# Depends: what the binary links, as the system's shlibs files name the packages (libjack's
# names libjack-jackd2-0 or any package providing libjack-0.125). dpkg-shlibdeps wants a
# debian/control beside it, so it runs in a scratch folder.
shlibs="$work/shlibdeps"
rm -rf "$shlibs" && mkdir -p "$shlibs/debian"
printf 'Source: entrain\n\nPackage: entrain\nArchitecture: any\n' > "$shlibs/debian/control"
depends="$(cd "$shlibs" && dpkg-shlibdeps -O --warnings=1 -e"$usr/bin/entrain" | sed -n 's/^shlibs:Depends=//p')"
[ -n "$depends" ] || { echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

installed_size="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
sed -e "s/@version@/$version/" -e "s/@arch@/$arch/" -e "s/@depends@/$depends/" \
    -e "s/@installed_size@/$installed_size/" -e "s|@maintainer@|$DEB_MAINTAINER|" "$here/packaging/control" > "$stage/DEBIAN/control"
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

deb="$out/$name.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb.tmp" >/dev/null
mv "$deb.tmp" "$deb"
echo "make-deb: $deb ($(du -k "$deb" | cut -f1) kB; Depends: $depends)"

if command -v lintian >/dev/null; then
  echo "make-deb: lintian (O: tags are overridden: packaging/lintian-overrides says why):"
  lintian --info --display-info --show-overrides "$deb" | sed 's/^/  /' || true
else
  echo "make-deb: lintian is not installed (apt-get install lintian) and did not read the package"
fi
