#!/bin/sh
# The Python client (clients/python): installs it with pip as a user would, into the virtual
# environment .build/python-tests that .ci/setup-tests.sh makes (pytest-asyncio and mypy in it),
# checks it with `mypy --strict`, then runs its pytest suite against the built rivesyncd through
# its own plugin, with pytest-asyncio in strict mode; test_documented.py runs the README's
# examples again without pytest-asyncio and in strict and auto mode. About 50 s.
set -eu
cd "$(dirname "$0")/.."
venv=.build/python-tests
[ -x "$venv/bin/python" ] || { echo "python-client.sh: no $venv: run .ci/setup-tests.sh" >&2; exit 1; }
"$venv/bin/python" -m pip install -q --disable-pip-version-check ./clients/python
(cd clients/python && "../../$venv/bin/python" -m mypy --strict -p rivesync)
# --assert=plain: on the pyenv Python 3.11.7 here, pytest's assertion rewriting (ast.parse of
# every test and plugin module) now and then fails with "SystemError: AST constructor
# recursion depth mismatch", an interpreter bug; plain asserts avoid ast.parse altogether.
RIVESYNC_TEST_PYTEST_ASYNCIO=required "$venv/bin/python" -m pytest -q -p no:cacheprovider --assert=plain \
    -o asyncio_mode=strict -o asyncio_default_fixture_loop_scope=function \
    --rivesyncd "$(swift build --show-bin-path)/rivesyncd" clients/python/tests
