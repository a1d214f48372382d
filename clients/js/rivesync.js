// rivesync.js — a RiveSync protocol v1 client (protocol/PROTOCOL.md) for browsers and Node 18+.
// Plain ES module with JSDoc types; no build step, no dependencies. Served by rivesyncd at
// /rivesync.js when its pages are on. Names follow Rive's web runtime data-binding API
// (`viewModelInstance.number('mood').value`, `.on(callback)`, `.trigger()`).

import { Replica, ReplicaError, parseColor, formatColor, escapeName, unescapeName, joinPath } from './replica.js';

export { Replica, ReplicaError, parseColor, formatColor, escapeName, unescapeName, joinPath };

/**
 * Who made an effect of a batch (PROTOCOL.md §7, §19): `'stateMachine'` for a change the
 * target's state machine made (a listener, a data bind, a converter, a transition), `'command'`
 * for a client's write.
 * @param {{by?: string}} effect
 * @returns {'stateMachine'|'command'}
 */
export function origin(effect) {
  return effect.by === 'stateMachine' ? 'stateMachine' : 'command';
}

/**
 * A request the daemon refused, or a connection failure: `code` is the protocol's error code
 * (PROTOCOL.md §13), or one of the client's own: `connection_lost` (the connection closed
 * before the reply; a command may or may not have applied), `closed` (the client was closed),
 * `replica_diverged` (a batch did not fit the replica; the client resubscribes), `listener_failed` (a
 * callback given to `watch` or `on` threw; reported on the client's `error` listeners), `not_settled`
 * (`advanceUntilSettled` ran out of advances). A cluster node of other shards answers `wrong_node`
 * with `details.shard` and `details.nodes`, the URLs of nodes that serve it (protocol/CLUSTER.md §6).
 */
export class RiveSyncError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {Object<string, any>} [details]
   */
  constructor(code, message, details = {}) {
    super(message);
    this.name = 'RiveSyncError';
    /** @type {string} */
    this.code = code;
    /** @type {Object<string, any>} */
    this.details = details;
  }
}

/** @typedef {'connecting'|'open'|'reconnecting'|'closed'} ConnectionState */

/**
 * The daemon's acknowledgement of a command (PROTOCOL.md §8): the batch `seq` that applied it
 * and the command's number; a transaction's lists every number in `commands`.
 * @typedef {{type: 'ack', id?: number, target: string, seq: number, command: number, commands?: number[]}} Ack
 */

/** An instance: a `ViewModelInstance` handle, its id, or a `createInstance` reply.
 * @typedef {ViewModelInstance|number|{instance?: number, id?: number}} InstanceReference
 */

/**
 * @typedef {Object} ConnectOptions
 * @property {string} [token] access token, sent in `hello` (never in the URL)
 * @property {any} [WebSocket] a WebSocket constructor (default: the global one; in Node 20 pass
 *   Debian's `ws` or run `node --experimental-websocket`)
 * @property {string} [client] free text the daemon logs
 * @property {boolean} [reconnect] reconnect and resume after a lost connection (default true)
 * @property {number} [maxBackoffMs] longest wait between reconnect attempts (default 5000)
 */

/**
 * One connection to rivesyncd: requests with awaited replies, subscriptions with replicas,
 * reconnection with resume.
 */
export class RiveSync {
  /**
   * Connects and says hello. Resolves once the daemon's `welcome` arrives.
   * @param {string} url `ws://host:port/` or `wss://…`
   * @param {ConnectOptions} [options]
   * @returns {Promise<RiveSync>}
   */
  static async connect(url, options = {}) {
    const client = new RiveSync(url, options);
    await client.open();
    return client;
  }

  /** @private */
  constructor(url, options) {
    /** @type {string} the daemon's URL */
    this.url = url;
    /** @private */
    this.options = { reconnect: true, maxBackoffMs: 5000, ...options };
    /** @private */
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
    if (!this.WebSocket) throw new RiveSyncError('bad_message', 'no WebSocket: pass options.WebSocket');
    /** @type {ConnectionState} */
    this.state = 'connecting';
    /** @type {any} the daemon's `welcome` */
    this.welcome = null;
    /** @private */
    this.nextId = 1;
    /** @private */
    this.pending = new Map();
    /** @type {Map<string, Target>} */
    this.targets = new Map();
    /** @private */
    this.schemas = new Map();
    /** @private */
    this.listeners = { state: new Set(), message: new Set(), error: new Set() };
    /** @private */
    this.closedByUser = false;
  }

  /**
   * Adds a listener: `state` (ConnectionState), `message` (every message received), `error`
   * (a RiveSyncError no caller awaited, e.g. of a `value =` setter).
   * @param {'state'|'message'|'error'} event
   * @param {Function} callback
   */
  on(event, callback) {
    this.listeners[event].add(callback);
    return this;
  }

  /**
   * Removes a listener added with `on`.
   * @param {'state'|'message'|'error'} event
   * @param {Function} callback
   * @returns {RiveSync}
   */
  off(event, callback) {
    this.listeners[event].delete(callback);
    return this;
  }

  /** @private */
  emit(event, value) {
    for (const callback of this.listeners[event]) callback(value);
  }

  /** @private */
  setState(state) {
    if (this.state === state) return;
    this.state = state;
    // Closed for good: nothing will resume; waiting presence requests go on (and fail closed).
    if (state === 'closed') for (const target of this.targets.values()) target.resumed_();
    this.emit('state', state);
  }

  /** @private Opens the socket and says hello; rejects if either fails. */
  open() {
    return new Promise((resolve, reject) => {
      const socket = new this.WebSocket(this.url, 'rivesync.v1');
      this.socket = socket;
      let welcomed = false;
      socket.onmessage = (event) => this.receive(typeof event.data === 'string' ? event.data : String(event.data));
      socket.onclose = (event) => {
        if (welcomed) {
          this.lost(socket);
          return;
        }
        // An attempt that never got its welcome: whoever called open() (connect, or the one
        // reconnect loop) decides what follows, so a failed attempt starts no loop of its own.
        this.failPending(new RiveSyncError('connection_lost', 'the connection closed before the reply'));
        if (!this.welcome) this.setState('closed');
        reject(new RiveSyncError('connection_lost', `connection closed (${event.code})`, { code: event.code }));
      };
      socket.onerror = () => {};
      socket.onopen = () => {
        const hello = { type: 'hello', protocol: [1], client: this.options.client ?? 'rivesync.js/0.1' };
        if (this.options.token) hello.token = this.options.token;
        this.request(hello).then(
          (welcome) => {
            welcomed = true;
            this.welcome = welcome;
            this.setState('open');
            resolve(welcome);
          },
          (error) => {
            reject(error);
            socket.close();
          },
        );
      };
    });
  }

