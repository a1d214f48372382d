// rivesync.js against a real rivesyncd: hello, listings, subscriptions with replicas, every
// write with its ack, typed errors, Rive's property API, value streams, a random storm from two
// clients (each replica's digest equals the daemon's), and reconnection with resume across a
// daemon restart with a state directory.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RiveSync, RiveSyncError } from '../rivesync.js';
import { Daemon, WebSocket, temporaryDirectory, until } from './support.mjs';

async function withDemo(body) {
  const daemon = await Daemon.start(['--demo']);
  const clients = [];
  const connect = async (options = {}) => {
    const client = await RiveSync.connect(daemon.url, { WebSocket, ...options });
    clients.push(client);
    return client;
  };
  try {
    await body({ daemon, connect });
  } finally {
    for (const client of clients) client.close();
    await daemon.stop();
  }
}

test('hello, listings and a subscription with a replica equal to the daemon', async () => {
  await withDemo(async ({ connect }) => {
    const client = await connect();
    assert.equal(client.welcome.protocol, 1);
    assert.deepEqual((await client.listFiles()).map((f) => f.name), ['demo']);
    const names = (await client.listTargets()).map((t) => t.name).sort();
    assert.deepEqual(names, ['character', 'lobby', 'manual-target', 'theme']);
    assert.deepEqual(await client.viewModelNames('demo'), ['Theme', 'Character', 'Player', 'Lobby']);
    assert.deepEqual(await client.globalViewModelNames('demo'), ['Theme']);
    assert.deepEqual(await client.instanceNames('demo', 'Theme'), ['Light', 'Dark']);
    assert.deepEqual((await client.properties('demo', 'Lobby')).map((p) => [p.name, p.type, p.metaData]),
      [['title', 'string', ''], ['players', 'list', ''], ['host', 'viewModel', 'Player']]);
    assert.deepEqual(await client.enums('demo'), [{ name: 'Mode', values: ['light', 'dark'] }]);
    assert.deepEqual(await client.artboardNames('demo'), ['Character', 'Lobby']);
    assert.deepEqual(await client.stateMachineNames('demo', 'Lobby'), ['lobby']);
    assert.deepEqual(await client.defaultViewModelInfo('demo', 'Lobby'), { viewModel: 'Lobby', instance: 'Default' });
    const schema = { viewModels: [{ name: 'Dot', properties: [{ name: 'r', type: 'number' }], instances: [] }], artboards: [] };
    assert.deepEqual((await client.loadFile('dots', { schema })).map((f) => f.name).sort(), ['demo', 'dots']);
    await assert.rejects(client.loadFile('dots', { schema }), (e) => e.code === 'file_exists');
    // A .riv file past one 1 MiB message (about 780 KB of bytes) goes in parts.
    const riv = new Uint8Array(readFileSync(new URL('../../../../shared/fixtures/riv/data_binding_test.riv', import.meta.url)));
    assert.ok(riv.length > 800_000, `${riv.length} bytes`);
    assert.deepEqual((await client.loadFile('big', { riv })).map((f) => f.name).sort(), ['big', 'demo', 'dots']);
    assert.ok((await client.viewModelNames('big')).length > 0);
    const character = await client.subscribe('character');
    const vmi = character.viewModelInstance;
    assert.equal(vmi.viewModelName, 'Character');
    assert.equal(vmi.number('mood').value, 0);
    const ack = await vmi.number('mood').set(5);
    assert.equal(ack.type, 'ack');
    assert.equal(character.seq, ack.seq, 'the batch of an ack is applied before the ack resolves');
    assert.equal(vmi.number('mood').value, 5);
    assert.equal(await character.digest(), (await client.digest('character')).digest);
  });
});

test('every write kind round-trips through the replica, with Rive names', async () => {
  await withDemo(async ({ connect }) => {
    const client = await connect();
    const lobby = await client.subscribe('lobby');
    const main = lobby.viewModelInstance;
    const theme = lobby.globalInstance('Theme');
    await theme.string('name').set('Night');
    assert.equal(theme.string('name').value, 'Night');
    await theme.color('background').argb(0x80, 0x12, 0x34, 0x56);
    assert.equal(theme.color('background').value, 0x80123456);
    assert.equal(lobby.value('@Theme/background'), '#80123456');
    await theme.color('background').alpha(0xff);
    assert.equal(theme.color('background').value, 0xff123456);
    assert.deepEqual(theme.enum('mode').values, ['light', 'dark']);
    await theme.enum('mode').set('dark');
    assert.equal(theme.enum('mode').value, 'dark');
    const players = main.list('players');
    const a = await client.createInstance('demo', { viewModel: 'Player', name: 'Guest' });
    const b = await client.createInstance('demo', { viewModel: 'Player', blank: true });
    await players.addInstance(a);
    await players.addInstanceAt(b, 0);
    assert.deepEqual(players.value, [b.instance, a.instance]);
    const guest = players.instanceAt(1);
    assert.equal(guest.string('name').value, 'Guest');
    await players.swap(0, 1);
    assert.equal(guest.id, a.instance);
    await guest.number('x').set(12.5);
    assert.equal(players.instanceAt(0).number('x').value, 12.5, 'the handle follows its instance after the swap');
    await guest.trigger('wave').trigger();
    assert.equal(guest.trigger('wave').value, 1);
    await players.removeInstanceAt(0);
    assert.deepEqual(players.value, [b.instance]);
    await players.removeInstance(b);
    assert.equal(players.length, 0);
    const host = await client.createInstance('demo', { viewModel: 'Player', name: 'Guest' });
    await main.replaceViewModel('host', host);
    assert.equal(main.viewModel('host').id, host.instance);
    await main.viewModel('host').string('name').set('Ada');
    assert.equal(lobby.value('host/name'), 'Ada');
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const asset = await client.upload('image', png, 'image/png');
    assert.match(asset.id, /^sha256:[0-9a-f]{64}$/);
    assert.equal(await lobby.digest(), (await client.digest('lobby')).digest);
  });
});

