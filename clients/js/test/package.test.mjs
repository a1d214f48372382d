// The package as a Node project uses it: package.json's `exports` resolve (the package imports
// itself by name), and examples/mood.mjs runs as its comment and the README say, against a real
// rivesyncd — once with Node's built-in WebSocket (a flag on Node 20) and once with Debian's `ws`
// through NODE_PATH.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as byName from 'rivesync';
import * as byPath from '../rivesync.js';
import { Daemon, root } from './support.mjs';

const run = promisify(execFile);
const nodeFlag = (flag) => process.allowedNodeEnvironmentFlags.has(flag);
const hasBuiltIn = typeof globalThis.WebSocket === 'function';

test('the package resolves by its name to the same modules, with a types file for each export', async () => {
  assert.equal(byName.RiveSync, byPath.RiveSync);
  assert.equal((await import('rivesync/replica.js')).Replica, byPath.Replica);
  const manifest = JSON.parse(readFileSync(join(root, 'clients/js/package.json'), 'utf8'));
  assert.equal(manifest.type, 'module');
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue;
    readFileSync(join(root, 'clients/js', target.types), 'utf8');  // throws when missing
    assert.equal(target.default, `./${subpath === '.' ? 'rivesync.js' : subpath.slice(2)}`);
  }
});

test('examples/mood.mjs without a WebSocket says what to give it', async (t) => {
  const flags = hasBuiltIn ? ['--no-experimental-websocket'] : [];
  if (!flags.every(nodeFlag)) return t.skip(`this Node (${process.version}) has no ${flags.join(' ')}`);
  const failed = await run(process.execPath, [...flags, 'clients/js/examples/mood.mjs', 'ws://127.0.0.1:1/', '7'],
    { cwd: root, env: { ...process.env, NODE_PATH: '' } }).then(() => null, (error) => error);
  assert.equal(failed?.code, 1);
  assert.match(failed.stderr, /^mood\.mjs: this Node \(v[\d.]+\) has no WebSocket: use Node 22\+, --experimental-websocket on Node 20, or the ws package/);
});

for (const [name, flags, environment] of [
  ['the built-in WebSocket', hasBuiltIn ? [] : ['--experimental-websocket'], {}],
  ['ws through NODE_PATH', hasBuiltIn ? ['--no-experimental-websocket'] : [], { NODE_PATH: '/usr/share/nodejs' }],
]) {
  test(`examples/mood.mjs runs as written, with ${name}`, async (t) => {
    if (!flags.every(nodeFlag)) return t.skip(`this Node (${process.version}) has no ${flags.join(' ')}`);
    const daemon = await Daemon.start(['--demo']);
    try {
      const { stdout } = await run(process.execPath, [...flags, 'clients/js/examples/mood.mjs', daemon.url, '7'],
        { cwd: root, env: { ...process.env, NODE_PATH: '', ...environment } });
      const via = name.startsWith('ws') ? 'ws' : 'built-in WebSocket';
      assert.match(stdout, new RegExp(`^mood 7 \\(batch \\d+, ${via}\\)\\n$`));
    } finally {
      await daemon.stop();
    }
  });
}