  /** @private Rejects every request waiting for a reply. */
  failPending(failure) {
    for (const { reject } of this.pending.values()) reject(failure);
    this.pending.clear();
  }

  /**
   * @private The welcomed socket closed: fail what waits, then start the one reconnect loop
   * unless closed by the user.
   */
  lost(socket) {
    if (socket !== this.socket) return;
    this.failPending(
      this.closedByUser
        ? new RiveSyncError('closed', 'the client was closed')
        : new RiveSyncError('connection_lost', 'the connection closed before the reply'),
    );
    if (this.closedByUser || !this.options.reconnect || !this.welcome) {
      this.setState('closed');
      return;
    }
    for (const target of this.targets.values()) target.holdUntilResumed();
    this.setState('reconnecting');
    this.reconnect(200);
  }

  /** @private */
  reconnect(delay) {
    setTimeout(async () => {
      if (this.closedByUser) return;
      try {
        await this.open();
      } catch (error) {
        if (error instanceof RiveSyncError && error.code === 'unauthorized') {
          this.closedByUser = true;
          this.setState('closed');
          this.emit('error', error);
          return;
        }
        if (!this.closedByUser) this.reconnect(Math.min(delay * 2, this.options.maxBackoffMs));
        return;
      }
      for (const target of this.targets.values()) target.resubscribe();
    }, delay);
  }

  /** Closes the connection (1000); pending requests fail with `closed`; no reconnect. */
  close() {
    this.closedByUser = true;
    this.socket?.close(1000);
    this.setState('closed');
  }