test('errors are RiveSyncError with the protocol code; local misuse too', async () => {
  await withDemo(async ({ connect }) => {
    const client = await connect();
    const character = await client.subscribe('character');
    await assert.rejects(character.set('mod', 1), (e) => e instanceof RiveSyncError && e.code === 'no_such_property');
    await assert.rejects(character.set('mood', 'x'), (e) => e.code === 'type_mismatch' && e.details.path === 'mood');
    await assert.rejects(character.set('mood', 1e39), (e) => e.code === 'invalid_value');
    await assert.rejects(client.subscribe('nope'), (e) => e.code === 'unknown_target');
    assert.throws(() => character.viewModelInstance.string('mood'), (e) => e.code === 'type_mismatch');
    assert.throws(() => character.viewModelInstance.number('nope'), (e) => e.code === 'no_such_property');
    const errors = [];
    client.on('error', (e) => errors.push(e.code));
    const lobby = await client.subscribe('lobby');
    lobby.globalInstance('Theme').enum('mode').value = 'sepia';
    await until(() => errors.includes('invalid_enum_value'), 'the setter failure on the error listeners');
  });
});

test('a transaction applies in one batch with its authors, or not at all', async () => {
  await withDemo(async ({ connect }) => {
    const writer = await connect({ client: 'js-suite/1' });
    const watcher = await connect();
    const theme = await watcher.subscribe('theme');
    const batches = [];
    theme.on('batch', (batch) => batches.push(batch));
    const target = await writer.subscribe('theme');
    const ack = await target.transaction([
      { type: 'set', path: 'name', value: 'Dark' },
      { type: 'set', path: 'background', value: '#FF121212' },
      { type: 'set', path: 'foreground', value: '#FFF2F2F2' },
    ]);
    assert.equal(ack.type, 'ack');
    assert.equal(ack.commands.length, 3);
    assert.equal(ack.command, ack.commands[0]);
    await until(() => batches.length === 1, 'the theme batch on the other client');
    assert.deepEqual(batches[0].commands, ack.commands, 'one batch holds the whole transaction');
    assert.deepEqual(batches[0].authors, [{ client: 'js-suite/1' }, { client: 'js-suite/1' }, { client: 'js-suite/1' }]);
    assert.equal(theme.viewModelInstance.string('name').value, 'Dark');
    await assert.rejects(
      target.transaction([{ type: 'set', path: 'background', value: '#FF000000' }, { type: 'set', path: 'name', value: 7 }]),
      (e) => e instanceof RiveSyncError && e.code === 'type_mismatch' && e.details.commandIndex === 1,
    );
    assert.equal((await writer.get('theme', 'background')).value, '#FF121212', 'nothing of the failed transaction applied');
  });
});

test('value streams and on(): the current value, then every change; triggers count fires', async () => {
  await withDemo(async ({ connect }) => {
    const writer = await connect();
    const reader = await connect();
    const character = await reader.subscribe('character');
    const seen = [];
    const fires = [];
    character.viewModelInstance.number('mood').on((v) => seen.push(v));
    character.viewModelInstance.trigger('success').on((count) => fires.push(count));
    const stream = character.valueStream('@Theme/name');
    const iterator = stream[Symbol.asyncIterator]();
    assert.equal((await iterator.next()).value, 'Light');
    const target = await writer.subscribe('character');
    for (const mood of [1, 2, 3]) await target.set('mood', mood);
    await target.fire('success');
    await (await writer.subscribe('theme')).set('name', 'Dusk');
    assert.equal((await iterator.next()).value, 'Dusk', 'a change to the shared theme reaches the character stream');
    await until(() => seen.length === 3 && fires.length === 1, 'mood values and one fire');
    assert.deepEqual(seen, [1, 2, 3]);
    assert.deepEqual(fires, [1]);
    await iterator.return();
  });
});

