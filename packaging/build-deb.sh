#!/bin/sh
# Builds the Debian package dist/rivesync_VERSION_ARCH.deb with dpkg-deb: one binary, rivesyncd,
# which is also the rivesync command line when started under that name (/usr/bin/rivesync is a
# link to it; Sources/rivesyncd/MultiCall.swift), built for release with the Swift runtime
# linked statically (so only Debian libraries are needed) in its own scratch path
# (.build/deb: `.build/release` is left alone); the systemd units (rivesyncd.service,
# rivesyncd.socket, rivesyncd-cluster@.service); the example configuration as
# /etc/rivesyncd/config.json (a conffile); the configuration's JSON Schema, the protocol's JSON
# Schemas, the demo schema; the Grafana dashboard and Prometheus alert rules (ops/); the man
# pages rivesyncd(8), rivesyncd.conf(5) and rivesync(1); rivesync's and rivesyncd's shell
# completion for bash, zsh and fish; and the docs README.md names.
# Depends: is computed by dpkg-shlibdeps from the binary. .ci/package-check.sh installs the
# result, runs lintian on it and checks what it installed. Needs dpkg-dev (.ci/setup-tests.sh).
#
# Usage: sh packaging/build-deb.sh [OUTPUT_DIRECTORY]   (default: dist)
set -eu
cd "$(dirname "$0")/.."
out=${1:-dist}
command -v dpkg-shlibdeps >/dev/null || { echo "build-deb: dpkg-shlibdeps missing: apt-get install dpkg-dev (sh .ci/setup-tests.sh)" >&2; exit 1; }
scratch=.build/deb
# libwebsockets' pkg-config file requires libcap, which nothing here calls (lws links it
# itself): a copy without that line, first on PKG_CONFIG_PATH, keeps -lcap off the link, so
# the binary does not depend on libcap2.
pkgconfig="$PWD/$scratch/pkgconfig"
mkdir -p "$pkgconfig"
sed '/^Requires:.*libcap/d' "$(pkg-config --variable=pcfiledir libwebsockets)/libwebsockets.pc" > "$pkgconfig/libwebsockets.pc"
export PKG_CONFIG_PATH="$pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# Full RELRO and immediate binding, as Debian's hardening flags give C programs (lintian).
set -- -c release --static-swift-stdlib --scratch-path "$scratch" -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
swift build "$@" --product rivesyncd
bin=$(swift build "$@" --show-bin-path)
version=$("$bin/rivesyncd" --version | sed -n 's/^rivesyncd \([0-9][0-9.]*\)$/\1/p')
[ -n "$version" ] || { echo "build-deb: cannot read the version from rivesyncd --version" >&2; exit 1; }
arch=$(dpkg --print-architecture)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The tree dpkg-shlibdeps expects: debian/control beside the package's root, debian/PACKAGE.
root="$work/debian/rivesync"
doc="$root/usr/share/doc/rivesync"
share="$root/usr/share/rivesync"