  /** @private */
  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      this.emit('error', new RiveSyncError('bad_json', 'the daemon sent a message that is not JSON'));
      return;
    }
    this.emit('message', message);
    if (message.id !== undefined && message.id !== null && this.pending.has(message.id)) {
      const { resolve, reject } = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.type === 'error') {
        reject(new RiveSyncError(message.code, message.message ?? message.code, message.details ?? {}));
      } else {
        resolve(message);
      }
      return;
    }
    const target = message.target !== undefined ? this.targets.get(message.target) : undefined;
    if (message.type === 'batch' || message.type === 'snapshot' || message.type === 'presence') target?.receive(message);
    else if (message.type === 'unsubscribed') target?.ended(message);
    else if (message.type === 'error') {
      this.emit('error', new RiveSyncError(message.code, message.message ?? message.code, message.details ?? {}));
    }
  }

  /**
   * Sends a request and resolves with its reply, or rejects with a `RiveSyncError` (the
   * daemon's `error`, or `connection_lost`). An `id` is assigned.
   * @param {Object} message a request of PROTOCOL.md without `id`
   * @returns {Promise<any>}
   */
  request(message) {
    if (!this.socket || this.socket.readyState !== 1) {
      return Promise.reject(new RiveSyncError(this.closedByUser ? 'closed' : 'connection_lost', 'not connected'));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ ...message, id }));
    });
  }

  // MARK: Listings (PROTOCOL.md §5)

  /** @returns {Promise<Array<{name: string, worker: number, source: string}>>} */
  async listFiles() {
    return (await this.request({ type: 'listFiles' })).files;
  }

  /**
   * The file's schema (SCHEMA.md shape), fetched once per connection lineage.
   * @param {string} file
   * @returns {Promise<Object>}
   */
  async describe(file) {
    if (!this.schemas.has(file)) {
      const reply = this.request({ type: 'describe', file }).then((r) => r.schema);
      this.schemas.set(file, reply);
      reply.catch(() => this.schemas.delete(file));
    }
    return this.schemas.get(file);
  }

  /**
   * The targets this connection may see (`listTargets`), every page: a reply with `next`
   * is followed by a request for the targets `after` it.
   * @returns {Promise<Array<Object>>}
   */
  async listTargets() {
    const targets = [];
    let after;
    for (;;) {
      const reply = await this.request(after === undefined ? { type: 'listTargets' } : { type: 'listTargets', after });
      targets.push(...reply.targets);
      if (typeof reply.next !== 'string' || reply.next === after) return targets;
      after = reply.next;
    }
  }

  /**
   * The names of the file's view models.
   * @param {string} file
   * @returns {Promise<string[]>}
   */
  async viewModelNames(file) {
    return (await this.request({ type: 'viewModelNames', file })).names;
  }

  /**
   * The names of the view models bound as globals (`Theme`).
   * @param {string} file
   * @returns {Promise<string[]>}
   */
  async globalViewModelNames(file) {
    return (await this.request({ type: 'globalViewModelNames', file })).names;
  }

  /**
   * The names of the instances authored for `viewModel`.
   * @param {string} file
   * @param {string} viewModel
   * @returns {Promise<string[]>}
   */
  async instanceNames(file, viewModel) {
    return (await this.request({ type: 'instanceNames', file, viewModel })).names;
  }

  /**
   * The properties of `viewModel`, in order.
   * @param {string} file
   * @param {string} viewModel
   * @returns {Promise<Array<{name: string, type: string, metaData: string}>>}
   */
  async properties(file, viewModel) {
    return (await this.request({ type: 'properties', file, viewModel })).properties;
  }

  /**
   * The default view model and instance of `artboard` (default: the default artboard).
   * @param {string} file
   * @param {string} [artboard]
   * @returns {Promise<{viewModel: string, instance: string}>}
   */
  async defaultViewModelInfo(file, artboard) {
    const reply = await this.request({ type: 'defaultViewModelInfo', file, artboard });
    return { viewModel: reply.viewModel, instance: reply.instance };
  }

  /**
   * The file's enums.
   * @param {string} file
   * @returns {Promise<Array<{name: string, values: string[]}>>}
   */
  async enums(file) {
    return (await this.request({ type: 'enums', file })).enums;
  }

  /**
   * The names of the file's artboards.
   * @param {string} file
   * @returns {Promise<string[]>}
   */
  async artboardNames(file) {
    return (await this.request({ type: 'artboardNames', file })).names;
  }

  /**
   * The names of the state machines of `artboard` (default: the default artboard).
   * @param {string} file
   * @param {string} [artboard]
   * @returns {Promise<string[]>}
   */
  async stateMachineNames(file, artboard) {
    return (await this.request({ type: 'stateMachineNames', file, artboard })).names;
  }

  // MARK: Instances, state machines, assets (§6, §9)

  /**
   * Creates an instance. `source`: `{viewModel, name}` (authored by name), `{viewModel, index}`,
   * `{viewModel, blank: true}` or `{viewModel}` (the default). `publish`: also share it as a
   * target of that name.
   * @param {string} file
   * @param {{viewModel: string, name?: string, index?: number, blank?: boolean}} source
   * @param {string} [publish]
   * @returns {Promise<{instance: number, viewModel: string, name: string}>}
   */
  async createInstance(file, source, publish) {
    const { viewModel, name, index, blank } = source;
    let wire;
    if (name !== undefined) wire = { name, viewModel };
    else if (index !== undefined) wire = { index, viewModel };
    else if (blank) wire = { blank: { viewModel } };
    else wire = { default: { viewModel } };
    return this.request({ type: 'createInstance', file, source: wire, publish });
  }

  /**
   * Creates a state machine target (fields of PROTOCOL.md §6 `createStateMachine`).
   * @param {Object} fields
   * @returns {Promise<Object>}
   */
  async createStateMachine(fields) {
    return this.request({ type: 'createStateMachine', ...fields });
  }

  /**
   * Publishes the instance `instance` (an id) as the target `name`.
   * @param {number} instance
   * @param {string} name
   * @returns {Promise<Object>}
   */
  async publish(instance, name) {
    return this.request({ type: 'publish', instance, name });
  }

  /**
   * Deletes a target; the reply lists the instances freed with it (`freed`).
   * @param {string} target
   * @returns {Promise<Object>}
   */
  async deleteTarget(target) {
    return this.request({ type: 'deleteTarget', target });
  }

  /**
   * Uploads image, font or blob bytes; resolves with the asset value to `set`.
   * @param {'image'|'font'|'blob'} kind
   * @param {Uint8Array} bytes
   * @param {string} [mediaType]
   * @returns {Promise<{id: string, bytes: number, mediaType: string}>}
   */
  async upload(kind, bytes, mediaType) {
    return (await this.request({ type: 'upload', kind, data: base64(bytes), mediaType })).asset;
  }

  /**
   * Loads a file at run time: `{schema}` (a SCHEMA.md object) or `{riv}` (the `.riv` bytes).
   * A `.riv` file whose base64 would not fit in the daemon's `maxMessageBytes` goes in parts
   * (PROTOCOL.md §9). Resolves with the new file list.
   * @param {string} name
   * @param {{schema?: Object, riv?: Uint8Array}} content
   * @returns {Promise<Array<{name: string, worker: number, source: string}>>}
   */
  async loadFile(name, content) {
    const message = { type: 'loadFile', name };
    if (content.schema) message.schema = content.schema;
    if (!content.riv) return (await this.request(message)).files;
    const riv = content.riv;
    // base64 takes 4 characters for every 3 bytes; the rest of the message fits in 256 bytes
    // besides the name (escaped at worst 6 characters a byte).
    const maxMessageBytes = this.welcome?.limits?.maxMessageBytes ?? 1048576;
    const nameBytes = new TextEncoder().encode(name).length;
    const partBytes = Math.max(3, Math.floor((maxMessageBytes - 256 - 6 * nameBytes) / 4) * 3);
    if (riv.length <= partBytes) return (await this.request({ ...message, riv: base64(riv) })).files;
    let reply;
    for (let offset = 0; offset < riv.length; offset += partBytes) {
      const part = riv.subarray(offset, offset + partBytes);
      reply = await this.request({ ...message, riv: base64(part), offset, size: riv.length });
    }
    return reply.files;
  }

  // MARK: Targets (§7, §8)

  /**
   * Subscribes to a whole target and resolves with its `Target` once the snapshot has arrived.
   * One subscription per target: a second call returns the same `Target`.
   * @param {string} name
   * @returns {Promise<Target>}
   */
  async subscribe(name) {
    if (this.targets.has(name)) return this.targets.get(name).ready;
    const target = new Target(this, name);
    this.targets.set(name, target);
    target.ready = target.start().then(
      () => target,
      (error) => {
        this.targets.delete(name);
        throw error;
      },
    );
    return target.ready;
  }

  /**
   * The daemon's state digest of a target: `{seq, digest}`.
   * @param {string} target
   * @returns {Promise<{seq: number, digest: string}>}
   */
  async digest(target) {
    const reply = await this.request({ type: 'digest', target });
    return { seq: reply.seq, digest: reply.digest };
  }

  /**
   * Reads one value from the daemon (`get`): `{seq, valueType, value}`.
   * @param {string} target
   * @param {string} path
   * @returns {Promise<{seq: number, valueType: string, value: any}>}
   */
  async get(target, path) {
    return this.request({ type: 'get', target, path });
  }

  /**
   * Queues a command (set, fire, list edits, bind, transaction) and resolves with its ack
   * `{seq, command}` (a transaction's also has `commands`).
   * @param {Object} message a command of PROTOCOL.md §8 without `id`
   * @returns {Promise<Ack>}
   */
  async command(message) {
    return this.request(message);
  }
}

/** Base64 of bytes (for `upload` and `loadFile`). */
function base64(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A presence key: 32 random hex digits, kept by this client (PROTOCOL.md §15). */
function presenceKey() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A subscribed target: its replica (reads), its value streams and its writes. Reads come from
 * the replica, as of the last batch; writes resolve after the daemon's ack (whose batch has
 * then been applied) or reject with the error.
 */
