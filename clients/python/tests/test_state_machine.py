"""A state machine the daemon runs (PROTOCOL.md §8, §19) through the client, on Rive's own
test files from ``../shared/fixtures/riv`` (a missing fixture fails the daemon's start, so
the test): timed advances, the state machine's changes marked in batches, its events and
layer states, and names with a ``/`` in paths."""

import asyncio
import json
import os

import pytest

import rivesync
from rivesync import StateMachineError, ViewModelInstanceError, paths

RIV = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "fixtures", "riv")


def riv(name):
    path = os.path.join(RIV, name)
    assert os.path.isfile(path), f"fixture missing: {path}"
    return path


async def applied(machine, command):
    """Sends ``command`` (a coroutine awaiting an ack) to the manual ``machine`` and advances
    it by 0 s until the daemon acks it (the command may reach the daemon after an advance);
    returns the receipt."""
    pending = asyncio.ensure_future(command)
    while not pending.done():
        await machine.advance()
        await asyncio.sleep(0.01)
    return await pending


async def batch_at(batches, seq):
    """The batch ``seq`` from a ``batches()`` stream (earlier ones skipped)."""
    async for batch in batches:
        if batch.seq >= seq:
            assert batch.seq == seq
            return batch


async def test_listeners_changes_are_marked_as_the_state_machines(rivesyncd_factory, connect):
    daemon = rivesyncd_factory(riv("listener_view_model.riv"), file_name="lvm")
    worker = await connect(daemon)
    lvm = await worker.file("lvm")
    machine = await (await lvm.create_artboard("main")).create_state_machine(manual=True, target_name="lvm")
    assert (await machine.settled()) is False, "a new state machine stands in its entry states"
    batches = await machine.batches()

    first = await machine.advance()  # Rive's first advance(by: 0): the layer enters its animation
    assert first.settled is False and first.seq == 1
    batch = await batches.__anext__()
    assert batch.seq == 1 and batch.elapsed == 0 and batch.settled is False
    assert batch.layers == [{"layer": 0, "name": "Layer 1", "state": 1, "kind": "animation", "animation": "Timeline 1"}]
    assert await machine.layers() == batch.layers

    receipt = await applied(machine, machine.set_value("col", "#64000A0F"))
    batch = await batch_at(batches, receipt.seq)
    changes = [(effect["op"], effect["property"], effect.get("value")) for effect in batch.effects]
    # The client's write first, then what the col listener wrote and the binds carried on.
    assert changes[0] == ("set", "col", "#64000A0F") and batch.origins[0] == "command"
    assert {(prop, value) for _, prop, value in changes[1:]} == {("num1", 22), ("num2", 22), ("num3", 22)}
    assert batch.origins[1:] == ["stateMachine"] * (len(changes) - 1)
    assert batch.by_state_machine() == batch.effects[1:]
    assert [await machine.value(name) for name in ("num1", "num2", "num3")] == [22, 22, 22]
    assert await machine.digest() == (await machine.daemon_digest())[1]

    receipt = await applied(machine, machine.fire("tri"))
    batch = await batch_at(batches, receipt.seq)
    assert batch.effects[0]["op"] == "fire" and batch.origins[0] == "command"
    assert await machine.value("num1") == 32, "the trigger's listener adds 10 through its converter"


async def test_a_timeline_event_fires_a_trigger_after_its_seconds(rivesyncd_factory, connect):
    daemon = rivesyncd_factory(riv("data_binding_test_triggers.riv"), file_name="triggers")
    worker = await connect(daemon)
    triggers = await worker.file("triggers")
    root = await triggers.create_view_model_instance("vm_root", blank=True)
    machine = await (await triggers.create_artboard("root")).create_state_machine(
        binding=root, manual=True, target_name="root")
    batches = await machine.batches()
    await machine.advance()
    first = await batches.__anext__()
    assert [(layer["name"], layer["animation"]) for layer in first.layers] == [("Layer 1", "red")]
    # The nested timeline reports its event at 0.7 s; the listener fires the trigger and the
    # transition to green takes it (at the advance that crosses 0.7 s, or the one after).
    seqs = {}
    for elapsed in (0.7, 0.1):
        advanced = await machine.advance(elapsed)
        seqs.setdefault(advanced.seq, elapsed)
    assert advanced.seq == 2, "one batch: the one that fired"
    batch = await batch_at(batches, 2)
    assert batch.elapsed == pytest.approx(seqs[2])
    assert [(effect["op"], effect["property"]) for effect in batch.effects] == [("fire", "trigger")]
    assert batch.origins == ["stateMachine"], "nobody but the state machine fired it"
    assert [(layer["state"], layer["animation"]) for layer in batch.layers] == [(3, "green")]
    assert (await machine.layers())[0]["animation"] == "green"
    assert await machine.value("trigger") == 1
    assert await machine.digest() == (await machine.daemon_digest())[1]


