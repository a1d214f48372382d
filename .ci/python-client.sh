#!/bin/sh
# The Python client (clients/python): installs it with pip as a user would (plus pytest, a
# test-only package), then runs its pytest suite against the built rivesyncd through its own
# plugin. About 10 s after the build.
set -eu
cd "$(dirname "$0")/.."
python3 -m pip install -q --disable-pip-version-check ./clients/python pytest
python3 -m pytest -q -p no:cacheprovider --rivesyncd "$(swift build --show-bin-path)/rivesyncd" clients/python/tests