export class Target {
  /** @private */
  constructor(client, name) {
    /** @type {RiveSync} */
    this.client = client;
    /** @type {string} the target's name */
    this.name = name;
    /** @type {Replica|null} */
    this.replica = null;
    /** @private */
    this.listeners = { batch: new Set(), snapshot: new Set(), end: new Set(), presence: new Set() };
    /** @private */
    this.valueListeners = new Set();
    /** @private */
    this.ended_ = false;
    /** @type {Array<{member: string, state: Object}>} the target's presence members (§15) */
    this.presence = [];
    /** @private the join to send again after a reconnect (its key resumes the member) */
    this.presenceJoined = null;
    /**
     * @private settles when the target is resubscribed (and its member resumed) after the
     * connection was lost, or when the client closes; presence requests wait for it
     */
    this.resuming = Promise.resolve();
    /** @private settles `resuming` */
    this.resumed_ = () => {};
    /**
     * A state machine's layers, each in its current state (`{layer, name, state, kind,
     * animation?}`, PROTOCOL.md §19), from `listTargets` when subscribed and then from every
     * batch's `layers`; empty for a published instance or a state machine with no graph.
     * @type {Array<{layer: number, name: string, state: number, kind: string, animation?: string}>}
     */
    this.layers = [];
  }

  /** @private */
  async start() {
    const info = (await this.client.listTargets()).find((t) => t.name === this.name);
    if (!info) throw new RiveSyncError('unknown_target', `no target '${this.name}'`, { target: this.name });
    this.file = info.file;
    this.info = info;
    this.layers = info.layers ?? [];
    this.schema = await this.client.describe(info.file);
    const reply = await this.client.request({ type: 'subscribe', target: this.name });
    this.reset(reply);
  }

  /** @private The connection was lost: presence requests wait until `resubscribe` is done. */
  holdUntilResumed() {
    this.resumed_();
    this.resuming = new Promise((resolve) => {
      this.resumed_ = resolve;
    });
  }

  /** @private After a reconnect: resume from the cursor, or start over from a snapshot. */
  async resubscribe() {
    if (this.ended_) return this.resumed_();
    const cursor = this.replica ? { epoch: this.replica.epoch, seq: this.replica.seq } : undefined;
    try {
      const reply = await this.client.request({ type: 'subscribe', target: this.name, cursor });
      this.resumed = reply.type === 'subscribed' && reply.resumed === true;
      if (!this.resumed) {
        this.reset(reply);
        await this.refreshLayers();
      } else if (reply.presence) this.setPresence(reply.presence);
      if (this.presenceJoined) await this.client.request({ type: 'presenceJoin', target: this.name, ...this.presenceJoined });
      for (const callback of this.listeners.snapshot) callback({ resumed: this.resumed, seq: this.replica.seq });
    } catch (error) {
      this.client.emit('error', error);
    } finally {
      this.resumed_();
    }
  }

  /** @private */
  reset(snapshot) {
    this.replica = new Replica({ ...snapshot, target: this.name }, this.schema);
    if (snapshot.presence) this.setPresence(snapshot.presence);
    this.notifyValues();
  }

  /** @private After a snapshot replaced the batches: the layers as the daemon lists them now. */
  async refreshLayers() {
    const info = (await this.client.listTargets()).find((t) => t.name === this.name);
    if (info) this.layers = info.layers ?? [];
  }

  /** @private A batch or catch-up snapshot of this target. */
  receive(message) {
    if (message.type === 'presence') {
      const members = [...this.presence];
      for (const change of message.changes) {
        const index = members.findIndex((m) => m.member === change.member);
        if (change.op === 'leave') {
          if (index >= 0) members.splice(index, 1);
        } else if (index >= 0) {
          members[index] = { member: change.member, state: change.state };
        } else {
          members.push({ member: change.member, state: change.state });
        }
      }
      this.setPresence(members);
      return;
    }
    if (message.type === 'snapshot') {
      this.reset(message);
      this.refreshLayers().catch((error) => this.client.emit('error', error));
      for (const callback of this.listeners.snapshot) callback({ resumed: false, seq: message.seq, reason: message.reason });
      return;
    }
    if (!this.replica) return;
    try {
      this.replica.apply(message);
    } catch (error) {
      this.client.emit('error', new RiveSyncError('replica_diverged', error.message));
      this.resubscribe();
      return;
    }
    for (const layer of message.layers ?? []) {
      const index = this.layers.findIndex((l) => l.layer === layer.layer);
      if (index >= 0) this.layers[index] = layer;
      else this.layers.push(layer);
    }
    for (const callback of this.listeners.batch) callback(message);
    this.notifyValues();
  }

  /** @private The daemon ended the subscription (deleted, or no longer readable). */
  ended(message) {
    this.ended_ = true;
    this.client.targets.delete(this.name);
    for (const callback of this.listeners.end) callback(message);
  }

  /**
   * Adds a listener: `batch` (each applied batch message; its `commands` and, unless the
   * daemon has `"authors": false`, its `authors`: one `{client?, token?}` per command, who sent
   * it, PROTOCOL.md §17; the state machine's part, §19: `elapsed`, `events` (`[{name, delay,
   * properties?}]`), `layers` (those whose state changed) and `settled: false` while it needs
   * further advances; each effect the state machine made has `by: 'stateMachine'`, see
   * `origin(effect)`), `snapshot` (`{resumed, seq}` after
   * a reconnect or catch-up), `end` (the daemon's `unsubscribed`), `presence` (the member
   * list after each change, `[{member, state}]`).
   */
  on(event, callback) {
    this.listeners[event].add(callback);
    return this;
  }

  off(event, callback) {
    this.listeners[event].delete(callback);
    return this;
  }

  /** @private */
  setPresence(members) {
    this.presence = members;
    for (const callback of this.listeners.presence) callback(members);
  }

  /**
   * Joins the target's presence (PROTOCOL.md §15) with `state` (a small JSON object), or
   * replaces the state if this client is a member already. Resolves with the member's name.
   * After a reconnect the client joins again with the same key, so the member resumes.
   * @param {Object} state
   * @returns {Promise<string>}
   */
  async joinPresence(state) {
    await this.resuming;
    const key = this.presenceJoined?.key ?? presenceKey();
    const reply = await this.client.request({ type: 'presenceJoin', target: this.name, key, state });
    this.presenceJoined = { key, state };
    return reply.member;
  }