install -d "$root/usr/bin" "$root/DEBIAN"
install -m 0755 "$bin/rivesyncd" "$root/usr/bin/rivesyncd"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/rivesyncd"
ln -s rivesyncd "$root/usr/bin/rivesync"
# Shell completion for rivesync and rivesyncd, generated from rivesync's command table
# (`rivesync completion SHELL`) and rivesyncd's flag table (`rivesyncd --completion SHELL`),
# where bash-completion, zsh and fish look for a package's.
ln -s "$bin/rivesyncd" "$work/rivesync"
bash_dir="$root/usr/share/bash-completion/completions" zsh_dir="$root/usr/share/zsh/vendor-completions"
fish_dir="$root/usr/share/fish/vendor_completions.d"
install -d "$bash_dir" "$zsh_dir" "$fish_dir"
"$work/rivesync" completion bash > "$bash_dir/rivesync"
"$work/rivesync" completion zsh > "$zsh_dir/_rivesync"
"$work/rivesync" completion fish > "$fish_dir/rivesync.fish"
"$bin/rivesyncd" --completion bash > "$bash_dir/rivesyncd"
"$bin/rivesyncd" --completion zsh > "$zsh_dir/_rivesyncd"
"$bin/rivesyncd" --completion fish > "$fish_dir/rivesyncd.fish"
chmod 0644 "$bash_dir"/* "$zsh_dir"/* "$fish_dir"/*
for unit in rivesyncd.service rivesyncd.socket rivesyncd-cluster@.service; do
    install -D -m 0644 "systemd/$unit" "$root/lib/systemd/system/$unit"
done
install -D -m 0644 config/example.json "$root/etc/rivesyncd/config.json"
install -D -m 0644 config/rivesyncd.conf.schema.json "$share/rivesyncd.conf.schema.json"
install -D -m 0644 protocol/examples/demo.schema.json "$share/examples/demo.schema.json"
install -d "$share/schemas"
cp -R protocol/schemas/. "$share/schemas/"
find "$share/schemas" -type d -exec chmod 0755 {} + -o -type f -exec chmod 0644 {} +
install -D -m 0644 ops/grafana/rivesync-dashboard.json "$share/ops/grafana/rivesync-dashboard.json"
install -D -m 0644 ops/prometheus/rivesync-alerts.yml "$share/ops/prometheus/rivesync-alerts.yml"
for page in man/rivesyncd.8 man/rivesyncd.conf.5 man/rivesync.1; do
    section=${page##*.}
    install -d "$root/usr/share/man/man$section"
    gzip -9n < "$page" > "$root/usr/share/man/man$section/$(basename "$page").gz"
done
# The docs keep the repository's layout, so that README.md's links to docs/, protocol/, systemd/ and
# config/ resolve; schemas and examples are linked from /usr/share/rivesync.
install -d "$doc/protocol" "$doc/systemd" "$doc/config" "$doc/ops" "$doc/docs"
install -m 0644 README.md "$doc/README.md"
install -m 0644 docs/*.md "$doc/docs/"
install -m 0644 protocol/PROTOCOL.md protocol/SCHEMA.md protocol/CLUSTER.md "$doc/protocol/"
install -m 0644 ops/README.md "$doc/ops/README.md"
ln -s ../../../rivesync/ops/grafana "$doc/ops/grafana"
ln -s ../../../rivesync/ops/prometheus "$doc/ops/prometheus"
ln -s ../../../rivesync/schemas "$doc/protocol/schemas"
ln -s ../../../rivesync/examples "$doc/protocol/examples"
install -m 0644 systemd/README.md systemd/socket-activated.conf "$doc/systemd/"
install -m 0644 config/example.json "$doc/config/example.json"
ln -s ../../../rivesync/rivesyncd.conf.schema.json "$doc/config/rivesyncd.conf.schema.json"
# A native package's changelog.gz is in Debian's format (lintian): one entry for this version,
# dated by the last commit (reproducible), pointing at the project's own changelog.
released=$(git log -1 --format=%cD 2>/dev/null || date -R)
gzip -9n > "$doc/changelog.gz" <<CHANGES
rivesync ($version) unstable; urgency=medium

  * Release $version: see /usr/share/doc/rivesync/CHANGELOG.md.gz.

 -- RiveSync maintainers <maintainers@rivesync.dev>  $released
CHANGES
gzip -9n < CHANGELOG.md > "$doc/CHANGELOG.md.gz"
cat > "$doc/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: rivesync
Source: https://github.com/rivesync/rivesync

Files: *
Copyright: 2026 The RiveSync authors
License: Apache-2.0
 On Debian systems the full text of the Apache License 2.0 is in
 /usr/share/common-licenses/Apache-2.0 (and in the repository's LICENSE).
COPYRIGHT
chmod 0644 "$doc/copyright"

# Depends: from the libraries the binaries link.
printf 'Source: rivesync\n\nPackage: rivesync\nArchitecture: any\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O debian/rivesync/usr/bin/rivesyncd | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# lws loads its libev plugin with dlopen (the server's event loop), so no linked library names it.
depends="$depends, libwebsockets-evlib-ev"

cat > "$root/DEBIAN/control" <<CONTROL
Package: rivesync
Version: $version
Architecture: $arch
Maintainer: RiveSync maintainers <maintainers@rivesync.dev>
Installed-Size: $(du -sk "$root" | cut -f1)
Depends: $depends
Section: net
Priority: optional
Homepage: https://github.com/rivesync/rivesync
Description: live Rive data-binding state shared over WebSocket
 rivesyncd owns Rive view model instances and state machines, applies every
 client's changes in one order on each advance and sends every subscriber the
 same ordered batches, over a documented JSON protocol on WebSocket, with
 journaled state, tokens and a hardened systemd unit. rivesync is its command
 line: inspect .riv files, read, write, watch and script a daemon.
CONTROL
echo /etc/rivesyncd/config.json > "$root/DEBIAN/conffiles"
cat > "$root/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
# The unit is not enabled: edit /etc/rivesyncd/config.json, check it with
# `rivesyncd --check-config /etc/rivesyncd/config.json`, then `systemctl enable --now rivesyncd`.
set -e
if [ "$1" = configure ] && [ -d /run/systemd/system ]; then
    systemctl daemon-reload || true
    if systemctl is-active --quiet rivesyncd.service; then systemctl try-restart rivesyncd.service || true; fi
fi
POSTINST
cat > "$root/DEBIAN/prerm" <<'PRERM'
#!/bin/sh
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ] && command -v deb-systemd-invoke >/dev/null; then
    deb-systemd-invoke stop rivesyncd.socket rivesyncd.service || true
fi
PRERM
cat > "$root/DEBIAN/postrm" <<'POSTRM'
#!/bin/sh
set -e
if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
POSTRM
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/md5sums"

mkdir -p "$out"
package="$out/rivesync_${version}_${arch}.deb"
# xz level 1: the package is 18.5 MB, against 15.8 MB at level 6 and 15.6 MB at level 9, which
# take minutes more on a loaded CI machine (measured on 0.1.0, Dec 2026).
dpkg-deb --root-owner-group -Zxz -z1 --build "$root" "$package" >/dev/null
echo "$package"