async def test_events_reported_by_a_listener_arrive_with_the_batch(rivesyncd_factory, connect):
    daemon = rivesyncd_factory(riv("vm_listener_fire_event.riv"), file_name="events")
    worker = await connect(daemon)
    events = await worker.file("events")
    machine = await (await events.create_artboard("Artboard")).create_state_machine(manual=True, target_name="ding")
    batches = await machine.batches()
    first = await machine.advance()
    assert first.seq == 0 and not first.settled, "its entry state has nothing to change: no batch, not settled yet"
    receipt = await applied(machine, machine.fire("go"))
    batch = await batch_at(batches, receipt.seq)
    assert [event["name"] for event in batch.events] == ["ding"], batch.events
    assert batch.events[0]["delay"] == 0
    settled = await machine.advance_until_settled(step=0.016)
    assert settled.settled and await machine.settled()


async def test_manual_advance_elapsed_is_checked(rivesyncd_factory, connect):
    daemon = rivesyncd_factory(riv("listener_view_model.riv"), file_name="lvm")
    worker = await connect(daemon)
    lvm = await worker.file("lvm")
    machine = await (await lvm.create_artboard("main")).create_state_machine(manual=True)
    with pytest.raises(rivesync.RiveSyncError) as refused:
        await machine.advance(elapsed=61)
    assert refused.value.code == "bad_message" and refused.value.details.get("field") == "elapsed"


def test_paths_escape_names_as_json_pointer():
    assert paths.escape("BG On/Off") == "BG On~1Off"
    assert paths.escape("a~1b") == "a~01b"
    assert paths.unescape("a~01b") == "a~1b" and paths.unescape("BG On~1Off") == "BG On/Off"
    assert paths.join("players", 0, "x/y") == "players/0/x~1y"
    assert paths.join("background", slot="Look/Feel") == "@Look~1Feel/background"
    assert paths.join("x", instance=17) == "#17/x"
    assert paths.split("@Look~1Feel/a~0b") == ["@Look/Feel", "a~b"]
    with pytest.raises(ViewModelInstanceError) as stray:
        paths.unescape("a~b")
    assert stray.value.code == "invalid_path"


PANEL = {
    "rivesyncSchema": 1,
    "viewModels": [{"name": "Panel", "properties": [
        {"name": "BG On/Off", "type": "boolean"}, {"name": "a~b", "type": "number"}]}],
    "artboards": [{"name": "Main", "viewModel": "Panel", "stateMachines": ["sm"]}],
}


async def test_names_with_a_slash_through_the_replica(rivesyncd_factory, connect, tmp_path):
    schema = tmp_path / "panel.schema.json"
    schema.write_text(json.dumps(PANEL))
    daemon = rivesyncd_factory(str(schema), file_name="panel",
                               config={"stateMachines": [{"name": "panel", "file": "panel", "artboard": "Main"}]})
    worker = await connect(daemon)
    panel = await worker.state_machine("panel")
    await panel.set_value(paths.join("BG On/Off"), True)
    await panel.set_value(paths.join("a~b"), 2)
    assert await panel.value("BG On~1Off") is True and await panel.get("BG On~1Off") is True
    assert await panel.value("a~0b") == 2
    with pytest.raises(ViewModelInstanceError) as unescaped:
        await panel.value("BG On/Off")
    assert unescaped.value.code == "no_such_property"
    with pytest.raises(ViewModelInstanceError) as stray:
        await panel.value("a~b")
    assert stray.value.code == "invalid_path"
    assert await panel.digest() == (await panel.daemon_digest())[1]


