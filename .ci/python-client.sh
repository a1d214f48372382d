#!/bin/sh
# The Python client (clients/python): installs it with pip as a user would, then runs its
# pytest suite (pytest comes from .ci/setup-tests.sh) against the built rivesyncd through its
# own plugin. About 25 s (15 of them pip).
set -eu
cd "$(dirname "$0")/.."
python3 -m pip install -q --disable-pip-version-check ./clients/python
# --assert=plain: on the pyenv Python 3.11.7 here, pytest's assertion rewriting (ast.parse of
# every test and plugin module) now and then fails with "SystemError: AST constructor
# recursion depth mismatch", an interpreter bug; plain asserts avoid ast.parse altogether.
python3 -m pytest -q -p no:cacheprovider --assert=plain --rivesyncd "$(swift build --show-bin-path)/rivesyncd" clients/python/tests
