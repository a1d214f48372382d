#!/bin/sh
# Installs Autobahn|Testsuite (wstest, Python 2.7 only) under pyenv's Python 2.7.18 into $1,
# without Docker (TESTING.md §2): download every distribution, then install each with
# --no-deps --target, skipping wsaccel (an optional speed-up that cannot build under Python 2).
# Writes $1/wstest, a launcher that adds the directory with site.addsitedir (plain PYTHONPATH
# would skip the zope namespace .pth). Nothing is cached between runs.
set -eu
target=$1
python2() { PYENV_VERSION=2.7.18 pyenv exec python "$@"; }
rm -rf "$target"
mkdir -p "$target/dists" "$target/site"
python2 -m pip download -q --disable-pip-version-check -d "$target/dists" autobahntestsuite==25.10.1
for dist in "$target"/dists/*; do
    case $(basename "$dist") in wsaccel-*) continue ;; esac
    python2 -m pip install -q --disable-pip-version-check --no-deps --no-compile --target "$target/site" "$dist"
done
cat > "$target/wstest" <<LAUNCHER
#!/bin/sh
exec env PYENV_VERSION=2.7.18 pyenv exec python -c 'import site, sys; site.addsitedir("$target/site"); sys.argv[0] = "wstest"; from autobahntestsuite.wstest import run; run()' "\$@"
LAUNCHER
chmod +x "$target/wstest"
