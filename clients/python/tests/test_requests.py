"""Every request type of protocol v1 through the client's API, against ``rivesyncd --demo``."""

import asyncio
import base64
import json
import os

import pytest

import rivesync
from rivesync import (ArtboardError, FileError, StateMachineError, TargetDeleted, ViewModelInstanceError,
                      WorkerError)

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==")
DEMO = os.path.join(os.path.dirname(__file__), "..", "..", "..", "protocol", "examples", "demo.schema.json")
BIG_RIV = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "fixtures", "riv", "data_binding_test.riv")


async def test_listings(rivesyncd, connect):
    worker = await connect(rivesyncd)
    assert worker.epoch and worker.limits["maxMessageBytes"] > 0
    await worker.ping()
    assert await worker.get_file_names() == ["demo"]
    demo = await worker.file("demo")
    assert await demo.get_view_model_names() == ["Theme", "Character", "Player", "Lobby"]
    assert await demo.get_global_view_model_names() == ["Theme"]
    assert await demo.get_instance_names("Theme") == ["Light", "Dark"]
    properties = {p["name"]: p for p in await demo.get_properties("Lobby")}
    assert properties["host"] == {"name": "host", "type": "viewModel", "metaData": "Player"}
    assert {"name": "Mode", "values": ["light", "dark"]} in await demo.get_enums()
    assert await demo.get_artboard_names() == ["Character", "Lobby"]
    assert await (await demo.create_artboard("Lobby")).get_state_machine_names() == ["lobby"]
    assert await demo.default_view_model_info("Lobby") == ("Lobby", "Default")
    targets = {t["name"]: t for t in await worker.get_targets()}
    assert [t["name"] for t in await worker.get_targets(page_size=1)] == sorted(targets)  # every page followed
    assert targets["theme"]["kind"] == "instance" and targets["character"]["mode"] == "auto"
    with pytest.raises(FileError) as missing:
        await worker.file("nope")
    assert missing.value.code == "unknown_file" and missing.value.details == {"file": "nope"}
    with pytest.raises(FileError) as view_model:
        await demo.get_properties("Nope")
    assert view_model.value.code == "invalid_view_model"
    with pytest.raises(ArtboardError):
        await demo.create_artboard("Nope")


async def test_values_commands_and_acks(rivesyncd, connect):
    worker = await connect(rivesyncd)
    character = await worker.state_machine("character")
    receipt = await character.set_value("mood", 5)
    assert receipt.target == "character" and receipt.seq == 1
    assert await character.value("mood") == 5  # the replica has the batch before the ack
    assert await character.get("mood") == 5
    await character.fire("success")
    await character.fire("success")
    assert await character.value("success") == 2
    await character.set_value("@Theme/background", "#FF102030")
    theme = await worker.target("theme")
    await worker.synchronize()
    assert await theme.value("background") == "#FF102030"
    assert await theme.value_type("mode") == "enum"
    main = await character.main_instance()
    assert main.view_model == "Character"
    assert await main.value("mood") == 5
    await main.set_value("mood", 7.25)
    assert await character.value("mood") == 7.25
    seq, digest = await character.daemon_digest()
    assert seq == await character.seq() and digest == await character.digest()


async def test_lists_nested_and_bind(rivesyncd, connect):
    worker = await connect(rivesyncd)
    demo = await worker.file("demo")
    lobby = await worker.state_machine("lobby")
    guest = await demo.create_view_model_instance("Player", instance_name="Guest")
    with pytest.warns(DeprecationWarning, match="instance_name"):  # the former spelling still works
        former = await demo.create_view_model_instance("Player", name="Guest")
    assert (former.view_model, former.name) == ("Player", "Guest") and former != guest
    blank = await demo.create_view_model_instance("Player", blank=True)
    default = await demo.create_view_model_instance("Player")
    await lobby.append_instance(guest, "players")
    await lobby.insert_instance(blank, "players", 0)
    await lobby.append_instance(default.id, "players")
    assert await lobby.value("players") == [blank.id, guest.id, default.id]
    await lobby.swap_instances("players", 0, 2)
    assert await lobby.value("players") == [default.id, guest.id, blank.id]
    await lobby.set_value("players/1/name", "Ada")
    assert await guest.value("name") == "Ada"  # through the instance's own anchor
    await lobby.remove_instance("players", index=0)
    await lobby.remove_instance("players", instance=blank)
    assert await lobby.value("players") == [guest.id]
    host = await demo.create_view_model_instance("Player", blank=True)
    await lobby.set_value("host", host)
    await lobby.fire("host/wave")
    assert (await lobby.value("host"))["instance"] == host.id and await lobby.value("host/wave") == 1
    main = await lobby.main_instance()
    assert await main.size("players") == 1
    assert (await main.instance("players", 0)).id == guest.id
    dark = await demo.create_view_model_instance("Theme", index=1)
    await lobby.bind_view_model_instances(globals={"Theme": dark})
    assert (await lobby.global_instance("Theme")).id == dark.id
    assert await lobby.value("@Theme/name") == "Dark"
    with pytest.raises(StateMachineError) as wrong:
        await lobby.bind(globals={"Nope": dark})
    assert wrong.value.code == "invalid_global_view_model_name"
    with pytest.raises(ViewModelInstanceError) as incompatible:
        await lobby.set_value("host", dark)
    assert incompatible.value.code == "incompatible_instance"
    state = await lobby.state()
    assert {i["id"] for i in state["instances"]} >= {guest.id, host.id, dark.id}


