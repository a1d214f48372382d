"""The plugin's fixtures with the user's own files, and the connection-level errors."""

import glob
import json
import os
import socket
import ssl
import subprocess

import pytest

import rivesync
from rivesync import ConnectionFailed, Forbidden, Unauthorized

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "fixtures", "riv")
COUNTER = {
    "rivesyncSchema": 1,
    "viewModels": [{"name": "Counter", "properties": [{"name": "count", "type": "number"},
                                                      {"name": "bump", "type": "trigger"}],
                    "instances": [{"name": "Start", "values": {"count": 1}}]}],
    "artboards": [{"name": "Main", "viewModel": "Counter", "stateMachines": ["run"]}],
}


@pytest.fixture
def counter_daemon(rivesyncd_factory, tmp_path):
    path = tmp_path / "counter.schema.json"
    path.write_text(json.dumps(COUNTER))
    return rivesyncd_factory(str(path), config={"stateMachines": [
        {"name": "counter", "file": "counter", "artboard": "Main", "stateMachine": "run"}]})


async def test_a_daemon_on_the_users_schema(counter_daemon, connect, wait_for):
    worker = await connect(counter_daemon)
    assert await worker.get_file_names() == ["counter"]
    counter = await worker.state_machine("counter")
    main = await counter.main_instance()
    assert await main.value("count") == 1
    other = await connect(counter_daemon)
    await (await other.target("counter")).set_value("count", 41)
    assert await wait_for(main, "count", 41) == 41


async def test_riv_files_and_the_digest_of_every_property_type(rivesyncd_factory, connect):
    """Every .riv fixture in one daemon; a state machine on each artboard that has one; each
    replica's digest equals the daemon's (all 13 property types occur in these files)."""
    rivs = sorted(glob.glob(os.path.join(FIXTURES, "*.riv")))
    if not rivs:
        pytest.fail(f"no .riv fixtures in {FIXTURES} (the ../shared checkout is absent)")
    first = rivesyncd_factory(rivs[0])  # the plugin's one-file form, named by the file's stem
    stem = os.path.basename(rivs[0])[:-4]
    assert await (await connect(first)).get_file_names() == [stem]
    daemon = rivesyncd_factory(config={"files": [{"name": os.path.basename(p)[:-4], "path": p} for p in rivs]})
    worker = await connect(daemon)
    machines, types = 0, set()
    for name in await worker.get_file_names():
        file = await worker.file(name)
        types |= {p["type"] for vm in file.schema.get("viewModels", []) for p in vm["properties"]}
        for artboard in file.schema.get("artboards", []):
            if not artboard.get("stateMachines"):
                continue
            # Manual: an auto target advances by itself while its state machine runs, so its
            # seq could move between the two digests; this one moves only on its advances.
            machine = await (await file.create_artboard(artboard["name"])).create_state_machine(manual=True)
            await machine.replica()
            for elapsed in (0, 0.25):  # its first advance, then a quarter second of it
                await machine.wait_for_seq((await machine.advance(elapsed)).seq)
            seq, digest = await machine.daemon_digest()
            assert await machine.seq() == seq
            assert await machine.digest() == digest, f"{name}/{artboard['name']}"
            machines += 1
    assert machines >= 50 and len(rivs) >= 20
    assert types >= {"artboard", "assetBlob", "assetFont", "assetImage", "boolean", "color", "enum", "list", "number",
                     "string", "symbolListIndex", "trigger", "viewModel"}


async def test_unreachable_unauthorized_and_forbidden(rivesyncd_factory, connect, tmp_path):
    with socket.socket() as listener:  # a port nobody answers on
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
    with pytest.raises(ConnectionFailed):
        await rivesync.Worker.connect(f"ws://127.0.0.1:{port}/", connect_timeout=2)
    with socket.socket() as silent:  # accepts, never answers: the connect timeout ends the wait
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        with pytest.raises(ConnectionFailed) as timed_out:
            await rivesync.Worker.connect(f"ws://127.0.0.1:{silent.getsockname()[1]}/", connect_timeout=0.5)
        assert "within 0.5 s" in timed_out.value.message
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({"tokens": [
        {"name": "reader", "token": "read-only-token-0123", "scopes": [{"allow": ["read"], "target": "*"}]}]}))
    tokens.chmod(0o600)
    demo = os.path.join(os.path.dirname(__file__), "..", "..", "..", "protocol", "examples", "demo.schema.json")
    daemon = rivesyncd_factory(demo, file_name="demo", config={
        "auth": {"tokensFile": str(tokens)},
        "instances": [{"name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"}]})
    with pytest.raises(Unauthorized) as refused:
        await rivesync.Worker.connect(daemon.url, "wrong")
    assert refused.value.code == "unauthorized"
    with pytest.raises(Unauthorized):
        await rivesync.Worker.connect(daemon.url)
    reader = await connect(daemon, "read-only-token-0123")
    theme = await reader.target("theme")
    assert await theme.value("name") == "Light"
    with pytest.raises(Forbidden) as forbidden:
        await theme.set_value("name", "x")
    assert forbidden.value.code == "forbidden" and forbidden.value.details["scope"] == "write"


async def test_wss_with_a_private_ca(rivesyncd_factory, connect, tmp_path):
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key),
         "-out", str(certificate), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True)
    demo = os.path.join(os.path.dirname(__file__), "..", "..", "..", "protocol", "examples", "demo.schema.json")
    daemon = rivesyncd_factory(demo, file_name="demo", config={
        "tls": {"certificate": str(certificate), "key": str(key)},
        "instances": [{"name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"}]})
    url = f"wss://127.0.0.1:{daemon.port}/"
    with pytest.raises(ConnectionFailed):
        await rivesync.Worker.connect(url)
    worker = await connect(url, ssl=ssl.create_default_context(cafile=str(certificate)))
    assert await (await worker.target("theme")).value("name") == "Light"


def test_the_daemon_binary_is_found_where_a_user_has_it(tmp_path, monkeypatch):
    """``--rivesyncd``, then $RIVESYNC_DAEMON ($RIVESYNCD), then PATH, then the repository's
    build around the working directory, release before debug — also for an installed package."""
    from rivesync.testing import find_rivesyncd

    def executable(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
        return str(path)

    repository = tmp_path / "repo"
    (repository / "Package.swift").parent.mkdir()
    (repository / "Package.swift").write_text("// swift-tools-version:6.0\n")
    debug = executable(repository / ".build" / "debug" / "rivesyncd")
    nested = repository / "clients" / "python"
    nested.mkdir(parents=True)
    for name in ("RIVESYNC_DAEMON", "RIVESYNCD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.chdir(nested)
    assert find_rivesyncd() == debug
    release = executable(repository / ".build" / "release" / "rivesyncd")
    assert find_rivesyncd() == release
    on_path = executable(tmp_path / "bin" / "rivesyncd")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert find_rivesyncd() == on_path
    monkeypatch.setenv("RIVESYNCD", "/older/variable")
    assert find_rivesyncd() == "/older/variable"
    monkeypatch.setenv("RIVESYNC_DAEMON", "/from/the/environment")
    assert find_rivesyncd() == "/from/the/environment"
    assert find_rivesyncd("/given") == "/given"
