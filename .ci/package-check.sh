#!/bin/sh
# Builds the Debian package (packaging/build-deb.sh), runs lintian on it (every error and
# warning fails, except the overrides packaging/lintian-overrides lists with their reasons),
# installs it with apt (as CI does, root), checks what it installed, runs the installed daemon on
# the installed example, and purges it. Checks: no libcap2 in Depends, rivesyncd --version,
# rivesync --version (the same binary under its other name) and --check-config
# /etc/rivesyncd/config.json, systemd-analyze verify on the installed units (the cluster template
# as an instance), every Documentation= of the units resolves to an installed man page or file,
# the man pages, the conffile, every file README.md names (CLUSTER.md, the units) and the
# monitoring files are in place, /readyz on the running daemon.
set -eu
cd "$(dirname "$0")/.."
package=$(sh packaging/build-deb.sh dist | tail -n 1)
echo "package-check: built $package ($(du -h "$package" | cut -f1), $(stat -c %s "$package") bytes)"
dpkg-deb --field "$package" Package Version Depends
# --suppress-tags-from-file: the tags packaging/lintian-overrides names, each with its reason.
lintian_report=$(lintian --fail-on error,warning --display-level ">=warning" \
    --suppress-tags-from-file packaging/lintian-overrides "$package" 2>&1) || {
    printf '%s\n' "$lintian_report"
    echo "package-check: lintian found errors or warnings" >&2
    exit 1
}
[ -z "$lintian_report" ] || printf '%s\n' "$lintian_report"
case "$(dpkg-deb --field "$package" Depends)" in *libcap*) echo "package-check: Depends names libcap" >&2; exit 1 ;; esac
as_root=""
[ "$(id -u)" -eq 0 ] || as_root="sudo"
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq "./$package" >/dev/null
scratch=$(mktemp -d)
daemon_pid=""
cleanup() {
    [ -z "$daemon_pid" ] || kill "$daemon_pid" 2>/dev/null || true
    rm -rf "$scratch"
    $as_root dpkg --purge rivesync >/dev/null
}
trap cleanup EXIT
fail() { echo "package-check: $*" >&2; exit 1; }

version=$(dpkg-deb --field "$package" Version)
[ "$(/usr/bin/rivesyncd --version)" = "rivesyncd $version" ] || fail "rivesyncd --version is not $version"
[ "$(/usr/bin/rivesync --version)" = "rivesync $version" ] || fail "rivesync --version is not $version"
[ "$(readlink /usr/bin/rivesync)" = rivesyncd ] || fail "/usr/bin/rivesync is not a link to rivesyncd"
/usr/bin/rivesyncd --check-config /etc/rivesyncd/config.json
dpkg-query --showformat='${Conffiles}\n' --show rivesync | grep -q "/etc/rivesyncd/config.json" || fail "config.json is not a conffile"
systemd-analyze verify /lib/systemd/system/rivesyncd.service /lib/systemd/system/rivesyncd.socket
cp /lib/systemd/system/rivesyncd-cluster@.service "$scratch/rivesyncd-cluster@1.service"
systemd-analyze verify "$scratch/rivesyncd-cluster@1.service"
grep -q '^Requires=.*redis' /lib/systemd/system/rivesyncd-cluster@.service && fail "the cluster unit Requires= redis (a remote Redis could not be used)"
for doc in README.md docs/CONFIGURATION.md docs/OPERATING.md docs/RUNNING-A-CLUSTER.md docs/CLI.md protocol/PROTOCOL.md protocol/SCHEMA.md protocol/CLUSTER.md protocol/schemas/common.schema.json \
    systemd/README.md config/rivesyncd.conf.schema.json config/example.json ops/README.md \
    ops/grafana/rivesync-dashboard.json ops/prometheus/rivesync-alerts.yml changelog.gz CHANGELOG.md.gz copyright; do
    [ -f "/usr/share/doc/rivesync/$doc" ] || fail "/usr/share/doc/rivesync/$doc is not installed"
done
for program in rivesync rivesyncd; do
    for completion in /usr/share/bash-completion/completions/$program /usr/share/zsh/vendor-completions/_$program \
        /usr/share/fish/vendor_completions.d/$program.fish; do
        [ -s "$completion" ] || fail "the shell completion $completion is not installed"
    done
    bash -c ". /usr/share/bash-completion/completions/$program && complete -p $program" >/dev/null ||
        fail "the bash completion of $program does not load"
done
for page in "8 rivesyncd" "5 rivesyncd.conf" "1 rivesync"; do
    man -w $page >/dev/null || fail "man page $page is not installed"
done
# Every systemd unit README.md and docs/ name is installed.
for unit in $(cat README.md docs/*.md | grep -o 'rivesyncd[a-z@-]*\.\(service\|socket\)' | sort -u); do
    [ -f "/lib/systemd/system/$unit" ] || fail "the docs name $unit, which is not installed"
done
documentation=$(sed -n 's/^Documentation=//p' /lib/systemd/system/rivesyncd.service /lib/systemd/system/rivesyncd-cluster@.service)
[ -n "$documentation" ] || fail "the unit has no Documentation="
for uri in $documentation; do
    case "$uri" in
        man:*) name=${uri#man:}; man -w "$(echo "$name" | sed 's/.*(\(.*\))/\1/')" "${name%%(*}" >/dev/null || fail "$uri is not installed" ;;
        file:*) [ -f "${uri#file:}" ] || fail "$uri is not installed" ;;
        *) fail "unexpected Documentation= $uri" ;;
    esac
done

# The installed binary runs on the installed example (on a free port) and becomes ready.
: >"$scratch/daemon.log"  # exists before the loop reads it (the redirection below is the child's)
/usr/bin/rivesyncd --config /etc/rivesyncd/config.json --port 0 2>"$scratch/daemon.log" &
daemon_pid=$!
port=""
for _ in $(seq 200); do
    port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$scratch/daemon.log")
    [ -z "$port" ] || break
    kill -0 "$daemon_pid" 2>/dev/null || { cat "$scratch/daemon.log"; fail "the installed rivesyncd did not start"; }
    sleep 0.1
done
[ -n "$port" ] || { cat "$scratch/daemon.log"; fail "the installed rivesyncd did not listen"; }
ready=$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/readyz', timeout=10).read().decode().strip())")
[ "$ready" = ready ] || fail "/readyz said '$ready'"
kill "$daemon_pid"
wait "$daemon_pid" || fail "the installed rivesyncd did not exit 0 on SIGTERM"
daemon_pid=""
echo "package-check: $package installs; --check-config, systemd-analyze verify, man pages, Documentation= and /readyz pass"