async def test_manual_state_machine_advance(rivesyncd, connect):
    worker = await connect(rivesyncd)
    demo = await worker.file("demo")
    main = await demo.create_view_model_instance(artboard="Character")
    machine = await (await demo.create_artboard("Character")).create_state_machine(
        binding=main, manual=True, target_name="manual-character")
    assert (await machine.info())["mode"] == "manual"
    setter = asyncio.ensure_future(machine.set_value("mood", 8))
    seq = 0
    while not setter.done():  # the set may reach the daemon after an advance: advance until acked
        seq = (await machine.advance()).seq or seq
        await asyncio.sleep(0.01)
    receipt = await setter
    assert receipt.seq == seq == 1
    assert await machine.value("mood") == 8
    # nothing queued, a schema's state machine is always settled: no batch, whatever the seconds
    assert await machine.advance(elapsed=0.5) == rivesync.Advanced("manual-character", 1, True)
    with pytest.raises(StateMachineError) as auto:
        await (await worker.state_machine("character")).advance()
    assert auto.value.code == "not_manual" and auto.value.details == {"target": "character"}


async def test_transaction_applies_in_one_batch_or_not_at_all(rivesyncd, connect):
    worker = await connect(rivesyncd)
    theme = await worker.target("theme")
    batches = await theme.batches()
    receipt = await theme.transaction([
        {"type": "set", "path": "name", "value": "Dark"},
        {"type": "set", "path": "background", "value": "#FF121212"},
    ])
    assert len(receipt.commands) == 2 and receipt.command == receipt.commands[0]
    batch = await asyncio.wait_for(batches.__anext__(), 20)
    assert batch.commands == list(receipt.commands) and len(batch.authors) == 2
    assert all(set(author) <= {"client", "token"} for author in batch.authors)
    with pytest.raises(ViewModelInstanceError) as failed:
        await theme.transaction([{"type": "set", "path": "name", "value": "Half"}, {"type": "set", "path": "name", "value": 7}])
    assert failed.value.code == "type_mismatch" and failed.value.details["commandIndex"] == 1
    assert await theme.get("name") == "Dark"


async def test_typed_errors_carry_the_protocol_code(rivesyncd, connect):
    worker = await connect(rivesyncd)
    character = await worker.state_machine("character")
    cases = [
        (character.set_value("mood", "high"), ViewModelInstanceError, "type_mismatch"),
        (character.set_value("mod", 1), ViewModelInstanceError, "no_such_property"),
        (character.set_value("@Theme/mode", "sepia"), ViewModelInstanceError, "invalid_enum_value"),
        (character.set_value("mood", None), ViewModelInstanceError, "type_mismatch"),
        (worker.request({"type": "set", "target": "lobby", "path": "host", "value": None}), ViewModelInstanceError,
         "invalid_value"),
        (worker.request({"type": "fire", "target": "nowhere", "path": "x"}), StateMachineError, "unknown_target"),
        (worker.request({"type": "teleport"}), WorkerError, "unknown_type"),
        (worker.request({"type": "set", "target": "character", "path": "mood"}), WorkerError, "bad_message"),
    ]
    for call, family, code in cases:
        with pytest.raises(family) as error:
            await call
        assert error.value.code == code, error.value
        assert isinstance(error.value.message, str)
    with pytest.raises(ViewModelInstanceError) as path:
        await character.value("mod")  # the replica reports the daemon's code too
    assert path.value.code == "no_such_property"
    with pytest.raises(ViewModelInstanceError):
        await character.value_stream("nope")
    await worker.ping()  # an error reply never closes the connection


