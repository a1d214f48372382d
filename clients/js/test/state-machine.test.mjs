// A state machine the daemon runs (PROTOCOL.md §8, §19) through rivesync.js and rive-adapter.js,
// on Rive's own test files from ../shared/fixtures/riv: timed advances, the state machine's
// changes marked `by: 'stateMachine'`, its events and layer states, names with a `/` in paths,
// and a preview adapter that renders what the daemon's state machine decided and sends nothing
// of its own Rive state machine back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RiveSync, origin, joinPath, escapeName, unescapeName } from '../rivesync.js';
import { bindRiveViewModelInstance, daemonRunsStateMachine } from '../rive-adapter.js';
import { RiveViewModelInstanceDouble } from './rive-double.mjs';
import { Daemon, WebSocket, root, temporaryDirectory, until } from './support.mjs';

const riv = (name) => {
  const path = join(root, '..', 'shared', 'fixtures', 'riv', name);
  assert.ok(existsSync(path), `fixture missing: ${path}`);
  return path;
};

/** A daemon with `files` (`{name: path}`) and `stateMachines` configured; `stop()` cleans up. */
async function daemonWith(files, stateMachines = []) {
  const directory = temporaryDirectory();
  const config = {
    listen: { host: '127.0.0.1' },
    auth: { allowAnonymous: 'loopback' },
    files: Object.entries(files).map(([name, path]) => ({ name, path })),
    stateMachines,
  };
  directory.write('config.json', JSON.stringify(config));
  const daemon = await Daemon.start(['--config', join(directory.path, 'config.json')]);
  const stop = daemon.stop.bind(daemon);
  daemon.stop = async () => {
    await stop();
    directory.remove();
  };
  return daemon;
}

/** Sends a command to a manual target and advances it by 0 s until the daemon acks it. */
async function applied(target, command) {
  let ack = null;
  let failure = null;
  command.then((a) => (ack = a), (e) => (failure = e));
  while (ack === null && failure === null) {
    await target.advance();
    await new Promise((r) => setTimeout(r, 10));
  }
  if (failure) throw failure;
  return ack;
}

test('paths escape names as a JSON Pointer does', () => {
  assert.equal(escapeName('BG On/Off'), 'BG On~1Off');
  assert.equal(escapeName('a~1b'), 'a~01b');
  assert.equal(unescapeName('a~01b'), 'a~1b');
  assert.equal(unescapeName('a~b'), null);
  assert.equal(joinPath('players', 0, 'x/y'), 'players/0/x~1y');
  assert.equal(joinPath({ slot: 'Look/Feel' }, 'background'), '@Look~1Feel/background');
  assert.equal(joinPath({ instance: 17 }, 'x'), '#17/x');
});

test('a manual state machine: layers, elapsed, and the state machine’s own changes', async () => {
  const daemon = await daemonWith(
    { lvm: riv('listener_view_model.riv') },
    [{ name: 'lvm', file: 'lvm', artboard: 'main', mode: 'manual' }],
  );
  const client = await RiveSync.connect(daemon.url, { WebSocket });
  try {
    const target = await client.subscribe('lvm');
    assert.equal(target.info.settled, false, 'a new state machine stands in its entry states');
    const batches = [];
    target.on('batch', (b) => batches.push(b));
    const first = await target.advance();
    assert.equal(first.settled, false);
    assert.deepEqual(batches.at(-1).layers, [{ layer: 0, name: 'Layer 1', state: 1, kind: 'animation', animation: 'Timeline 1' }]);
    assert.deepEqual(target.layers, batches.at(-1).layers, 'the target keeps its layers from the batches');

    const ack = await applied(target, target.set('col', '#64000A0F'));
    const batch = batches.find((b) => b.seq === ack.seq);
    assert.deepEqual(batch.effects.map(origin), ['command', 'stateMachine', 'stateMachine', 'stateMachine']);
    assert.deepEqual(batch.effects[0].value, '#64000A0F');
    assert.deepEqual(new Set(batch.effects.slice(1).map((e) => `${e.property}=${e.value}`)), new Set(['num1=22', 'num2=22', 'num3=22']));
    assert.equal(target.value('num3'), 22);
    assert.equal(await target.digest(), (await client.digest('lvm')).digest);

    const advanced = await target.advance(0.5);
    assert.equal(advanced.type, 'advanced');
    await assert.rejects(target.advance(61), (e) => e.code === 'bad_message' && e.details.field === 'elapsed');
  } finally {
    client.close();
    await daemon.stop();
  }
});