  /**
   * Replaces this client's presence state (no merge); rejects with `not_joined` before a join.
   * After a lost connection it waits until the member is resumed.
   */
  async updatePresence(state) {
    await this.resuming;
    await this.client.request({ type: 'presenceUpdate', target: this.name, state });
    if (this.presenceJoined) this.presenceJoined.state = state;
  }

  /** Leaves the target's presence. */
  async leavePresence() {
    await this.resuming;
    this.presenceJoined = null;
    await this.client.request({ type: 'presenceLeave', target: this.name });
  }

  /** The members as the daemon has them now, in join order (needs `seePresence`). */
  async listPresence() {
    return (await this.client.request({ type: 'presenceList', target: this.name })).members;
  }

  /** Ends the subscription. */
  async unsubscribe() {
    this.ended_ = true;
    this.client.targets.delete(this.name);
    await this.client.request({ type: 'unsubscribe', target: this.name });
  }

  /** The local replica's digest (equal to `client.digest(name)` at the same seq). */
  digest() {
    return this.replica.digest();
  }

  /** The seq of the last batch applied. */
  get seq() {
    return this.replica.seq;
  }

  /**
   * Where a path leads in the replica: `{instance, property, type, schema}` for a property, or
   * `{slot, instance}` for a bare slot `@Name`. Throws a `RiveSyncError` with the daemon's code.
   * @param {string} path
   */
  resolve(path) {
    const replica = this.replica;
    const segments = path.split('/');
    const invalid = () => new RiveSyncError('invalid_path', `invalid path '${path}'`, { path });
    let id;
    const first = segments[0];
    if (first.startsWith('@')) {
      const slot = unescapeName(first.slice(1));
      if (slot === null) throw invalid();
      if (!replica.bindings.some((b) => b.slot === slot)) throw new RiveSyncError('no_such_slot', `no slot '${slot}'`, { path });
      id = replica.instanceIn(slot);
      segments.shift();
      if (segments.length === 0) return { slot, instance: id };
    } else if (first.startsWith('#')) {
      id = Number(first.slice(1));
      segments.shift();
    } else {
      id = replica.instanceIn('main');
    }
    for (let i = 0; i < segments.length; i++) {
      if (id === null || id === undefined) throw new RiveSyncError('null_instance', `no instance at '${path}'`, { path });
      const state = replica.instances.get(id);
      if (!state) throw new RiveSyncError('unknown_instance', `instance ${id} is not in the replica`, { instance: id });
      const name = unescapeName(segments[i]);
      if (name === null) throw invalid();
      const property = replica.property(state.viewModel, name);
      if (!property) throw new RiveSyncError('no_such_property', `no property at '${path}'`, { path });
      if (i === segments.length - 1) return { instance: id, property: name, type: property.type, schema: property };
      const value = state.values[name];
      if (property.type === 'viewModel') {
        id = value?.instance ?? null;
      } else if (property.type === 'list') {
        const index = Number(segments[++i]);
        if (!Number.isInteger(index) || index < 0 || index >= value.length) {
          throw new RiveSyncError('index_out_of_range', `no item ${segments[i]} in '${name}'`, { path, count: value.length });
        }
        id = value[index];
        if (i === segments.length - 1) throw new RiveSyncError('invalid_path', `'${path}' ends at a list item`, { path });
      } else {
        throw new RiveSyncError('type_mismatch', `'${name}' has no properties`, { path, actual: property.type });
      }
    }
    throw new RiveSyncError('invalid_path', `'${path}' does not end at a property`, { path });
  }

  /** The current value at `path` in its JSON form (PROTOCOL.md §4). */
  value(path) {
    const place = this.resolve(path);
    if (place.slot !== undefined) return place.instance === null ? null : { instance: place.instance };
    return this.replica.instances.get(place.instance).values[place.property];
  }

  /**
   * A path at which an instance is reachable now (its first, breadth-first from the slots), so
   * handles of list items and nested instances keep addressing the same instance as lists
   * move. Null when it is no longer reachable.
   * @param {number} id
   */
  pathOf(id) {
    const replica = this.replica;
    const queue = replica.bindings
      .filter((b) => b.instance !== null)
      .map((b) => ({ id: b.instance, path: b.slot === 'main' ? '' : '@' + escapeName(b.slot) }));
    const seen = new Set();
    while (queue.length > 0) {
      const { id: at, path } = queue.shift();
      if (at === id) return path;
      if (seen.has(at)) continue;
      seen.add(at);
      const state = replica.instances.get(at);
      if (!state) continue;
      for (const key of Object.keys(state.values).sort()) {
        const type = replica.property(state.viewModel, key)?.type;
        const join = (suffix) => (path === '' ? suffix : path + '/' + suffix);
        const segment = escapeName(key);
        if (type === 'viewModel' && state.values[key]) queue.push({ id: state.values[key].instance, path: join(segment) });
        if (type === 'list') state.values[key].forEach((item, i) => queue.push({ id: item, path: join(segment + '/' + i) }));
      }
    }
    return null;
  }

  /**
   * Calls `callback(value)` now (if the path resolves) and after every batch that changes the
   * value at `path`. Returns a function that stops it. `path` may be a function returning the
   * path, asked again at every batch (handles of moving list items use it); while it does not
   * resolve, the callback is not called.
   * @param {string|(() => string)} path
   * @param {(value: any) => void} callback
   */
  watch(path, callback) {
    const entry = { path, callback, last: undefined };
    this.valueListeners.add(entry);
    this.notifyValue(entry);
    return () => this.valueListeners.delete(entry);
  }

