// rive-adapter.js against a double with the shape of Rive's web runtime, and a real daemon:
// daemon changes reach the Rive instance, Rive-side changes reach the daemon, and neither
// direction echoes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RiveSync } from '../rivesync.js';
import { bindRiveViewModelInstance } from '../rive-adapter.js';
import { RiveViewModelInstanceDouble } from './rive-double.mjs';
import { Daemon, WebSocket, until } from './support.mjs';

async function setUp(targetName, viewModelName) {
  const daemon = await Daemon.start(['--demo']);
  const adapterClient = await RiveSync.connect(daemon.url, { WebSocket });
  const other = await RiveSync.connect(daemon.url, { WebSocket });
  const target = await adapterClient.subscribe(targetName);
  const watcher = await other.subscribe(targetName);
  const rive = new RiveViewModelInstanceDouble(target.schema, viewModelName);
  const sent = [];
  adapterClient.on('message', () => {});
  const send = adapterClient.request.bind(adapterClient);
  adapterClient.request = (message) => {
    if (!['subscribe', 'listTargets', 'describe', 'digest'].includes(message.type)) sent.push(message);
    return send(message);
  };
  const errors = [];
  const created = [];
  const binding = bindRiveViewModelInstance(target.viewModelInstance, rive, {
    // Both ways on purpose: these tests are about the two-way adapter (the demo's `character`
    // runs a state machine graph, for which the default sends nothing back).
    forwardRiveChanges: true,
    onError: (e) => errors.push(e),
    createInstance: (name) => {
      const instance = new RiveViewModelInstanceDouble(target.schema, name);
      created.push(instance);
      return instance;
    },
  });
  const close = async () => {
    binding.stop();
    adapterClient.close();
    other.close();
    await daemon.stop();
  };
  return { target, watcher, rive, sent, errors, created, close };
}

test('Rive adapter: values and triggers both ways, with no echo', async () => {
  const { target, watcher, rive, sent, errors, close } = await setUp('character', 'Character');
  try {
    assert.equal(rive.number('mood').value, 0, 'the initial value is copied into Rive');
    await watcher.set('mood', 4);
    await until(() => target.value('mood') === 4, 'the adapter client to see mood 4');
    assert.equal(rive.number('mood').value, 4, 'a daemon change reaches Rive');
    rive.advance();
    assert.equal(sent.length, 0, 'Rive reporting the value the adapter wrote sends nothing back');

    rive.number('mood').value = 7;  // the Rive side changes it (a listener in the file, a user)
    rive.advance();
    await until(() => watcher.value('mood') === 7, 'the daemon to get mood 7');
    assert.deepEqual(sent.map((m) => [m.type, m.path, m.value]), [['set', 'mood', 7]]);
    await until(() => target.value('mood') === 7, 'the echo batch');
    rive.advance();
    assert.equal(sent.length, 1, 'the daemon echo of a Rive write is not written again');

    await watcher.fire('success');
    await until(() => target.value('success') === 1, 'the fire');
    assert.equal(rive.trigger('success').fired, 1, 'a daemon fire triggers Rive once');
    rive.advance();
    assert.equal(sent.length, 1, 'Rive reporting the adapter trigger sends no fire');

    rive.trigger('error').trigger();
    rive.advance();
    await until(() => watcher.value('error') === 1, 'the daemon to count the Rive fire');
    await until(() => target.value('error') === 1, 'the adapter client to see it');
    assert.equal(rive.trigger('error').fired, 1, 'the daemon batch of a Rive fire is not replayed into Rive');
    assert.deepEqual(sent.map((m) => m.type), ['set', 'fire']);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('Rive adapter: colours as ARGB integers, nested instances and lists follow the daemon', async () => {
  const { target, watcher, rive, created, sent, close } = await setUp('lobby', 'Lobby');
  try {
    assert.equal(rive.string('title').value, 'Preview lobby');
    assert.equal(rive.viewModel('host').string('name').value, 'Guest');
    assert.equal(rive.viewModel('host').color('color').value, 0xff3d7bff);
    rive.viewModel('host').color('color').value = 0x80112233;
    rive.advance();
    await until(() => watcher.value('host/color') === '#80112233', 'the colour at the daemon');

    const player = await watcher.client.createInstance('demo', { viewModel: 'Player', name: 'Guest' });
    await watcher.listAppend('players', player.instance);
    await watcher.set('players/0/name', 'Ada');
    await until(() => rive.list('players').length === 1 && rive.list('players').instanceAt(0).string('name').value === 'Ada', 'the list in Rive');
    const item = rive.list('players').instanceAt(0);
    item.number('x').value = 33;
    rive.advance();
    await until(() => watcher.value('players/0/x') === 33, 'a list item write from Rive');

    const host = await watcher.client.createInstance('demo', { viewModel: 'Player', blank: true });
    await watcher.set('host', { instance: host.instance });
    await watcher.set('host/name', 'New host');
    await until(() => rive.viewModel('host').string('name').value === 'New host', 'the replaced host in Rive');
    assert.ok(created.includes(rive.viewModel('host')), 'the replacement came from createInstance');
    assert.equal(target.value('host/name'), 'New host');
    assert.equal(sent.filter((m) => m.type === 'set').length, 2, 'only the two Rive-side writes were sent');
  } finally {
    await close();
  }
});
