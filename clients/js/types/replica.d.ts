/**
 * Reads `#AARRGGBB`, `#RRGGBB` (alpha FF) or an ARGB integer; null if it is none of them.
 * @param {unknown} value
 * @returns {number|null}
 */
export function parseColor(value: unknown): number | null;
/**
 * The `#AARRGGBB` form of an ARGB integer (upper-case, as the daemon writes it).
 * @param {number} argb
 * @returns {string}
 */
export function formatColor(argb: number): string;
/**
 * One name as a path segment (PROTOCOL.md §4): Rive allows `/` and `~` in names, so each name
 * in a path is escaped as in a JSON Pointer: `~` → `~0`, then `/` → `~1` (`BG On/Off` →
 * `BG On~1Off`). A name with neither is unchanged.
 * @param {string} name
 * @returns {string}
 */
export function escapeName(name: string): string;
/**
 * The name a path segment writes (the reverse of `escapeName`); null when a `~` is followed by
 * anything but `0` or `1` (the daemon answers such a path `invalid_path`).
 * @param {string} segment
 * @returns {string|null}
 */
export function unescapeName(segment: string): string | null;
/**
 * A path from names (escaped) and list indices (numbers): `joinPath('players', 0, 'x/y')` is
 * `players/0/x~1y`. Start it at a global slot with `{slot: 'Theme'}` (`@Theme/…`) or an
 * instance with `{instance: 17}` (`#17/…`) as the first argument.
 * @param {...(string|number|{slot?: string, instance?: number})} parts
 * @returns {string}
 */
export function joinPath(...parts: (string | number | {
    slot?: string;
    instance?: number;
})[]): string;
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
    constructor(kind: string, message: string);
    /** @type {string} */
    kind: string;
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
    constructor(snapshot: Snapshot, schema: FileSchema);
    /** @type {string} */
    target: string;
    /** @type {string|undefined} the epoch of the snapshot (for resume cursors) */
    epoch: string | undefined;
    /** @type {number} the seq of the last batch applied (or of the snapshot) */
    seq: number;
    /** @type {Binding[]} */
    bindings: Binding[];
    /** @type {Map<number, InstanceState>} */
    instances: Map<number, InstanceState>;
    /** @private @type {Map<string, Map<string, PropertySchema>>} */
    private types;
    /** @type {FileSchema} */
    schema: FileSchema;
    /**
     * The schema of a property of a view model, or undefined.
     * @param {string} viewModel
     * @param {string} name
     * @returns {PropertySchema|undefined}
     */
    property(viewModel: string, name: string): PropertySchema | undefined;
    /**
     * The enum's value names, or [].
     * @param {string} name
     * @returns {string[]}
     */
    enumValues(name: string): string[];
    /**
     * A copy of `state` whose every value has a property in the schema.
     * @private
     * @param {InstanceState} state
     * @returns {InstanceState}
     */
    private checked;
    /**
     * The instance bound in `slot` (`main` or a global view model's name), or null.
     * @param {string} slot
     * @returns {number|null}
     */
    instanceIn(slot: string): number | null;
    /**
     * Applies the next batch (a `batch` message). A batch with the wrong target or seq, or one
     * that does not fit, leaves the replica unchanged and throws a `ReplicaError`.
     * @param {Batch} batch
     * @returns {void}
     */
    apply(batch: Batch): void;
    /**
     * @private
     * @param {Effect} effect
     * @param {Map<number, InstanceState>} instances
     * @param {Binding[]} bindings
     * @returns {void}
     */
    private applyEffect;
    /**
     * Every instance reachable from `roots` (including them), each once, in visit order.
     * @param {Iterable<number>} roots
     * @returns {number[]}
     */
    closure(roots: Iterable<number>): number[];
    /**
     * The instances `state` points at, in property-name order, list items in order.
     * @private
     * @param {InstanceState} state
     * @returns {number[]}
     */
    private children;
    /**
     * The canonical bytes of the state (the same as `StateDigest.canonicalBytes`).
     * @returns {Uint8Array}
     */
    canonicalBytes(): Uint8Array;
    /**
     * SHA-256 of the canonical bytes, lower-case hex: equal to the daemon's `digest` at this seq.
     * @returns {Promise<string>}
     */
    digest(): Promise<string>;
}
/**
 * An instance state as the protocol sends it: values in their JSON forms (PROTOCOL.md §4).
 */
export type InstanceState = {
    id: number;
    viewModel: string;
    name: string;
    values: {
        [x: string]: any;
    };
};
export type Binding = {
    slot: string;
    instance: (number | null);
};
export type PropertySchema = {
    name: string;
    type: string;
    enum?: string;
    viewModel?: string;
};
/**
 * A file's schema in the SCHEMA.md shape (the `describe` reply's `schema`).
 */
export type FileSchema = {
    viewModels: Array<{
        name: string;
        properties: PropertySchema[];
    }>;
    enums?: Array<{
        name: string;
        values: string[];
    }>;
};
/**
 * One change of a batch (PROTOCOL.md §7): `value` of a `set` in its JSON form, `item` an
 * inserted list item's instance, `slot` of a `bind`; `introduced` instances it brings in.
 */
export type Effect = {
    op: 'set' | 'fire' | 'listInsert' | 'listRemove' | 'listSwap' | 'bind';
    instance: number;
    property?: string;
    value?: unknown;
    index?: number;
    with?: number;
    item?: number;
    slot?: string;
    by?: 'stateMachine';
    introduced?: InstanceState[];
};
/**
 * A `batch` message: one advance's changes of a target, in order.
 */
export type Batch = {
    type?: 'batch';
    target: string;
    seq: number;
    effects: Effect[];
};
/**
 * A whole-target `snapshot` message.
 */
export type Snapshot = {
    target: string;
    seq: number;
    epoch?: string;
    bindings: Binding[];
    instances: InstanceState[];
};
