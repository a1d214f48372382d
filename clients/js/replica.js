// RiveSync replica: one target's state, kept by applying its batches in order (PROTOCOL.md §7),
// with the daemon's state digest (PROTOCOL.md §8 `digest`, `StateDigest` in RiveSyncModel).
// Plain ES module, no dependencies; the digest uses WebCrypto (browsers, Node 18+).

/**
 * @typedef {{id: number, viewModel: string, name: string, values: Object<string, any>}} InstanceState
 *   An instance state as the protocol sends it: values in their JSON forms (PROTOCOL.md §4).
 * @typedef {{slot: string, instance: (number|null)}} Binding
 * @typedef {{name: string, type: string, enum?: string, viewModel?: string}} PropertySchema
 * @typedef {{viewModels: Array<{name: string, properties: PropertySchema[]}>,
 *            enums?: Array<{name: string, values: string[]}>}} FileSchema
 *   A file's schema in the SCHEMA.md shape (the `describe` reply's `schema`).
 * @typedef {{op: 'set'|'fire'|'listInsert'|'listRemove'|'listSwap'|'bind', instance: number,
 *            property?: string, value?: unknown, index?: number, with?: number, item?: number,
 *            slot?: string, by?: 'stateMachine', introduced?: InstanceState[]}} Effect
 *   One change of a batch (PROTOCOL.md §7): `value` of a `set` in its JSON form, `item` an
 *   inserted list item's instance, `slot` of a `bind`; `introduced` instances it brings in.
 * @typedef {{type?: 'batch', target: string, seq: number, effects: Effect[]}} Batch
 *   A `batch` message: one advance's changes of a target, in order.
 * @typedef {{target: string, seq: number, epoch?: string, bindings: Binding[],
 *            instances: InstanceState[]}} Snapshot
 *   A whole-target `snapshot` message.
 */

/** Why a replica could not apply a batch: it has diverged or skipped one and must resubscribe. */
export class ReplicaError extends Error {
  /**
   * @param {string} kind `outOfOrder`, `wrongTarget`, `unknownInstance` or `invalidChange`
   * @param {string} message
   */
  constructor(kind, message) {
    super(message);
    this.name = 'ReplicaError';
    /** @type {string} */
    this.kind = kind;
  }
}

/**
 * Reads `#AARRGGBB`, `#RRGGBB` (alpha FF) or an ARGB integer; null if it is none of them.
 * @param {unknown} value
 * @returns {number|null}
 */
export function parseColor(value) {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value <= 0xffffffff ? value : null;
  if (typeof value !== 'string' || !/^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(value)) return null;
  const hex = value.length === 7 ? 'FF' + value.slice(1) : value.slice(1);
  return parseInt(hex, 16) >>> 0;
}

/**
 * The `#AARRGGBB` form of an ARGB integer (upper-case, as the daemon writes it).
 * @param {number} argb
 * @returns {string}
 */
export function formatColor(argb) {
  return '#' + (argb >>> 0).toString(16).toUpperCase().padStart(8, '0');
}

/**
 * One name as a path segment (PROTOCOL.md §4): Rive allows `/` and `~` in names, so each name
 * in a path is escaped as in a JSON Pointer: `~` → `~0`, then `/` → `~1` (`BG On/Off` →
 * `BG On~1Off`). A name with neither is unchanged.
 * @param {string} name
 * @returns {string}
 */
