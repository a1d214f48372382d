/** Reads `#AARRGGBB`, `#RRGGBB` (alpha FF) or an ARGB integer; null if it is none of them. */
export function parseColor(value: any): number;
/** The `#AARRGGBB` form of an ARGB integer (upper-case, as the daemon writes it). */
export function formatColor(argb: any): string;
/**
 * One name as a path segment (PROTOCOL.md §4): Rive allows `/` and `~` in names, so each name
 * in a path is escaped as in a JSON Pointer: `~` → `~0`, then `/` → `~1` (`BG On/Off` →
 * `BG On~1Off`). A name with neither is unchanged.
 * @param {string} name
 */
export function escapeName(name: string): string;
/**
 * The name a path segment writes (the reverse of `escapeName`); null when a `~` is followed by
 * anything but `0` or `1` (the daemon answers such a path `invalid_path`).
 * @param {string} segment
 */
export function unescapeName(segment: string): string;
/**
 * A path from names (escaped) and list indices (numbers): `joinPath('players', 0, 'x/y')` is
 * `players/0/x~1y`. Start it at a global slot with `{slot: 'Theme'}` (`@Theme/…`) or an
 * instance with `{instance: 17}` (`#17/…`) as the first argument.
 * @param {...(string|number|{slot?: string, instance?: number})} parts
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
     * @param {{target: string, seq: number, bindings: Binding[], instances: InstanceState[]}} snapshot
     *   a whole-target `snapshot` message
     * @param {FileSchema} schema the target's file schema (types every value)
     */
    constructor(snapshot: {
        target: string;
        seq: number;
        bindings: Binding[];
        instances: InstanceState[];
    }, schema: FileSchema);
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
    /** @private */
    private types;
    schema: FileSchema;
    /** The schema of a property of a view model, or undefined. */
    property(viewModel: any, name: any): any;
    /** The enum's value names, or []. */
    enumValues(name: any): string[];
    /** @private A copy of `state` whose every value has a property in the schema. */
    private checked;
    /** The instance bound in `slot` (`main` or a global view model's name), or null. */
    instanceIn(slot: any): number;
    /**
     * Applies the next batch (a `batch` message). A batch with the wrong target or seq, or one
     * that does not fit, leaves the replica unchanged and throws a `ReplicaError`.
     */
    apply(batch: any): void;
    /** @private */
    private applyEffect;
    /** Every instance reachable from `roots` (including them), each once, in visit order. */
    closure(roots: any): any[];
    /** @private The instances `state` points at, in property-name order, list items in order. */
    private children;
    /** The canonical bytes of the state (the same as `StateDigest.canonicalBytes`). */
    canonicalBytes(): Uint8Array;
    /** SHA-256 of the canonical bytes, lower-case hex: equal to the daemon's `digest` at this seq. */
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