test('a timeline event fires a trigger after its seconds; a listener reports an event', async () => {
  const daemon = await daemonWith({ triggers: riv('data_binding_test_triggers.riv'), events: riv('vm_listener_fire_event.riv') }, [
    { name: 'ding', file: 'events', artboard: 'Artboard', mode: 'manual' },
  ]);
  const client = await RiveSync.connect(daemon.url, { WebSocket });
  try {
    const root = await client.createInstance('triggers', { viewModel: 'vm_root', blank: true });
    await client.createStateMachine({ file: 'triggers', name: 'root', artboard: 'root', main: root.instance, mode: 'manual' });
    const target = await client.subscribe('root');
    const batches = [];
    target.on('batch', (b) => batches.push(b));
    await target.advance();
    assert.equal(target.layers[0].animation, 'red');
    // The nested timeline reports its event at 0.7 s; the listener fires the trigger and the
    // transition to green takes it (at the advance that crosses 0.7 s, or the one after).
    const elapsedOf = new Map();
    for (const elapsed of [0.7, 0.1]) {
      const advanced = await target.advance(elapsed);
      if (!elapsedOf.has(advanced.seq)) elapsedOf.set(advanced.seq, elapsed);
    }
    const batch = batches.find((b) => b.seq === 2);
    assert.equal(target.seq, 2, 'one batch: the one that fired');
    assert.ok(Math.abs(batch.elapsed - elapsedOf.get(2)) < 1e-9, JSON.stringify(batch));
    assert.deepEqual(batch.effects.map((e) => [e.op, e.property, origin(e)]), [['fire', 'trigger', 'stateMachine']]);
    assert.deepEqual(batch.layers.map((l) => [l.state, l.animation]), [[3, 'green']]);
    assert.equal(target.layers[0].animation, 'green');

    const ding = await client.subscribe('ding');
    const dings = [];
    ding.on('batch', (b) => dings.push(b));
    await ding.advance();
    const ack = await applied(ding, ding.fire('go'));
    assert.deepEqual(dings.find((b) => b.seq === ack.seq).events.map((e) => e.name), ['ding']);
    assert.equal((await ding.advanceUntilSettled(0.016)).settled, true);
  } finally {
    client.close();
    await daemon.stop();
  }
});

test('names with a slash through the replica', async () => {
  const directory = temporaryDirectory();
  directory.write('panel.schema.json', JSON.stringify({
    rivesyncSchema: 1,
    viewModels: [{ name: 'Panel', properties: [{ name: 'BG On/Off', type: 'boolean' }, { name: 'a~b', type: 'number' }] }],
    artboards: [{ name: 'Main', viewModel: 'Panel', stateMachines: ['sm'] }],
  }));
  const daemon = await daemonWith({ panel: join(directory.path, 'panel.schema.json') }, [{ name: 'panel', file: 'panel', artboard: 'Main' }]);
  const client = await RiveSync.connect(daemon.url, { WebSocket });
  try {
    const panel = await client.subscribe('panel');
    assert.equal(daemonRunsStateMachine(panel), false, 'a state machine a schema only names runs nothing');
    await panel.set(joinPath('BG On/Off'), true);
    assert.equal(panel.value('BG On~1Off'), true);
    assert.equal(panel.viewModelInstance.boolean(escapeName('BG On/Off')).value, true);
    await panel.viewModelInstance.number(escapeName('a~b')).set(2);
    assert.equal(panel.value('a~0b'), 2);
    assert.throws(() => panel.value('a~b'), (e) => e.code === 'invalid_path');
    assert.throws(() => panel.value('BG On/Off'), (e) => e.code === 'no_such_property');
    assert.equal(await panel.digest(), (await client.digest('panel')).digest);
  } finally {
    client.close();
    await daemon.stop();
    directory.remove();
  }
});

test('Rive adapter: a preview renders what the daemon’s state machine decided and sends nothing back', async () => {
  const daemon = await daemonWith({ lvm: riv('listener_view_model.riv') }, [{ name: 'lvm', file: 'lvm', artboard: 'main', mode: 'manual' }]);
  const previewClient = await RiveSync.connect(daemon.url, { WebSocket });
  const driver = await RiveSync.connect(daemon.url, { WebSocket });
  const sent = [];
  const send = previewClient.request.bind(previewClient);
  previewClient.request = (message) => {
    if (!['subscribe', 'listTargets', 'describe', 'digest'].includes(message.type)) sent.push(message);
    return send(message);
  };
  try {
    const preview = await previewClient.subscribe('lvm');
    const target = await driver.subscribe('lvm');
    assert.ok(daemonRunsStateMachine(preview));
    const rive = new RiveViewModelInstanceDouble(preview.schema, 'vm1');
    const errors = [];
    const binding = bindRiveViewModelInstance(preview.viewModelInstance, rive, { onError: (e) => errors.push(e) });
    await target.advance();
    await applied(target, target.set('col', '#64000A0F'));
    await until(() => rive.number('num3').value === 22, 'the state machine’s writes in the preview');
    await applied(target, target.fire('tri'));
    await until(() => preview.value('tri') === 1, 'the fire in the preview client');
    assert.equal(rive.trigger('tri').fired, 1, 'a client’s fire is replayed into Rive');
    // The preview's own Rive state machine runs the same listeners and writes the same values
    // (and a trigger's listener): none of it goes back to the daemon.
    rive.number('num1').value = 99;
    rive.trigger('tri').trigger();
    rive.advance();
    await applied(target, target.set('num2', 7));
    await until(() => preview.value('num2') === 7 && rive.number('num2').value === 7, 'a later write in the preview');
    assert.equal(target.value('num1'), 32, 'the daemon’s listener added 10 for the one client fire');
    assert.equal(target.value('tri'), 1, 'the preview’s local trigger did not reach the daemon');
    assert.deepEqual(sent, [], 'the adapter sent nothing');
    assert.deepEqual(errors, []);
    binding.stop();
  } finally {
    previewClient.close();
    driver.close();
    await daemon.stop();
  }
});

