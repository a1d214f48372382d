"""The README's pytest examples, run by pytest as a user would (in a child process) in each way
the plugin must work: without pytest-asyncio, and with it in strict and in auto mode. Every
example passes, and nothing is left behind ("Task was destroyed but it is pending", a
``ResourceWarning``)."""

import importlib.util
import os
import re
import subprocess
import sys

import pytest

README = os.path.join(os.path.dirname(__file__), "..", "README.md")
MODES = {
    "absent": ["-p", "no:asyncio"],
    "strict": ["-o", "asyncio_mode=strict"],
    "auto": ["-o", "asyncio_mode=auto"],
}


def documented_tests():
    """The README's python blocks that are test modules (their first line names a ``test_*.py``)."""
    with open(README) as readme:
        blocks = re.findall(r"```python\n(.*?)```", readme.read(), re.S)
    return {match.group(1): block for block in blocks if (match := re.match(r"# (test_\w+\.py)", block))}


@pytest.mark.parametrize("mode", MODES)
def test_the_readme_examples_pass(mode, rivesyncd_binary, tmp_path, request):
    if mode != "absent" and importlib.util.find_spec("pytest_asyncio") is None:
        if os.environ.get("RIVESYNC_TEST_PYTEST_ASYNCIO") == "required":
            pytest.fail("pytest-asyncio is not installed (.ci/setup-tests.sh installs it in .build/python-tests)")
        pytest.skip("pytest-asyncio is not installed (RIVESYNC_TEST_PYTEST_ASYNCIO=required makes this a failure)")
    modules = documented_tests()
    assert modules, f"no test module among the python blocks of {README}"
    for name, text in modules.items():
        (tmp_path / name).write_text(text)
    plugin = [] if request.config.pluginmanager.hasplugin("rivesync") else ["-p", "rivesync.pytest_plugin"]
    environment = dict(os.environ, RIVESYNC_DAEMON=rivesyncd_binary, PYTHONWARNINGS="default")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:logging", "--assert=plain",
         "-W", "error::pytest.PytestUnraisableExceptionWarning", *plugin, *MODES[mode], str(tmp_path)],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert f"{sum(text.count('async def test_') for text in modules.values())} passed" in output, output
    for leak in ("Task was destroyed", "was never awaited", "ResourceWarning"):
        assert leak not in output, output
