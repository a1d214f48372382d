"""Reconnect with resume: after a dropped connection and after a daemon restart (state
directory), the worker resumes every subscription from its cursor — the missed batches
arrive, in order, none twice, and no snapshot is needed."""

import asyncio
import os
import socket

import rivesync


DEMO = os.path.join(os.path.dirname(__file__), "..", "..", "..", "protocol", "examples", "demo.schema.json")


async def collect(stream, count, timeout=20):
    return [await asyncio.wait_for(stream.__anext__(), timeout) for _ in range(count)]


async def test_resume_after_a_dropped_connection(rivesyncd, connect):
    watcher = await connect(rivesyncd)
    writer = await connect(rivesyncd)
    character = await watcher.state_machine("character")
    moods = await character.value_stream("mood")
    hold = watcher.session.reconnect_hold = asyncio.Event()
    await watcher.drop_connection()
    ping = asyncio.ensure_future(watcher.ping())  # waits for the link instead of failing
    target = await writer.target("character")
    for mood in range(1, 6):
        await target.set_value("mood", mood)
    assert not ping.done()
    hold.set()
    assert await collect(moods, 5) == [1, 2, 3, 4, 5]
    await asyncio.wait_for(ping, 20)
    assert watcher.session.resumes == 1 and watcher.session.resyncs == 0
    seq, digest = await character.daemon_digest()
    assert seq == await character.seq() == 5 and digest == await character.digest()
    await target.set_value("mood", 6)
    assert await collect(moods, 1) == [6]


async def test_resume_across_a_daemon_restart(rivesyncd_factory, connect, tmp_path):
    daemon = rivesyncd_factory(DEMO, file_name="demo", state_dir=str(tmp_path / "state"))
    watcher = await connect(daemon)
    demo = await watcher.file("demo")
    main = await demo.create_view_model_instance(artboard="Lobby")
    lobby = await (await demo.create_artboard("Lobby")).create_state_machine(binding=main, target_name="durable-lobby")
    titles = await lobby.value_stream("title")
    await lobby.set_value("title", "before")
    assert await collect(titles, 1) == ["before"]
    epoch = watcher.epoch
    daemon.restart()
    writer = await connect(daemon)
    target = await writer.target("durable-lobby")
    await target.set_value("title", "after")
    assert await collect(titles, 1) == ["after"]
    assert watcher.epoch == epoch and watcher.session.resumes == 1
    seq, digest = await lobby.daemon_digest()
    assert seq == await lobby.seq() == 2 and digest == await lobby.digest()


async def test_a_slow_reader_gets_a_catch_up_and_converges(rivesyncd_factory, connect):
    daemon = rivesyncd_factory(DEMO, file_name="demo", config={
        "limits": {"maxSendQueueBytes": 65536, "socketSendBufferBytes": 4096},
        "stateMachines": [{"name": "lobby", "file": "demo", "artboard": "Lobby"}]})
    slow = await connect(daemon)
    lobby = await slow.target("lobby")
    titles = await lobby.value_stream("title")
    sock = slow.session.ws.transport.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # no receive-buffer autotuning
    slow.session.reading.clear()  # the slow reader stops reading
    writer = await connect(daemon)
    target = await writer.target("lobby")
    for index in range(300):  # about 9 MB of batches: far past what the buffers and the queue hold
        await target.set_value("title", f"{index:03d}" + "x" * 30000)
    slow.session.reading.set()
    await slow.synchronize()
    assert slow.session.resyncs >= 1, "a catch-up snapshot replaced the batches it could not take"
    seq, digest = await lobby.daemon_digest()
    assert await lobby.seq() == seq and await lobby.digest() == digest
    seen = []
    while not titles.queue.empty():
        seen.append((await titles.__anext__())[:3])
    assert seen[-1] == "299" and len(seen) < 300, f"{len(seen)} values, the last {seen[-1:]}"


async def test_close_while_reconnecting_leaves_no_task(rivesyncd):
    """A worker closed while it is reconnecting (its daemon gone, its reconnect loop waiting)
    ends every task it started: nothing is left for the event loop to destroy."""
    worker = await rivesync.Worker.connect(rivesyncd.url)
    character = await worker.state_machine("character")
    await character.value("mood")  # subscribed: a reconnect would resubscribe it
    before = asyncio.all_tasks() - {asyncio.current_task()}
    assert worker.session.reader in before
    rivesyncd.stop()
    await asyncio.gather(worker.session.reader, return_exceptions=True)
    assert worker.session.phase == "reconnecting" and not worker.session.reconnect_task.done()
    await worker.close()
    assert worker.session.reconnect_task.done() and not worker.session.background
    assert asyncio.all_tasks() - {asyncio.current_task()} == set()