async def test_inputs_are_listed_fired_and_refused(rivesyncd_factory, connect):
    """state_machine_triggers.riv: its trigger input ``Trigger 1`` takes layer 0 out of state 3,
    where Rive's runtime stands after 0.1 s (the ``legacy_input_triggers`` trace)."""
    daemon = rivesyncd_factory(riv("state_machine_triggers.riv"), file_name="triggers")
    worker = await connect(daemon)
    triggers = await worker.file("triggers")
    machine = await (await triggers.create_artboard("main")).create_state_machine(manual=True, target_name="legacy")
    assert await machine.inputs() == [{"name": "Trigger 1", "type": "trigger"}]

    with pytest.raises(StateMachineError) as missing:
        await machine.fire_input("Nope")
    assert (missing.value.code, missing.value.details) == ("no_such_input", {"target": "legacy", "name": "Nope"})
    with pytest.raises(ViewModelInstanceError) as mismatch:
        await machine.set_input("Trigger 1", True)
    assert mismatch.value.code == "type_mismatch"
    assert mismatch.value.details == {"name": "Trigger 1", "expected": "trigger", "actual": "boolean"}

    await machine.advance(0.1)
    before = (await machine.layers())[0]["state"]
    assert before == 3, "Rive's runtime: layer 0 stands in state 3 after 0.1 s"
    receipt = await applied(machine, machine.fire_input("Trigger 1"))
    assert receipt.target == "legacy"
    await machine.advance(0.1)
    assert (await machine.layers())[0]["state"] != before, "the fired trigger moved layer 0 on"
    assert await machine.inputs() == [{"name": "Trigger 1", "type": "trigger"}], "consumed, still listed"


async def test_a_bind_target_reaches_the_view_model_through_a_two_way_bind(rivesyncd_factory, connect):
    """bidirectional_precedence.riv, artboard ``source_first``: binds 0 and 1 are two-way binds
    of a shape's x and y (the ``twoway_target_change`` trace): a target written there reaches
    the view model as a change the state machine made."""
    daemon = rivesyncd_factory(riv("bidirectional_precedence.riv"), file_name="twoway")
    worker = await connect(daemon)
    artboard = await (await worker.file("twoway")).create_artboard("source_first")
    machine = await artboard.create_state_machine(manual=True, target_name="twoway")
    batches = await machine.batches()
    await machine.advance()

    with pytest.raises(StateMachineError) as missing:
        await machine.set_bind_target(9, 1)
    assert (missing.value.code, missing.value.details) == ("no_such_data_bind", {"target": "twoway", "bind": 9})
    with pytest.raises(ViewModelInstanceError) as mismatch:
        await machine.set_bind_target(0, "far")
    assert (mismatch.value.code, mismatch.value.details) == ("type_mismatch", {"bind": 0, "expected": "number", "actual": "string"})

    receipt = await applied(machine, machine.set_bind_target(0, 700))
    batch = await batch_at(batches, receipt.seq)
    assert [(effect["property"], effect.get("value")) for effect in batch.effects] == [("x", 700)]
    assert batch.origins == ["stateMachine"]
    assert await machine.value("x") == 700


async def test_bind_defaults_false_leaves_the_slots_empty(rivesyncd_factory, connect):
    daemon = rivesyncd_factory(riv("listener_view_model.riv"), file_name="lvm")
    worker = await connect(daemon)
    artboard = await (await worker.file("lvm")).create_artboard("main")
    bare = await artboard.create_state_machine(manual=True, target_name="bare", bind_defaults=False)
    bound = await artboard.create_state_machine(manual=True, target_name="bound")
    assert [binding["instance"] for binding in (await bare.info())["bindings"]] == [None]
    assert [binding["instance"] is not None for binding in (await bound.info())["bindings"]] == [True]
    assert (await bare.advance(0.1)).target == "bare", "a state machine advances before a bind"