  /**
   * The values at `path` as an async iterator: the current one, then each change.
   * @param {string} path
   * @returns {AsyncIterableIterator<any>}
   */
  valueStream(path) {
    const queue = [];
    let wake = null;
    const stop = this.watch(path, (value) => {
      queue.push(value);
      wake?.();
    });
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next() {
        while (queue.length === 0) await new Promise((resolve) => (wake = resolve));
        return { value: queue.shift(), done: false };
      },
      async return() {
        stop();
        return { value: undefined, done: true };
      },
    };
  }

  /** @private */
  notifyValues() {
    for (const entry of this.valueListeners) this.notifyValue(entry);
  }

  /** @private */
  notifyValue(entry) {
    let value;
    try {
      value = this.value(typeof entry.path === 'function' ? entry.path() : entry.path);
    } catch {
      return;
    }
    const text = JSON.stringify(value);
    if (text === entry.last) return;
    entry.last = text;
    try {
      entry.callback(value);
    } catch (error) {
      this.client.emit('error', error instanceof RiveSyncError ? error : new RiveSyncError('listener_failed', String(error?.message ?? error)));
    }
  }

  // MARK: Writes: each resolves with the ack, or rejects with the error.

  /**
   * `set` (PROTOCOL.md §8): a value in its JSON form, `{instance: id}` for a nested replacement.
   * @param {string} path
   * @param {any} value
   * @returns {Promise<Ack>}
   */
  set(path, value) {
    return this.client.command({ type: 'set', target: this.name, path, value });
  }

  /**
   * `fire`: fires the trigger at `path`.
   * @param {string} path
   * @returns {Promise<Ack>}
   */
  fire(path) {
    return this.client.command({ type: 'fire', target: this.name, path });
  }

  /**
   * Appends the instance `instance` (an id) to the list at `path`.
   * @param {string} path
   * @param {number} instance
   * @returns {Promise<Ack>}
   */
  listAppend(path, instance) {
    return this.client.command({ type: 'listAppend', target: this.name, path, instance });
  }

  /**
   * Inserts the instance `instance` (an id) at `index` of the list at `path`.
   * @param {string} path
   * @param {number} index
   * @param {number} instance
   * @returns {Promise<Ack>}
   */
  listInsert(path, index, instance) {
    return this.client.command({ type: 'listInsert', target: this.name, path, index, instance });
  }

  /**
   * Removes the item at `index` of the list at `path`.
   * @param {string} path
   * @param {number} index
   * @returns {Promise<Ack>}
   */
  listRemoveAt(path, index) {
    return this.client.command({ type: 'listRemoveAt', target: this.name, path, index });
  }

  /**
   * Removes every occurrence of the instance `instance` (an id) from the list at `path`.
   * @param {string} path
   * @param {number} instance
   * @returns {Promise<Ack>}
   */
  listRemove(path, instance) {
    return this.client.command({ type: 'listRemove', target: this.name, path, instance });
  }

  /**
   * Swaps the items at `index` and `other` of the list at `path`.
   * @param {string} path
   * @param {number} index
   * @param {number} other
   * @returns {Promise<Ack>}
   */
  listSwap(path, index, other) {
    return this.client.command({ type: 'listSwap', target: this.name, path, index, with: other });
  }

  /**
   * `transaction` (PROTOCOL.md §16): several commands in one advance, in their order, all or
   * none. Each is a command object without `target` (`{type: 'set', path, value}`, `{type:
   * 'fire', path}`, list edits, `bind`). Resolves with the ack (`commands`: every number, in
   * order); rejects with the failing command's error, whose `details.commandIndex` names it.
   * @param {Array<Object>} commands
   * @returns {Promise<Ack>}
   */
  transaction(commands) {
    return this.client.command({ type: 'transaction', target: this.name, commands });
  }

  /**
   * `bind`: `{main?: id, globals?: [{name, instance}]}`.
   * @param {{main?: number, globals?: Array<{name: string, instance: number}>}} fields
   * @returns {Promise<Ack>}
   */
  bind(fields) {
    return this.client.command({ type: 'bind', target: this.name, ...fields });
  }

  /**
   * `setInput` (PROTOCOL.md §8): sets a state machine's number or boolean input, as Rive's
   * `SMINumber.value` / `SMIBool.value`. Resolves with the ack after the advance that applied
   * it; rejects with `no_such_input` or `type_mismatch`.
   * @param {string} name
   * @param {number|boolean} value
   * @returns {Promise<Ack>}
   */
  setInput(name, value) {
    return this.client.command({ type: 'setInput', target: this.name, name, value });
  }

  /**
   * `fireInput` (PROTOCOL.md §8): fires a state machine's trigger input, as Rive's
   * `SMITrigger.fire()`; the advance that applies it consumes it. Resolves with the ack.
   * @param {string} name
   * @returns {Promise<Ack>}
   */
  fireInput(name) {
    return this.client.command({ type: 'fireInput', target: this.name, name });
  }

  /**
   * `setBindTarget` (PROTOCOL.md §8): writes the target side of the artboard's data bind number
   * `bind` (as `rivesync inspect --graph` numbers them), as an interactive component would: a
   * number, a boolean, a string or a color `'#AARRGGBB'`, of the bound property's type. Two-way
   * and to-source binds carry it to the view model. Resolves with the ack after the advance that
   * applied it; rejects with `no_such_data_bind` or `type_mismatch`.
   * @param {number} bind
   * @param {number|boolean|string} value
   * @returns {Promise<Ack>}
   */
  setBindTarget(bind, value) {
    return this.client.command({ type: 'setBindTarget', target: this.name, bind, value });
  }

  /**
   * The state machine's legacy inputs in file order, as the daemon lists them now
   * (`listTargets`, PROTOCOL.md §19): `[{name, type: 'number'|'boolean'|'trigger', value?}]`,
   * no value for a trigger; empty for a published instance.
   * @returns {Promise<Array<{name: string, type: string, value?: number|boolean}>>}
   */
  async inputs() {
    const info = (await this.client.listTargets()).find((t) => t.name === this.name);
    if (!info) throw new RiveSyncError('unknown_target', `no target '${this.name}'`, { target: this.name });
    return info.inputs ?? [];
  }

  /**
   * `advance` of a manual target, as Rive's `advance(by:)`: applies its queued commands, then
   * runs its state machine for `elapsed` seconds (0 to 60; PROTOCOL.md §8, §19). Resolves with
   * the reply, `{seq, settled}`: the target's seq after it, and whether the state machine needs
   * no further advance.
   * @param {number} [elapsed]
   * @returns {Promise<{type: 'advanced', target: string, seq: number, settled: boolean}>}
   */
  advance(elapsed = 0) {
    return this.client.request(elapsed > 0 ? { type: 'advance', target: this.name, elapsed } : { type: 'advance', target: this.name });
  }

  /**
   * Advances a manual target by `step` seconds until its state machine is settled (a first
   * advance of 0 s, as Rive's first `advance(by: 0)`); rejects with `not_settled` after `limit`
   * advances. Resolves with the last reply.
   * @param {number} [step]
   * @param {number} [limit]
   * @returns {Promise<{type: 'advanced', target: string, seq: number, settled: boolean}>}
   */
  async advanceUntilSettled(step = 1 / 60, limit = 600) {
    let reply = await this.advance(0);
    for (let i = 0; i < limit && !reply.settled; i++) reply = await this.advance(step);
    if (!reply.settled) throw new RiveSyncError('not_settled', `'${this.name}' did not settle in ${limit} advances`, { target: this.name });
    return reply;
  }

  /**
   * The instance bound in the main slot, as Rive's `ViewModelInstance`.
   * @returns {ViewModelInstance}
   */
  get viewModelInstance() {
    return new ViewModelInstance(this, { slot: 'main' });
  }

  /**
   * The instance bound in a global slot (`Theme`).
   * @param {string} name
   * @returns {ViewModelInstance}
   */
  globalInstance(name) {
    return new ViewModelInstance(this, { slot: name });
  }
}