test('random storm from two clients: both replicas equal the daemon digest', async () => {
  await withDemo(async ({ connect }) => {
    const a = await connect();
    const b = await connect();
    const lobbyA = await a.subscribe('lobby');
    const lobbyB = await b.subscribe('lobby');
    const created = [];
    for (let i = 0; i < 6; i++) created.push((await a.createInstance('demo', { viewModel: 'Player', name: 'Guest' })).instance);
    let seed = 7;
    const random = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    const writes = [];
    for (let i = 0; i < 300; i++) {
      const target = i % 2 === 0 ? lobbyA : lobbyB;
      const count = target.value('players').length;
      const pick = random(7);
      let write;
      if (pick === 0) write = target.listAppend('players', created[random(created.length)]);
      else if (pick === 1 && count > 0) write = target.listRemoveAt('players', random(count));
      else if (pick === 2 && count > 1) write = target.listSwap('players', random(count), random(count));
      else if (pick === 3 && count > 0) write = target.set(`players/${random(count)}/x`, random(100));
      else if (pick === 4) write = target.set('@Theme/accent', '#' + (random(0xffffff) + 0xff000000).toString(16));
      else if (pick === 5) write = target.fire('host/wave');
      else write = target.set('title', `t${random(1000)}`);
      writes.push(write.catch((e) => e.code));  // a list index may be stale by the time it applies
    }
    const outcomes = await Promise.all(writes);
    assert.ok(outcomes.filter((o) => o?.type === 'ack').length > 200, 'most writes were acked');
    const remote = await a.digest('lobby');
    await until(() => lobbyA.seq === remote.seq && lobbyB.seq === remote.seq, 'both replicas at the daemon seq');
    assert.equal(await lobbyA.digest(), remote.digest);
    assert.equal(await lobbyB.digest(), remote.digest);
  });
});

test('a daemon restart with a state directory is survived by resume', async () => {
  const state = temporaryDirectory();
  let daemon = await Daemon.start(['--demo', '--state-dir', state.path]);
  const port = daemon.port;
  const client = await RiveSync.connect(daemon.url, { WebSocket });
  try {
    const character = await client.subscribe('character');
    await character.set('mood', 3);
    const states = [];
    const resumes = [];
    client.on('state', (s) => states.push(s));
    character.on('snapshot', (s) => resumes.push(s));
    await daemon.stop();
    await until(() => states.includes('reconnecting'), 'the client to notice');
    daemon = await Daemon.start(['--demo', '--state-dir', state.path], { port });
    await until(() => resumes.length === 1, 'the resubscription', 30_000);
    assert.deepEqual(resumes[0], { resumed: true, seq: 1 });
    assert.equal(client.state, 'open');
    await character.set('mood', 4);
    assert.equal(character.viewModelInstance.number('mood').value, 4);
    assert.equal(await character.digest(), (await client.digest('character')).digest);
  } finally {
    client.close();
    await daemon.stop();
    state.remove();
  }
});

test('a daemon down for several reconnect attempts comes back to one connection, resumed once', async () => {
  const state = temporaryDirectory();
  let daemon = await Daemon.start(['--demo', '--state-dir', state.path]);
  const port = daemon.port;
  const sockets = [];
  class CountedWebSocket extends WebSocket {
    constructor(...args) {
      super(...args);
      sockets.push(this);
    }
  }
  const client = await RiveSync.connect(daemon.url, { WebSocket: CountedWebSocket, maxBackoffMs: 400 });
  try {
    const character = await client.subscribe('character');
    const resumes = [];
    character.on('snapshot', (s) => resumes.push(s));
    await daemon.stop();
    // Each refused attempt used to start a reconnect loop of its own beside the one retrying it,
    // so the loops doubled while the daemon was down and each came back with a socket of its own.
    await until(() => sockets.length >= 5, 'four refused reconnect attempts', 30_000);
    daemon = await Daemon.start(['--demo', '--state-dir', state.path], { port });
    await until(() => resumes.length >= 1, 'the resubscription', 30_000);
    const attempts = sockets.length;
    // Over twice the longest backoff: a second reconnect loop would have opened a socket by now.
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(sockets.length, attempts, 'no connection attempt after the resume');
    assert.deepEqual(sockets.map((s) => s.readyState === WebSocket.CLOSED), [...sockets.slice(0, -1).map(() => true), false],
      'every socket but the last is closed');
    assert.deepEqual(resumes, [{ resumed: true, seq: 0 }]);
    assert.equal(client.state, 'open');
    await character.set('mood', 4);
    assert.equal(character.viewModelInstance.number('mood').value, 4);
    assert.equal(await character.digest(), (await client.digest('character')).digest);
  } finally {
    client.close();
    await daemon.stop();
    state.remove();
  }
});
