// rivesync.js presence (PROTOCOL.md §15) against a real rivesyncd: members in the snapshot,
// join / update / leave seen by a subscriber in order, the daemon's list, `not_joined`, and a
// member that resumes after the client's connection drops.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RiveSync } from '../rivesync.js';
import { Daemon, WebSocket, until } from './support.mjs';

async function withDemo(body) {
  const daemon = await Daemon.start(['--demo']);
  const clients = [];
  const connect = async () => {
    const client = await RiveSync.connect(daemon.url, { WebSocket });
    clients.push(client);
    return client;
  };
  try {
    await body({ connect });
  } finally {
    for (const client of clients) client.close();
    await daemon.stop();
  }
}

test('a subscriber sees the members in its snapshot, then each change', async () => {
  await withDemo(async ({ connect }) => {
    const ana = await (await connect()).subscribe('lobby');
    const bo = await (await connect()).subscribe('lobby');
    const anaMember = await ana.joinPresence({ name: 'Ana' });
    const boMember = await bo.joinPresence({ name: 'Bo' });
    await until(() => ana.presence.length === 2, 'both joins to reach a subscriber');
    const watcher = await (await connect()).subscribe('lobby');
    assert.deepEqual(watcher.presence, [
      { member: anaMember, state: { name: 'Ana' } },
      { member: boMember, state: { name: 'Bo' } },
    ]);
    const seen = [];
    watcher.on('presence', (members) => seen.push(members.map((m) => m.member)));
    await ana.updatePresence({ name: 'Ana', cursor: [3, 4] });
    await until(() => watcher.presence[0].state.cursor !== undefined, 'the update');
    await bo.leavePresence();
    await until(() => watcher.presence.length === 1, 'the leave');
    assert.deepEqual(watcher.presence, [{ member: anaMember, state: { name: 'Ana', cursor: [3, 4] } }]);
    assert.deepEqual(seen.at(-1), [anaMember]);
    assert.deepEqual(await watcher.listPresence(), watcher.presence);
    await assert.rejects(bo.updatePresence({ name: 'gone' }), (e) => e.code === 'not_joined' && e.details.target === 'lobby');
  });
});

test('a client whose connection drops resumes its member', async () => {
  await withDemo(async ({ connect }) => {
    const client = await connect();
    const ana = await client.subscribe('character');
    const watcher = await (await connect()).subscribe('character');
    const member = await ana.joinPresence({ name: 'Ana' });
    await until(() => watcher.presence.length === 1, 'the join');
    const states = [];
    client.on('state', (state) => states.push(state));
    client.socket.close();
    await until(() => states.at(-1) === 'open' && states.includes('reconnecting'), 'the reconnect');
    await until(async () => {
      try {
        await ana.updatePresence({ name: 'Ana', back: true });
        return true;
      } catch (error) {
        if (error.code === 'not_joined') throw error;
        return false;
      }
    }, 'an update on the new connection');
    await until(() => watcher.presence[0]?.state.back === true, 'the update');
    assert.deepEqual(watcher.presence.map((m) => m.member), [member], 'the same member, no leave and join');
  });
});