export function escapeName(name) {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * The name a path segment writes (the reverse of `escapeName`); null when a `~` is followed by
 * anything but `0` or `1` (the daemon answers such a path `invalid_path`).
 * @param {string} segment
 * @returns {string|null}
 */
export function unescapeName(segment) {
  if (!segment.includes('~')) return segment;
  if (/~(?![01])/.test(segment)) return null;
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * A path from names (escaped) and list indices (numbers): `joinPath('players', 0, 'x/y')` is
 * `players/0/x~1y`. Start it at a global slot with `{slot: 'Theme'}` (`@Theme/…`) or an
 * instance with `{instance: 17}` (`#17/…`) as the first argument.
 * @param {...(string|number|{slot?: string, instance?: number})} parts
 * @returns {string}
 */
export function joinPath(...parts) {
  return parts
    .map((part) => {
      if (typeof part === 'number') return String(part);
      if (typeof part === 'string') return escapeName(part);
      return part.slot !== undefined ? '@' + escapeName(part.slot) : '#' + part.instance;
    })
    .join('/');
}

/** Compares strings by Unicode code point (the order of their UTF-8 bytes): the digest's key order (PROTOCOL.md §7). */
function compareNames(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** The instances a value points at (a nested instance, list items). */
function childrenOf(value, type) {
  if (type === 'viewModel') return value && typeof value.instance === 'number' ? [value.instance] : [];
  if (type === 'list') return Array.isArray(value) ? value : [];
  return [];
}

/**
 * A copy of one target's state: the bindings and every instance state the target can reach,
 * updated by `apply(batch)` with the same rules as the daemon's `ChangeApplier`, so that after
 * the same batches `digest()` equals the daemon's `digest` reply.
 */
export class Replica {
  /**
   * @param {Snapshot} snapshot a whole-target `snapshot` message
   * @param {FileSchema} schema the target's file schema (types every value)
   */
  constructor(snapshot, schema) {
    /** @type {string} */
    this.target = snapshot.target;
    /** @type {string|undefined} the epoch of the snapshot (for resume cursors) */
    this.epoch = snapshot.epoch;
    /** @type {number} the seq of the last batch applied (or of the snapshot) */
    this.seq = snapshot.seq;
    /** @type {Binding[]} */
    this.bindings = snapshot.bindings.map((b) => ({ slot: b.slot, instance: b.instance ?? null }));
    /** @type {Map<number, InstanceState>} */
    this.instances = new Map();
    /** @private @type {Map<string, Map<string, PropertySchema>>} */
    this.types = new Map();
    for (const viewModel of schema.viewModels) {
      this.types.set(viewModel.name, new Map(viewModel.properties.map((p) => [p.name, p])));
    }
    /** @type {FileSchema} */
    this.schema = schema;
    for (const state of snapshot.instances) this.instances.set(state.id, this.checked(state));
  }

  /**
   * The schema of a property of a view model, or undefined.
   * @param {string} viewModel
   * @param {string} name
   * @returns {PropertySchema|undefined}
   */
  property(viewModel, name) {
    return this.types.get(viewModel)?.get(name);
  }

  /**
   * The enum's value names, or [].
   * @param {string} name
   * @returns {string[]}
   */
  enumValues(name) {
    return this.schema.enums?.find((e) => e.name === name)?.values ?? [];
  }

  /**
   * A copy of `state` whose every value has a property in the schema.
   * @private
   * @param {InstanceState} state
   * @returns {InstanceState}
   */
  checked(state) {
    const properties = this.types.get(state.viewModel);
    if (!properties) throw new ReplicaError('invalidChange', `unknown view model '${state.viewModel}'`);
    for (const key of Object.keys(state.values)) {
      if (!properties.has(key)) throw new ReplicaError('invalidChange', `${state.viewModel} has no property '${key}'`);
    }
    return { id: state.id, viewModel: state.viewModel, name: state.name, values: { ...state.values } };
  }

  /**
   * The instance bound in `slot` (`main` or a global view model's name), or null.
   * @param {string} slot
   * @returns {number|null}
   */
  instanceIn(slot) {
    return this.bindings.find((b) => b.slot === slot)?.instance ?? null;
  }

  /**
   * Applies the next batch (a `batch` message). A batch with the wrong target or seq, or one
   * that does not fit, leaves the replica unchanged and throws a `ReplicaError`.
   * @param {Batch} batch
   * @returns {void}
   */
  apply(batch) {
    if (batch.target !== this.target) {
      throw new ReplicaError('wrongTarget', `batch of '${batch.target}' for a replica of '${this.target}'`);
    }
    if (batch.seq !== this.seq + 1) {
      throw new ReplicaError('outOfOrder', `expected seq ${this.seq + 1}, received ${batch.seq}`);
    }
    const instances = new Map(this.instances);
    const bindings = this.bindings.map((b) => ({ ...b }));
    for (const effect of batch.effects) this.applyEffect(effect, instances, bindings);
    this.instances = instances;
    this.bindings = bindings;
    this.seq = batch.seq;
  }

  /**
   * @private
   * @param {Effect} effect
   * @param {Map<number, InstanceState>} instances
   * @param {Binding[]} bindings
   * @returns {void}
   */
  applyEffect(effect, instances, bindings) {
    for (const state of effect.introduced ?? []) instances.set(state.id, this.checked(state));
    const write = (id, property, value) => {
      const old = instances.get(id);
      instances.set(id, { ...old, values: { ...old.values, [property]: value } });
    };
    const current = (id, property) => {
      const state = instances.get(id);
      if (!state) throw new ReplicaError('unknownInstance', `no instance ${id}`);
      if (!(property in state.values)) throw new ReplicaError('invalidChange', `${id} has no property '${property}'`);
      return state.values[property];
    };
    const list = (id, property) => {
      const items = current(id, property);
      if (!Array.isArray(items)) throw new ReplicaError('invalidChange', `${id}.${property} is not a list`);
      return [...items];
    };
    const { instance: id, property, index } = effect;
    switch (effect.op) {
      case 'set':
        current(id, property);
        write(id, property, effect.value);
        break;
      case 'fire': {
        const count = current(id, property);
        if (typeof count !== 'number') throw new ReplicaError('invalidChange', `${id}.${property} is not a trigger`);
        write(id, property, count + 1);
        break;
      }
      case 'listInsert': {
        const items = list(id, property);
        if (!(index >= 0 && index <= items.length)) {
          throw new ReplicaError('invalidChange', `insert at ${index} of ${items.length}`);
        }
        items.splice(index, 0, effect.item);
        write(id, property, items);
        break;
      }
      case 'listRemove': {
        const items = list(id, property);
        if (!(index >= 0 && index < items.length)) {
          throw new ReplicaError('invalidChange', `remove at ${index} of ${items.length}`);
        }
        items.splice(index, 1);
        write(id, property, items);
        break;
      }
      case 'listSwap': {
        const items = list(id, property);
        const other = effect.with;
        if (!(index >= 0 && index < items.length && other >= 0 && other < items.length)) {
          throw new ReplicaError('invalidChange', `swap ${index} and ${other} of ${items.length}`);
        }
        [items[index], items[other]] = [items[other], items[index]];
        write(id, property, items);
        break;
      }
      case 'bind': {
        if (!instances.has(id)) throw new ReplicaError('unknownInstance', `no instance ${id}`);
        const at = bindings.findIndex((b) => b.slot === effect.slot);
        if (at >= 0) bindings[at].instance = id;
        else bindings.push({ slot: effect.slot, instance: id });
        break;
      }
      default:
        throw new ReplicaError('invalidChange', `unknown effect op '${effect.op}'`);
    }
  }

  /**
   * Every instance reachable from `roots` (including them), each once, in visit order.
   * @param {Iterable<number>} roots
   * @returns {number[]}
   */
  closure(roots) {
    const seen = new Set();
    const order = [];
    const stack = [...roots].reverse();
    while (stack.length > 0) {
      const id = stack.pop();
      const state = this.instances.get(id);
      if (seen.has(id) || !state) continue;
      seen.add(id);
      order.push(id);
      stack.push(...this.children(state).reverse());
    }
    return order;
  }

  /**
   * The instances `state` points at, in property-name order, list items in order.
   * @private
   * @param {InstanceState} state
   * @returns {number[]}
   */
  children(state) {
    const result = [];
    for (const key of Object.keys(state.values).sort(compareNames)) {
      result.push(...childrenOf(state.values[key], this.property(state.viewModel, key)?.type));
    }
    return result;
  }

  /**
   * The canonical bytes of the state (the same as `StateDigest.canonicalBytes`).
   * @returns {Uint8Array}
   */
  canonicalBytes() {
    const out = new ByteWriter();
    for (const binding of this.bindings) {
      out.text(binding.slot);
      out.u64(binding.instance ?? 0);
    }
    const reachable = this.closure(this.bindings.filter((b) => b.instance !== null).map((b) => b.instance));
    for (const id of reachable.sort((a, b) => a - b)) {
      const state = this.instances.get(id);
      out.u64(id);
      out.text(state.viewModel);
      out.text(state.name);
      for (const key of Object.keys(state.values).sort(compareNames)) {
        out.text(key);
        putValue(out, state.values[key], this.property(state.viewModel, key).type);
      }
    }
    return out.bytes();
  }

  /**
   * SHA-256 of the canonical bytes, lower-case hex: equal to the daemon's `digest` at this seq.
   * @returns {Promise<string>}
   */
  async digest() {
    // Browsers and Node 19+ have WebCrypto as `crypto`; Node 18 has it in node:crypto.
    const subtle = globalThis.crypto?.subtle ?? (await import('node:crypto')).webcrypto.subtle;
    const hash = await subtle.digest('SHA-256', this.canonicalBytes());
    return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, '0')).join('');
  }
}

/** Big-endian bytes, growing. */
class ByteWriter {
  constructor() {
    this.buffer = new Uint8Array(256);
    this.length = 0;
    this.view = new DataView(this.buffer.buffer);
  }

  reserve(n) {
    if (this.length + n <= this.buffer.length) return;
    const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    bigger.set(this.buffer.subarray(0, this.length));
    this.buffer = bigger;
    this.view = new DataView(bigger.buffer);
  }

  byte(b) {
    this.reserve(1);
    this.buffer[this.length++] = b;
  }

  u64(n) {
    this.reserve(8);
    this.view.setBigUint64(this.length, BigInt(n));
    this.length += 8;
  }

  text(s) {
    const utf8 = new TextEncoder().encode(s);
    this.u64(utf8.length);
    this.reserve(utf8.length);
    this.buffer.set(utf8, this.length);
    this.length += utf8.length;
  }

  bytes() {
    return this.buffer.slice(0, this.length);
  }
}

const float32 = new DataView(new ArrayBuffer(4));

/** One value in the digest's binary form, by its property type. */
function putValue(out, value, type) {
  switch (type) {
    case 'number':
      out.byte(1);
      float32.setFloat32(0, value);
      out.u64(float32.getUint32(0));
      break;
    case 'string':
      out.byte(2);
      out.text(value);
      break;
    case 'boolean':
      out.byte(value ? 4 : 3);
      break;
    case 'color':
      out.byte(5);
      out.u64(parseColor(value) ?? 0);
      break;
    case 'enum':
      out.byte(6);
      out.text(value);
      break;
    case 'trigger':
      out.byte(7);
      out.u64(value);
      break;
    case 'viewModel':
      out.byte(8);
      out.u64(value?.instance ?? 0);
      break;
    case 'list':
      out.byte(9);
      out.u64(value.length);
      for (const item of value) out.u64(item);
      break;
    case 'assetImage':
    case 'assetFont':
    case 'assetBlob':
      out.byte(10);
      out.text(value?.id ?? '');
      out.u64(value?.bytes ?? 0);
      out.text(value?.mediaType ?? '');
      break;
    case 'artboard':
      out.byte(11);
      out.text(value ?? '');
      out.byte(value === null || value === undefined ? 0 : 1);
      break;
    case 'symbolListIndex':
      out.byte(12);
      out.u64(value);
      break;
    default:
      throw new ReplicaError('invalidChange', `unknown property type '${type}'`);
  }
}
