"""The README's pytest examples, run by pytest as a user would (in a child process) in each way
the plugin must work: without pytest-asyncio, and with it in strict and in auto mode — also on
Debian 12's own stack (/usr/bin/python3 with python3-pytest-asyncio: pytest 7.2,
pytest-asyncio 0.20, websockets 10.4, the oldest the package supports). Every example passes,
and nothing is left behind ("Task was destroyed but it is pending", a ``ResourceWarning``)."""

import importlib.util
import os
import re
import subprocess
import sys

import pytest

PACKAGE = os.path.join(os.path.dirname(__file__), "..")
README = os.path.join(PACKAGE, "README.md")
DEBIAN_PYTHON = "/usr/bin/python3"
CASES = {  # id: the interpreter, pytest's options
    "absent": (sys.executable, ["-p", "no:asyncio"]),
    "strict": (sys.executable, ["-o", "asyncio_mode=strict"]),
    "auto": (sys.executable, ["-o", "asyncio_mode=auto"]),
    "debian-strict": (DEBIAN_PYTHON, ["-o", "asyncio_mode=strict"]),
    "debian-auto": (DEBIAN_PYTHON, ["-o", "asyncio_mode=auto"]),
}


def documented_tests():
    """The README's python blocks that are test modules (their first line names a ``test_*.py``)."""
    with open(README) as readme:
        blocks = re.findall(r"```python\n(.*?)```", readme.read(), re.S)
    return {match.group(1): block for block in blocks if (match := re.match(r"# (test_\w+\.py)", block))}


def has_pytest_asyncio(python):
    if python == sys.executable:
        return importlib.util.find_spec("pytest_asyncio") is not None
    probe = [python, "-c", "import pytest, pytest_asyncio, websockets"]
    return os.access(python, os.X_OK) and subprocess.run(probe, capture_output=True).returncode == 0


@pytest.mark.parametrize("case", CASES)
def test_the_readme_examples_pass(case, rivesyncd_binary, tmp_path, request):
    python, options = CASES[case]
    if case != "absent" and not has_pytest_asyncio(python):
        if os.environ.get("RIVESYNC_TEST_PYTEST_ASYNCIO") == "required":
            pytest.fail(f"{python} has no pytest-asyncio (.ci/setup-tests.sh installs it)")
        pytest.skip(f"{python} has no pytest-asyncio (RIVESYNC_TEST_PYTEST_ASYNCIO=required makes this a failure)")
    modules = documented_tests()
    assert modules, f"no test module among the python blocks of {README}"
    for name, text in modules.items():
        (tmp_path / name).write_text(text)
    environment = dict(os.environ, RIVESYNC_DAEMON=rivesyncd_binary, PYTHONWARNINGS="default")
    if python == sys.executable:
        plugin = [] if request.config.pluginmanager.hasplugin("rivesync") else ["-p", "rivesync.pytest_plugin"]
    else:  # this source tree, its plugin by module name (an installed one's entry point blocked)
        environment["PYTHONPATH"] = os.path.abspath(PACKAGE)
        plugin = ["-p", "no:rivesync", "-p", "rivesync.pytest_plugin"]
    result = subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:logging", "--assert=plain",
         "-W", "error::pytest.PytestUnraisableExceptionWarning", *plugin, *options, str(tmp_path)],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert f"{sum(text.count('async def test_') for text in modules.values())} passed" in output, output
    for leak in ("Task was destroyed", "was never awaited", "ResourceWarning"):
        assert leak not in output, output