test('Rive adapter: a trigger the daemon’s state machine fired is not replayed into the preview', async () => {
  const daemon = await daemonWith({ triggers: riv('data_binding_test_triggers.riv') });
  const client = await RiveSync.connect(daemon.url, { WebSocket });
  try {
    const root = await client.createInstance('triggers', { viewModel: 'vm_root', blank: true });
    await client.createStateMachine({ file: 'triggers', name: 'root', artboard: 'root', main: root.instance, mode: 'manual' });
    const preview = await client.subscribe('root');
    const rive = new RiveViewModelInstanceDouble(preview.schema, 'vm_root');
    const binding = bindRiveViewModelInstance(preview.viewModelInstance, rive);
    await preview.advance();
    await preview.advance(0.7);
    await preview.advance(0.1);
    await until(() => preview.value('trigger') === 1, 'the state machine’s fire');
    assert.equal(rive.trigger('trigger').fired, 0, 'the preview’s own state machine fires it at its 0.7 s');
    binding.stop();
  } finally {
    client.close();
    await daemon.stop();
  }
});

// state_machine_triggers.riv: its trigger input `Trigger 1` takes layer 0 out of state 3, where
// Rive's runtime stands after 0.1 s (the `legacy_input_triggers` trace).
test('state machine inputs are listed, fired and refused', async () => {
  const daemon = await daemonWith({ triggers: riv('state_machine_triggers.riv') }, [
    { name: 'legacy', file: 'triggers', artboard: 'main', mode: 'manual' },
  ]);
  const client = await RiveSync.connect(daemon.url, { WebSocket });
  try {
    const target = await client.subscribe('legacy');
    assert.deepEqual(await target.inputs(), [{ name: 'Trigger 1', type: 'trigger' }]);
    await assert.rejects(target.fireInput('Nope'), (e) => e.code === 'no_such_input' && e.details.name === 'Nope');
    await assert.rejects(
      target.setInput('Trigger 1', 1),
      (e) => e.code === 'type_mismatch' && e.details.expected === 'trigger' && e.details.actual === 'number',
    );
    await target.advance(0.1);
    assert.equal(target.layers[0].state, 3, "Rive's runtime: layer 0 stands in state 3 after 0.1 s");
    const ack = await applied(target, target.fireInput('Trigger 1'));
    assert.equal(ack.type, 'ack');
    await target.advance(0.1);
    assert.notEqual(target.layers[0].state, 3, 'the fired trigger moved layer 0 on');
    assert.deepEqual(await target.inputs(), [{ name: 'Trigger 1', type: 'trigger' }], 'consumed, still listed');
  } finally {
    client.close();
    await daemon.stop();
  }
});

// bidirectional_precedence.riv, artboard source_first: binds 0 and 1 are two-way binds of a
// shape's x and y (the `twoway_target_change` trace): a target written there reaches the view
// model as a change the state machine made.
test('a data bind target written by a client reaches the view model through its two-way bind', async () => {
  const daemon = await daemonWith({ twoway: riv('bidirectional_precedence.riv') }, [
    { name: 'twoway', file: 'twoway', artboard: 'source_first', mode: 'manual' },
  ]);
  const client = await RiveSync.connect(daemon.url, { WebSocket });
  try {
    const target = await client.subscribe('twoway');
    const batches = [];
    target.on('batch', (b) => batches.push(b));
    await target.advance();
    await assert.rejects(target.setBindTarget(9, 1), (e) => e.code === 'no_such_data_bind' && e.details.bind === 9);
    await assert.rejects(
      target.setBindTarget(0, 'far'),
      (e) => e.code === 'type_mismatch' && e.details.expected === 'number' && e.details.actual === 'string',
    );
    const ack = await applied(target, target.setBindTarget(0, 700));
    const batch = batches.find((b) => b.seq === ack.seq);
    assert.deepEqual(batch.effects.map((e) => [e.property, e.value, origin(e)]), [['x', 700, 'stateMachine']]);
    assert.equal(target.value('x'), 700);
  } finally {
    client.close();
    await daemon.stop();
  }
});