async def test_publish_delete_upload_and_load_file(rivesyncd_factory, connect):
    daemon = rivesyncd_factory(DEMO, file_name="demo", config={"allowFileUploads": True})
    worker = await connect(daemon)
    demo = await worker.file("demo")
    light = await demo.create_view_model_instance("Theme", instance_name="Light", publish="light-theme")
    assert await (await worker.target("light-theme")).value("name") == "Light"
    copy = await demo.create_view_model_instance("Theme", instance_name="Dark")
    dark = await demo.publish(copy, "dark-theme")
    assert await dark.value("mode") == "dark"
    published = await worker.published_instance("dark-theme")
    assert published.id == copy.id
    stream = await dark.value_stream("name")
    waiting = asyncio.ensure_future(stream.__anext__())
    assert await worker.delete_target("dark-theme") == [copy.id]
    with pytest.raises(TargetDeleted):
        await waiting
    assert "dark-theme" not in {t["name"] for t in await worker.get_targets()}
    asset = await worker.decode_image(PNG)
    assert asset["id"].startswith("sha256:") and asset["mediaType"] == "image/png"
    with pytest.raises(FileError) as bad:
        await worker.decode_image(b"not an image")
    assert bad.value.code == "invalid_asset_data"
    blob = await worker.decode_blob(b"\x00\x01")
    assert blob["bytes"] == 2
    schema = {"rivesyncSchema": 1, "viewModels": [{"name": "Counter", "properties": [
        {"name": "count", "type": "number"}, {"name": "picture", "type": "assetImage"}],
        "instances": [{"name": "Start", "values": {"count": 3}}]}],
        "artboards": [{"name": "Main", "viewModel": "Counter", "stateMachines": ["run"]}]}
    counters = await worker.load_file("counters", schema=schema)
    assert await counters.get_instance_names("Counter") == ["Start"]
    with pytest.raises(FileError) as taken:
        await worker.load_file("counters", schema=schema)
    assert taken.value.code == "file_exists"
    with open(DEMO, "rb") as source:
        await worker.load_file("demo-copy", schema=json.load(source))
    assert "demo-copy" in await worker.get_file_names()
    # A .riv file past one 1 MiB message (about 780 KB of bytes) goes in parts.
    with open(BIG_RIV, "rb") as source:
        riv = source.read()
    assert len(riv) > 800_000
    assert await (await worker.load_file("big", riv=riv)).get_view_model_names()
    machine = await (await counters.create_artboard()).create_state_machine(target_name="counter")
    await machine.set_value("picture", asset)
    assert (await machine.value("picture"))["id"] == asset["id"]
    await machine.set_value("picture", None)
    assert await machine.value("picture") is None
    assert light.anchor == "light-theme"


async def test_path_subscription_and_unsubscribe(rivesyncd, connect):
    writer = await connect(rivesyncd)
    reader = await connect(rivesyncd)
    snapshot = await reader.request({"type": "subscribe", "target": "character", "paths": ["mood", "@Theme/name"]})
    assert snapshot["type"] == "snapshot" and snapshot["values"] == {"mood": 0, "@Theme/name": "Light"}
    await (await writer.target("character")).set_value("mood", 2)
    assert (await reader.request({"type": "unsubscribe", "target": "character"}))["type"] == "unsubscribed"


async def test_value_streams_and_wait_for(rivesyncd, connect, wait_for):
    worker = await connect(rivesyncd)
    other = await connect(rivesyncd)
    character = await worker.state_machine("character")
    stream = await character.value_stream("mood", include_current=True)
    assert await stream.__anext__() == 0
    target = await other.target("character")
    for value in (1, 2, 3):
        await target.set_value("mood", value)
    assert [await stream.__anext__() for _ in range(3)] == [1, 2, 3]
    await stream.aclose()
    writes = asyncio.ensure_future(target.fire("yes"))
    assert await wait_for(character, "yes", lambda fired: fired >= 1, timeout=10) == 1
    await writes
    with pytest.raises(rivesync.WaitTimeout) as timeout:
        await wait_for(character, "mood", 99, timeout=0.3)
    assert timeout.value.last == 3
    batches = await character.batches(include_current=True)
    start = await batches.__anext__()
    assert start.resync and start.seq == await character.seq()
    await target.set_value("mood", 4)
    batch = await batches.__anext__()
    assert batch.seq == start.seq + 1 and batch.effects[0]["op"] == "set"
