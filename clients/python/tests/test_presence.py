"""Presence (PROTOCOL.md §15) against the real daemon: join, update, leave and list, seen by
another worker's member stream in order; typed errors; the same member resumed by the rejoin
after a dropped connection; and the permissions that gate seeing and publishing it."""

import asyncio
import json
import os

import pytest

from rivesync import Forbidden, PresenceMember, StateMachineError, WorkerError

DEMO = os.path.join(os.path.dirname(__file__), "..", "..", "..", "protocol", "examples", "demo.schema.json")


async def next_members(stream, timeout=20):
    return await asyncio.wait_for(stream.__anext__(), timeout)


async def until(condition, what, timeout=20):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


async def test_join_update_leave_and_list_are_seen_by_another_worker(rivesyncd, connect):
    observer = await connect(rivesyncd)
    members = await observer.presence("character").members()
    assert await next_members(members) == []
    ana = (await connect(rivesyncd)).presence("character")
    member = await ana.join({"name": "Ana", "colour": "#FFE0457B"})
    assert member.startswith("p-")
    assert await next_members(members) == [PresenceMember(member, {"name": "Ana", "colour": "#FFE0457B"})]
    await ana.update({"name": "Ana", "cursor": [12, 40]})
    assert await next_members(members) == [PresenceMember(member, {"name": "Ana", "cursor": [12, 40]})]
    assert await observer.presence("character").list() == [PresenceMember(member, {"name": "Ana", "cursor": [12, 40]})]
    assert await observer.presence("character").current_members() == await ana.list()
    assert await ana.join({"name": "Ana again"}) == member, "a second join of the same worker keeps its member"
    assert await next_members(members) == [PresenceMember(member, {"name": "Ana again"})]
    await ana.leave()
    assert await next_members(members) == []
    with pytest.raises(StateMachineError) as not_joined:
        await ana.update({"name": "gone"})
    assert (not_joined.value.code, not_joined.value.details) == ("not_joined", {"target": "character"})
    with pytest.raises(StateMachineError) as not_joined:
        await ana.leave()
    assert not_joined.value.code == "not_joined"
    with pytest.raises(WorkerError) as bad:
        await ana.join(["not", "an", "object"])
    assert (bad.value.code, bad.value.details.get("field")) == ("bad_message", "state")
    with pytest.raises(StateMachineError) as unknown:
        await ana.session.request({"type": "presenceList", "target": "no-such-target"})
    assert unknown.value.code == "unknown_target"
    await members.aclose()


async def test_a_reconnect_rejoins_with_the_same_key_and_resumes_the_member(rivesyncd, connect):
    observer = await connect(rivesyncd)
    members = await observer.presence("lobby").members()
    assert await next_members(members) == []
    worker = await connect(rivesyncd)
    presence = worker.presence("lobby")
    member = await presence.join({"name": "Bo"})
    assert await next_members(members) == [PresenceMember(member, {"name": "Bo"})]
    hold = worker.session.reconnect_hold = asyncio.Event()
    await worker.drop_connection()
    assert await observer.presence("lobby").list() == [PresenceMember(member, {"name": "Bo"})], "kept in the grace period"
    hold.set()
    await until(lambda: worker.session.rejoins == 1, "the rejoin to resume the member")
    assert await presence.list() == [PresenceMember(member, {"name": "Bo"})]
    await presence.update({"name": "Bo", "cursor": [1, 2]})
    # The next change the observer sees is that update, of the same member: no leave, no join between.
    assert await next_members(members) == [PresenceMember(member, {"name": "Bo", "cursor": [1, 2]})]
    await presence.leave()
    assert await next_members(members) == []
    await worker.drop_connection()
    await worker.ping()
    assert worker.session.rejoins == 1, "a member that left is not joined again"
    assert await presence.list() == []


async def test_see_and_publish_presence_are_permissions(rivesyncd_factory, connect, tmp_path):
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({"tokens": [
        {"name": "reader", "token": "read-only-token-0123", "scopes": [{"allow": ["read"], "target": "*"}]},
        {"name": "watcher", "token": "watcher-token-01234", "scopes": [{"allow": ["read", "seePresence"], "target": "*"}]},
        {"name": "cursor", "token": "cursor-token-012345", "scopes": [{"allow": ["publishPresence"], "target": "*"}]}]}))
    tokens.chmod(0o600)
    daemon = rivesyncd_factory(DEMO, file_name="demo", config={
        "auth": {"tokensFile": str(tokens)},
        "instances": [{"name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"}],
        "stateMachines": [{"name": "room", "file": "demo", "artboard": "Lobby", "globals": {"Theme": "theme"}}]})
    reader = await connect(daemon, "read-only-token-0123")
    watcher = await connect(daemon, "watcher-token-01234")
    cursor = await connect(daemon, "cursor-token-012345")
    watched = await watcher.presence("room").members()
    unseen = await reader.presence("room").members()
    assert await next_members(watched) == [] and await next_members(unseen) == []
    with pytest.raises(Forbidden) as forbidden:
        await reader.presence("room").join({"name": "reader"})
    assert forbidden.value.details.get("scope") == "publishPresence"
    member = await cursor.presence("room").join({"name": "cursor"})
    assert await next_members(watched) == [PresenceMember(member, {"name": "cursor"})]
    with pytest.raises(Forbidden) as forbidden:
        await reader.presence("room").list()
    assert forbidden.value.details.get("scope") == "seePresence"
    await cursor.presence("room").leave()
    assert await next_members(watched) == []
    assert await reader.presence("room").current_members() == [], "a subscription without seePresence carries none"
    assert unseen.queue.empty()
