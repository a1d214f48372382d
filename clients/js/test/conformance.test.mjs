// The protocol conformance cases (protocol/conformance/*.json) against a fresh `rivesyncd --demo`
// each, driven from Node over the same WebSocket rivesync.js uses. Every whole-target snapshot a
// case's client receives starts a rivesync.js Replica that applies every later batch of that
// client; at the end of the case each replica's digest must equal the daemon's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Replica, RiveSync } from '../rivesync.js';
import { Daemon, RawConnection, WebSocket, root } from './support.mjs';

const directory = join(root, 'protocol/conformance');
const cases = readdirSync(directory).filter((name) => name.endsWith('.json')).sort();
const schema = JSON.parse(readFileSync(join(root, 'protocol/examples/demo.schema.json'), 'utf8'));
let replicasCompared = 0;

/** Whether `message` matches `pattern` (protocol/conformance/README.md), binding `$name`s. */
function matches(pattern, message, bound, where) {
  if (pattern === '$any') return;
  if (typeof pattern === 'string' && pattern.startsWith('$')) {
    if (!(pattern in bound)) {
      bound[pattern] = message;
      return;
    }
    assert.deepEqual(message, bound[pattern], `${where}: ${pattern}`);
    return;
  }
  if (Array.isArray(pattern)) {
    assert.ok(Array.isArray(message), `${where}: expected an array, got ${JSON.stringify(message)}`);
    assert.equal(message.length, pattern.length, `${where}: array length`);
    pattern.forEach((item, i) => matches(item, message[i], bound, `${where}[${i}]`));
    return;
  }
  if (pattern !== null && typeof pattern === 'object') {
    assert.ok(message !== null && typeof message === 'object' && !Array.isArray(message), `${where}: expected an object`);
    for (const [key, value] of Object.entries(pattern)) {
      assert.ok(key in message, `${where}.${key} missing in ${JSON.stringify(message)}`);
      matches(value, message[key], bound, `${where}.${key}`);
    }
    return;
  }
  assert.deepEqual(message, pattern, where);
}

/** `send` steps with `$name`s replaced by their bound values. */
function substitute(value, bound) {
  if (typeof value === 'string' && value.startsWith('$') && value in bound) return bound[value];
  if (Array.isArray(value)) return value.map((item) => substitute(item, bound));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, bound)]));
  }
  return value;
}

/** Follows one connection's snapshots and batches with replicas (per target). */
function follow(connection) {
  const replicas = new Map();
  const take = connection.socket.onmessage;
  connection.socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data));
    const target = message.target;
    if (message.type === 'snapshot' && message.bindings) replicas.set(target, new Replica(message, schema));
    else if (message.type === 'snapshot') replicas.delete(target);
    else if (message.type === 'subscribed' && replicas.get(target)?.seq !== message.seq) replicas.delete(target);
    else if (message.type === 'unsubscribed' || message.type === 'targetDeleted') replicas.delete(target);
    else if (message.type === 'batch' && replicas.has(target)) replicas.get(target).apply(message);
    take(event);
  };
  return replicas;
}

for (const name of cases) {
  test(`conformance ${name}`, async () => {
    const file = JSON.parse(readFileSync(join(directory, name), 'utf8'));
    const daemon = await Daemon.start(['--demo']);
    const connections = new Map();
    const bound = {};
    try {
      for (const [i, step] of file.steps.entries()) {
        const client = step.client ?? 'a';
        if (!connections.has(client)) {
          const connection = await RawConnection.open(daemon.url);
          connections.set(client, { connection, replicas: follow(connection) });
        }
        const { connection } = connections.get(client);
        if ('send' in step) connection.send(substitute(step.send, bound));
        else if ('sendRaw' in step) connection.send(String(step.sendRaw));
        else if ('expect' in step) matches(step.expect, await connection.next(), bound, `${name} step ${i} (${client})`);
        else assert.fail(`${name} step ${i}: unknown step ${JSON.stringify(step)}`);
      }
      const checker = await RiveSync.connect(daemon.url, { WebSocket, reconnect: false });
      try {
        for (const [client, { replicas }] of connections) {
          for (const [target, replica] of replicas) {
            const remote = await checker.digest(target).catch((error) => ({ error }));
            if (remote.error) {
              assert.equal(remote.error.code, 'unknown_target', `${name}: digest of ${target}`);
              continue;
            }
            if (remote.seq !== replica.seq) continue;  // the case stopped reading before the last batch
            assert.equal(await replica.digest(), remote.digest, `${name}: client ${client}'s replica of ${target} at seq ${replica.seq}`);
            replicasCompared += 1;
          }
        }
      } finally {
        checker.close();
      }
    } catch (error) {
      error.message += `\n--- rivesyncd stderr ---\n${daemon.stderr}`;
      throw error;
    } finally {
      for (const { connection } of connections.values()) connection.close();
      await daemon.stop();
    }
  });
}

test('conformance: there are cases, and replicas were compared with the daemon', () => {
  assert.ok(cases.length >= 10, `only ${cases.length} cases`);
  assert.ok(replicasCompared >= 8, `only ${replicasCompared} replicas compared`);
});