/**
 * A view model instance of a target, with Rive's web runtime accessors: `number(path)`,
 * `string`, `boolean`, `color`, `enum`, `trigger`, `list`, `image`, `artboard`, `viewModel`,
 * `replaceViewModel`. A handle follows its slot (main, a global) or its instance id, so it
 * keeps addressing the same instance when lists move.
 */
export class ViewModelInstance {
  /** @param {Target} target @param {{slot?: string, id?: number}} anchor */
  constructor(target, anchor) {
    this.target = target;
    this.anchor = anchor;
  }

  /**
   * The instance id now (null if the slot is empty).
   * @returns {number|null}
   */
  get id() {
    if (this.anchor.id !== undefined) return this.anchor.id;
    return this.target.replica.instanceIn(this.anchor.slot);
  }

  /**
   * The view model's name.
   * @returns {string|null}
   */
  get viewModelName() {
    return this.target.replica.instances.get(this.id)?.viewModel ?? null;
  }

  /**
   * The authored instance's name ("" for blank instances).
   * @returns {string|null}
   */
  get name() {
    return this.target.replica.instances.get(this.id)?.name ?? null;
  }

  /** Property schemas of the view model, in order: `[{name, type, …}]`. */
  get properties() {
    return this.target.schema.viewModels.find((v) => v.name === this.viewModelName)?.properties ?? [];
  }

  /**
   * The target path of a property of this instance (`path` relative to it, its names escaped: `joinPath`).
   * @param {string} path
   * @returns {string}
   */
  pathTo(path) {
    if (this.anchor.slot !== undefined) {
      const prefix = this.anchor.slot === 'main' ? '' : '@' + escapeName(this.anchor.slot);
      return prefix === '' ? path : prefix + '/' + path;
    }
    const base = this.target.pathOf(this.anchor.id);
    if (base === null) throw new RiveSyncError('null_instance', `instance ${this.anchor.id} is not reachable`, { instance: this.anchor.id });
    return base === '' ? path : base + '/' + path;
  }

  /** @private */
  property(Kind, path, types) {
    const full = this.pathTo(path);
    const place = this.target.resolve(full);
    if (!types.includes(place.type)) {
      throw new RiveSyncError('type_mismatch', `'${path}' is a ${place.type}`, { path, expected: types[0], actual: place.type });
    }
    return new Kind(this, path, place.schema);
  }

  /**
   * The number property at `path` (`type_mismatch` if it is of another type).
   * @param {string} path
   * @returns {NumberProperty}
   */
  number(path) {
    return this.property(NumberProperty, path, ['number']);
  }

  /**
   * The string property at `path` (`type_mismatch` if it is of another type).
   * @param {string} path
   * @returns {ValueProperty}
   */
  string(path) {
    return this.property(ValueProperty, path, ['string']);
  }

  /**
   * The boolean property at `path` (`type_mismatch` if it is of another type).
   * @param {string} path
   * @returns {ValueProperty}
   */
  boolean(path) {
    return this.property(ValueProperty, path, ['boolean']);
  }

  /**
   * The color property at `path` (`type_mismatch` if it is of another type).
   * @param {string} path
   * @returns {ColorProperty}
   */
  color(path) {
    return this.property(ColorProperty, path, ['color']);
  }

  /**
   * The enum property at `path` (`type_mismatch` if it is of another type).
   * @param {string} path
   * @returns {EnumProperty}
   */
  enum(path) {
    return this.property(EnumProperty, path, ['enum']);
  }

  /**
   * The trigger property at `path` (`type_mismatch` if it is of another type).
   * @param {string} path
   * @returns {TriggerProperty}
   */
  trigger(path) {
    return this.property(TriggerProperty, path, ['trigger']);
  }

  /**
   * The list property at `path` (`type_mismatch` if it is of another type).
   * @param {string} path
   * @returns {ListProperty}
   */
  list(path) {
    return this.property(ListProperty, path, ['list']);
  }

  /**
   * The image property at `path` (`type_mismatch` if it is of another type).
   * @param {string} path
   * @returns {ValueProperty}
   */
  image(path) {
    return this.property(ValueProperty, path, ['assetImage']);
  }

  /**
   * The artboard property at `path` (`type_mismatch` if it is of another type).
   * @param {string} path
   * @returns {ValueProperty}
   */
  artboard(path) {
    return this.property(ValueProperty, path, ['artboard']);
  }

  /**
   * The nested instance at `path`, or null.
   * @param {string} path
   * @returns {ViewModelInstance|null}
   */
  viewModel(path) {
    const value = this.target.value(this.pathTo(path));
    return value ? new ViewModelInstance(this.target, { id: value.instance }) : null;
  }

  /**
   * Replaces the nested instance at `path` (Rive's `replaceViewModel`); resolves with the ack.
   * @param {string} path
   * @param {InstanceReference} instance
   * @returns {Promise<Ack>}
   */
  replaceViewModel(path, instance) {
    return this.target.set(this.pathTo(path), { instance: instanceId(instance) });
  }
}

