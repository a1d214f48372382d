// Test support for the Node tests of rivesync.js: a real rivesyncd per test, and a WebSocket
// constructor (Node's global one under --experimental-websocket, else Debian's `ws` through
// NODE_PATH=/usr/share/nodejs).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The WebSocket constructor the tests pass to RiveSync.connect. */
export const WebSocket = globalThis.WebSocket ?? createRequire(import.meta.url)('ws');

/** A running rivesyncd; `stop()` ends it with SIGTERM and waits. */
export class Daemon {
  /**
   * @param {string[]} args e.g. ['--demo'] or ['--config', path]
   * @param {{port?: number}} [options] a fixed port (for restarts), default 0
   */
  static async start(args, options = {}) {
    const binary = process.env.RIVESYNC_DAEMON ?? process.env.RIVESYNCD ?? join(root, '.build/debug/rivesyncd');
    const daemon = new Daemon();
    daemon.process = spawn(binary, [...args, '--port', String(options.port ?? 0)], { stdio: ['ignore', 'ignore', 'pipe'] });
    daemon.stderr = '';
    daemon.exited = new Promise((resolveExit) => daemon.process.on('exit', (code, signal) => resolveExit({ code, signal })));
    daemon.port = await new Promise((resolvePort, reject) => {
      const timer = setTimeout(() => reject(new Error(`rivesyncd did not listen in 60 s:\n${daemon.stderr}`)), 60_000);
      daemon.process.stderr.on('data', (chunk) => {
        daemon.stderr += chunk;
        const match = /listening on [^\s"]*:(\d+)["\n]/.exec(daemon.stderr);
        if (match) {
          clearTimeout(timer);
          resolvePort(Number(match[1]));
        }
      });
      daemon.process.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`rivesyncd exited (${code}):\n${daemon.stderr}`));
      });
    });
    daemon.url = `ws://127.0.0.1:${daemon.port}/`;
    return daemon;
  }

  async stop() {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGTERM');
    return this.exited;
  }
}

/** A temporary directory removed by `remove()`. */
export function temporaryDirectory() {
  const path = mkdtempSync(join(tmpdir(), 'rivesync-js-'));
  return { path, write: (name, text) => writeFileSync(join(path, name), text), remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Resolves when `condition()` is true; rejects after `timeoutMs` with `what`. */
export async function until(condition, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A raw protocol connection: `send(message)`, `next()` (the next message, in order).
 */
export class RawConnection {
  static open(url) {
    return new Promise((resolveOpen, reject) => {
      const connection = new RawConnection();
      const socket = new WebSocket(url, 'rivesync.v1');
      connection.socket = socket;
      connection.queue = [];
      connection.waiters = [];
      connection.closed = null;
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data));
        const waiter = connection.waiters.shift();
        if (waiter) waiter.resolve(message);
        else connection.queue.push(message);
      };
      socket.onclose = (event) => {
        connection.closed = { code: event.code };
        for (const waiter of connection.waiters.splice(0)) waiter.reject(new Error(`closed (${event.code}) while waiting`));
      };
      socket.onopen = () => resolveOpen(connection);
      socket.onerror = () => reject(new Error(`cannot connect to ${url}`));
    });
  }

  send(message) {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  next(timeoutMs = 20_000) {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift());
    if (this.closed) return Promise.reject(new Error(`closed (${this.closed.code})`));
    return new Promise((resolveNext, reject) => {
      const waiter = { resolve: (m) => (clearTimeout(timer), resolveNext(m)), reject: (e) => (clearTimeout(timer), reject(e)) };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error('no message within the timeout'));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  close() {
    this.socket.close();
  }
}
