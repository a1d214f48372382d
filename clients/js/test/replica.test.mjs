// replica.js in process: the worked example of PROTOCOL.md §7 (canonical bytes and digest), and
// batches that do not fit leave the replica unchanged, as the Swift Replica does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Replica, ReplicaError, formatColor, parseColor } from '../replica.js';
import { root } from './support.mjs';

const dot = { viewModels: [{ name: 'Dot', properties: [{ name: 'on', type: 'boolean' }, { name: 'x', type: 'number' }] }] };

test('the worked example of PROTOCOL.md §7', async () => {
  const replica = new Replica({
    target: 'dot', seq: 0, bindings: [{ slot: 'main', instance: 12 }],
    instances: [{ id: 12, viewModel: 'Dot', name: '', values: { on: false, x: 0 } }],
  }, dot);
  replica.apply({ target: 'dot', seq: 1, effects: [{ op: 'set', paths: ['x'], instance: 12, property: 'x', value: 1.5 }] });
  const text = readFileSync(join(root, 'protocol/PROTOCOL.md'), 'utf8');
  const section = text.slice(text.indexOf('Worked example'));
  const documented = section.slice(section.indexOf('```\n', section.indexOf('canonical bytes')) + 4).split('```')[0];
  const hex = Array.from(replica.canonicalBytes(), (b) => b.toString(16).padStart(2, '0')).join(' ');
  assert.equal(hex, documented.trim().split(/\s+/).join(' '));
  const digest = /and digest `([0-9a-f]{64})`/.exec(section)[1];
  assert.equal(await replica.digest(), digest);
});

test('a batch that does not fit leaves the replica unchanged', async () => {
  const schema = JSON.parse(readFileSync(join(root, 'protocol/examples/demo.schema.json'), 'utf8'));
  const replica = new Replica({
    target: 'lobby', seq: 3, bindings: [{ slot: 'main', instance: 1 }, { slot: 'Theme', instance: null }],
    instances: [{ id: 1, viewModel: 'Lobby', name: 'Default', values: { title: 't', players: [], host: null } }],
  }, schema);
  const before = await replica.digest();
  const reject = (batch, kind) => assert.throws(() => replica.apply(batch), (e) => e instanceof ReplicaError && e.kind === kind);
  reject({ target: 'other', seq: 4, effects: [] }, 'wrongTarget');
  reject({ target: 'lobby', seq: 5, effects: [] }, 'outOfOrder');
  reject({ target: 'lobby', seq: 4, effects: [
    { op: 'set', instance: 1, property: 'title', value: 'changed' },
    { op: 'listRemove', instance: 1, property: 'players', index: 0 },
  ] }, 'invalidChange');
  reject({ target: 'lobby', seq: 4, effects: [{ op: 'fire', instance: 9, property: 'wave' }] }, 'unknownInstance');
  reject({ target: 'lobby', seq: 4, effects: [{ op: 'set', instance: 1, property: 'nope', value: 1 }] }, 'invalidChange');
  reject({ target: 'lobby', seq: 4, effects: [{ op: 'bind', slot: 'Theme', instance: 7, introduced: [] }] }, 'unknownInstance');
  assert.equal(replica.seq, 3);
  assert.equal(replica.instances.get(1).values.title, 't');
  assert.equal(await replica.digest(), before);
  replica.apply({ target: 'lobby', seq: 4, effects: [{ op: 'listInsert', instance: 1, property: 'players', index: 0, item: 5,
    introduced: [{ id: 5, viewModel: 'Player', name: 'Guest', values: { name: 'Guest', x: 0, y: 0, color: '#FF3D7BFF', wave: 0 } }] }] });
  assert.deepEqual(replica.closure([1]), [1, 5]);
  assert.notEqual(await replica.digest(), before);
});

test('colours: #RRGGBB is opaque, integers are ARGB, the daemon form is #AARRGGBB', () => {
  assert.equal(parseColor('#123456'), 0xff123456);
  assert.equal(parseColor('#80123456'), 0x80123456);
  assert.equal(parseColor(0x80123456), 0x80123456);
  assert.equal(parseColor('red'), null);
  assert.equal(formatColor(0x0000ff), '#000000FF');
});