/** An instance id from a handle, a `createInstance` reply or a number. */
function instanceId(instance) {
  if (typeof instance === 'number') return instance;
  if (instance instanceof ViewModelInstance) return instance.id;
  return instance.instance ?? instance.id;
}

/** A property of an instance: `.value` (read from the replica; assigning writes), `.on`, `.set`. */
export class ValueProperty {
  /**
   * @param {ViewModelInstance} owner
   * @param {string} path relative to `owner`
   * @param {{name: string, type: string, enum?: string}} schema the property's schema
   */
  constructor(owner, path, schema) {
    this.owner = owner;
    this.path = path;
    this.schema = schema;
    this.callbacks = new Map();
  }

  /**
   * The property's name.
   * @returns {string}
   */
  get name() {
    return this.schema.name;
  }

  /** The current value in its JSON form (as of the last batch). */
  get value() {
    return this.owner.target.value(this.owner.pathTo(this.path));
  }

  /** Writes the value; a failure goes to the client's `error` listeners. Use `set` to await. */
  set value(value) {
    this.set(value).catch((error) => this.owner.target.client.emit('error', error));
  }

  /**
   * Writes the value and resolves with the ack, or rejects with the `RiveSyncError`.
   * @param {any} value
   * @returns {Promise<Ack>}
   */
  set(value) {
    return this.owner.target.set(this.owner.pathTo(this.path), value);
  }

  /**
   * Calls `callback(value)` after each batch that changes the value.
   * @param {(value: any) => void} callback
   * @returns {this}
   */
  on(callback) {
    let first = true;
    const stop = this.owner.target.watch(() => this.owner.pathTo(this.path), (value) => {
      if (first) first = false;
      else callback(value);
    });
    this.callbacks.set(callback, stop);
    return this;
  }

  /**
   * Removes a callback added with `on` (or all of them without an argument).
   * @param {(value: any) => void} [callback]
   * @returns {this}
   */
  off(callback) {
    for (const [added, stop] of this.callbacks) {
      if (callback === undefined || added === callback) {
        stop();
        this.callbacks.delete(added);
      }
    }
    return this;
  }
}

/** A number property. */
export class NumberProperty extends ValueProperty {}

/** A color property: `.value` is ARGB as an integer, as in Rive's web runtime. */
export class ColorProperty extends ValueProperty {
  get value() {
    return parseColor(super.value);
  }

  set value(argb) {
    this.set(argb).catch((error) => this.owner.target.client.emit('error', error));
  }

  /**
   * Writes the colour: ARGB as an integer, or a `#AARRGGBB` string.
   * @param {number|string} value
   * @returns {Promise<Ack>}
   */
  set(value) {
    return super.set(typeof value === 'number' ? formatColor(value) : value);
  }

  /**
   * Sets red, green and blue (0–255), keeping alpha.
   * @param {number} r
   * @param {number} g
   * @param {number} b
   * @returns {Promise<Ack>}
   */
  rgb(r, g, b) {
    return this.argb((this.value >>> 24) & 0xff, r, g, b);
  }

  /**
   * Sets alpha, red, green and blue (0–255).
   * @param {number} a
   * @param {number} r
   * @param {number} g
   * @param {number} b
   * @returns {Promise<Ack>}
   */
  argb(a, r, g, b) {
    return this.set((((a & 0xff) << 24) | ((r & 0xff) << 16) | ((g & 0xff) << 8) | (b & 0xff)) >>> 0);
  }

  /**
   * Sets alpha (0–255), keeping the colour.
   * @param {number} a
   * @returns {Promise<Ack>}
   */
  alpha(a) {
    return this.set((((a & 0xff) << 24) | (this.value & 0xffffff)) >>> 0);
  }
}

/** An enum property: `.values` lists the allowed names. */
export class EnumProperty extends ValueProperty {
  /** @returns {string[]} */
  get values() {
    return this.owner.target.replica.enumValues(this.schema.enum);
  }
}

/** A trigger: `.trigger()` fires it; `.value` is its fire count; `.on` is called per batch that fires it. */
export class TriggerProperty extends ValueProperty {
  /**
   * Fires; resolves with the ack.
   * @returns {Promise<Ack>}
   */
  trigger() {
    return this.owner.target.fire(this.owner.pathTo(this.path));
  }
}

/** A list of instances, with Rive's list calls. Each edit resolves with the ack. */
export class ListProperty extends ValueProperty {
  /** @returns {number} the number of items */
  get length() {
    return this.value.length;
  }

  /**
   * The item at `index` as a `ViewModelInstance`, or null.
   * @param {number} index
   * @returns {ViewModelInstance|null}
   */
  instanceAt(index) {
    const id = this.value[index];
    return id === undefined ? null : new ViewModelInstance(this.owner.target, { id });
  }

  /**
   * Appends `instance` (Rive's `addInstance`).
   * @param {InstanceReference} instance
   * @returns {Promise<Ack>}
   */
  addInstance(instance) {
    return this.owner.target.listAppend(this.owner.pathTo(this.path), instanceId(instance));
  }

  /**
   * Inserts `instance` at `index`.
   * @param {InstanceReference} instance
   * @param {number} index
   * @returns {Promise<Ack>}
   */
  addInstanceAt(instance, index) {
    return this.owner.target.listInsert(this.owner.pathTo(this.path), index, instanceId(instance));
  }

  /**
   * Removes every occurrence of `instance`.
   * @param {InstanceReference} instance
   * @returns {Promise<Ack>}
   */
  removeInstance(instance) {
    return this.owner.target.listRemove(this.owner.pathTo(this.path), instanceId(instance));
  }

  /**
   * Removes the item at `index`.
   * @param {number} index
   * @returns {Promise<Ack>}
   */
  removeInstanceAt(index) {
    return this.owner.target.listRemoveAt(this.owner.pathTo(this.path), index);
  }

  /**
   * Swaps the items at `a` and `b`.
   * @param {number} a
   * @param {number} b
   * @returns {Promise<Ack>}
   */
  swap(a, b) {
    return this.owner.target.listSwap(this.owner.pathTo(this.path), a, b);
  }
}
