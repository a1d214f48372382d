/**
 * Who made an effect of a batch (PROTOCOL.md §7, §19): `'stateMachine'` for a change the
 * target's state machine made (a listener, a data bind, a converter, a transition), `'command'`
 * for a client's write.
 * @param {{by?: string}} effect
 * @returns {'stateMachine'|'command'}
 */
export function origin(effect: {
    by?: string;
}): 'stateMachine' | 'command';
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
    constructor(code: string, message: string, details?: {
        [x: string]: any;
    });
    /** @type {string} */
    code: string;
    /** @type {Object<string, any>} */
    details: {
        [x: string]: any;
    };
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
    static connect(url: string, options?: ConnectOptions): Promise<RiveSync>;
    /** @private */
    private constructor();
    /** @type {string} the daemon's URL */
    url: string;
    /** @private */
    private options;
    /** @private */
    private WebSocket;
    /** @type {ConnectionState} */
    state: ConnectionState;
    /** @type {any} the daemon's `welcome` */
    welcome: any;
    /** @private */
    private nextId;
    /** @private */
    private pending;
    /** @type {Map<string, Target>} */
    targets: Map<string, Target>;
    /** @private */
    private schemas;
    /** @private */
    private listeners;
    /** @private */
    private closedByUser;
    /**
     * Adds a listener: `state` (ConnectionState), `message` (every message received), `error`
     * (a RiveSyncError no caller awaited, e.g. of a `value =` setter).
     * @param {'state'|'message'|'error'} event
     * @param {Function} callback
     */
    on(event: 'state' | 'message' | 'error', callback: Function): RiveSync;
    /**
     * Removes a listener added with `on`.
     * @param {'state'|'message'|'error'} event
     * @param {Function} callback
     * @returns {RiveSync}
     */
    off(event: 'state' | 'message' | 'error', callback: Function): RiveSync;
    /** @private */
    private emit;
    /** @private */
    private setState;
    /** @private Opens the socket and says hello; rejects if either fails. */
    private open;
    socket: any;
    /** @private Rejects every request waiting for a reply. */
    private failPending;
    /**
     * @private The welcomed socket closed: fail what waits, then start the one reconnect loop
     * unless closed by the user.
     */
    private lost;
    /** @private */
    private reconnect;
    /** Closes the connection (1000); pending requests fail with `closed`; no reconnect. */
    close(): void;
    /** @private */
    private receive;
    /**
     * Sends a request and resolves with its reply, or rejects with a `RiveSyncError` (the
     * daemon's `error`, or `connection_lost`). An `id` is assigned.
     * @param {Object} message a request of PROTOCOL.md without `id`
     * @returns {Promise<any>}
     */
    request(message: any): Promise<any>;
    /** @returns {Promise<Array<{name: string, worker: number, source: string}>>} */
    listFiles(): Promise<Array<{
        name: string;
        worker: number;
        source: string;
    }>>;
    /**
     * The file's schema (SCHEMA.md shape), fetched once per connection lineage.
     * @param {string} file
     * @returns {Promise<Object>}
     */
    describe(file: string): Promise<any>;
    /**
     * The targets this connection may see (`listTargets`), every page: a reply with `next`
     * is followed by a request for the targets `after` it.
     * @returns {Promise<Array<Object>>}
     */
    listTargets(): Promise<Array<any>>;
    /**
     * The names of the file's view models.
     * @param {string} file
     * @returns {Promise<string[]>}
     */
    viewModelNames(file: string): Promise<string[]>;
    /**
     * The names of the view models bound as globals (`Theme`).
     * @param {string} file
     * @returns {Promise<string[]>}
     */
    globalViewModelNames(file: string): Promise<string[]>;
    /**
     * The names of the instances authored for `viewModel`.
     * @param {string} file
     * @param {string} viewModel
     * @returns {Promise<string[]>}
     */
    instanceNames(file: string, viewModel: string): Promise<string[]>;
    /**
     * The properties of `viewModel`, in order.
     * @param {string} file
     * @param {string} viewModel
     * @returns {Promise<Array<{name: string, type: string, metaData: string}>>}
     */
    properties(file: string, viewModel: string): Promise<Array<{
        name: string;
        type: string;
        metaData: string;
    }>>;
    /**
     * The default view model and instance of `artboard` (default: the default artboard).
     * @param {string} file
     * @param {string} [artboard]
     * @returns {Promise<{viewModel: string, instance: string}>}
     */
    defaultViewModelInfo(file: string, artboard?: string): Promise<{
        viewModel: string;
        instance: string;
    }>;
    /**
     * The file's enums.
     * @param {string} file
     * @returns {Promise<Array<{name: string, values: string[]}>>}
     */
    enums(file: string): Promise<Array<{
        name: string;
        values: string[];
    }>>;
    /**
     * The names of the file's artboards.
     * @param {string} file
     * @returns {Promise<string[]>}
     */
    artboardNames(file: string): Promise<string[]>;
    /**
     * The names of the state machines of `artboard` (default: the default artboard).
     * @param {string} file
     * @param {string} [artboard]
     * @returns {Promise<string[]>}
     */
    stateMachineNames(file: string, artboard?: string): Promise<string[]>;
    /**
     * Creates an instance. `source`: `{viewModel, name}` (authored by name), `{viewModel, index}`,
     * `{viewModel, blank: true}` or `{viewModel}` (the default). `publish`: also share it as a
     * target of that name.
     * @param {string} file
     * @param {{viewModel: string, name?: string, index?: number, blank?: boolean}} source
     * @param {string} [publish]
     * @returns {Promise<{instance: number, viewModel: string, name: string}>}
     */
    createInstance(file: string, source: {
        viewModel: string;
        name?: string;
        index?: number;
        blank?: boolean;
    }, publish?: string): Promise<{
        instance: number;
        viewModel: string;
        name: string;
    }>;
    /**
     * Creates a state machine target (fields of PROTOCOL.md §6 `createStateMachine`).
     * @param {Object} fields
     * @returns {Promise<Object>}
     */
    createStateMachine(fields: any): Promise<any>;
    /**
     * Publishes the instance `instance` (an id) as the target `name`.
     * @param {number} instance
     * @param {string} name
     * @returns {Promise<Object>}
     */
    publish(instance: number, name: string): Promise<any>;
    /**
     * Deletes a target; the reply lists the instances freed with it (`freed`).
     * @param {string} target
     * @returns {Promise<Object>}
     */
    deleteTarget(target: string): Promise<any>;
    /**
     * Uploads image, font or blob bytes; resolves with the asset value to `set`.
     * @param {'image'|'font'|'blob'} kind
     * @param {Uint8Array} bytes
     * @param {string} [mediaType]
     * @returns {Promise<{id: string, bytes: number, mediaType: string}>}
     */
    upload(kind: 'image' | 'font' | 'blob', bytes: Uint8Array, mediaType?: string): Promise<{
        id: string;
        bytes: number;
        mediaType: string;
    }>;
    /**
     * Loads a file at run time: `{schema}` (a SCHEMA.md object) or `{riv}` (the `.riv` bytes).
     * A `.riv` file whose base64 would not fit in the daemon's `maxMessageBytes` goes in parts
     * (PROTOCOL.md §9). Resolves with the new file list.
     * @param {string} name
     * @param {{schema?: Object, riv?: Uint8Array}} content
     * @returns {Promise<Array<{name: string, worker: number, source: string}>>}
     */
    loadFile(name: string, content: {
        schema?: any;
        riv?: Uint8Array;
    }): Promise<Array<{
        name: string;
        worker: number;
        source: string;
    }>>;
    /**
     * Subscribes to a whole target and resolves with its `Target` once the snapshot has arrived.
     * One subscription per target: a second call returns the same `Target`.
     * @param {string} name
     * @returns {Promise<Target>}
     */
    subscribe(name: string): Promise<Target>;
    /**
     * The daemon's state digest of a target: `{seq, digest}`.
     * @param {string} target
     * @returns {Promise<{seq: number, digest: string}>}
     */
    digest(target: string): Promise<{
        seq: number;
        digest: string;
    }>;
    /**
     * Reads one value from the daemon (`get`): `{seq, valueType, value}`.
     * @param {string} target
     * @param {string} path
     * @returns {Promise<{seq: number, valueType: string, value: any}>}
     */
    get(target: string, path: string): Promise<{
        seq: number;
        valueType: string;
        value: any;
    }>;
    /**
     * Queues a command (set, fire, list edits, bind, transaction) and resolves with its ack
     * `{seq, command}` (a transaction's also has `commands`).
     * @param {Object} message a command of PROTOCOL.md §8 without `id`
     * @returns {Promise<Ack>}
     */
    command(message: any): Promise<Ack>;
}
/**
 * A subscribed target: its replica (reads), its value streams and its writes. Reads come from
 * the replica, as of the last batch; writes resolve after the daemon's ack (whose batch has
 * then been applied) or reject with the error.
 */
export class Target {
    /** @private */
    private constructor();
    /** @type {RiveSync} */
    client: RiveSync;
    /** @type {string} the target's name */
    name: string;
    /** @type {Replica|null} */
    replica: Replica | null;
    /** @private */
    private listeners;
    /** @private */
    private valueListeners;
    /** @private */
    private ended_;
    /** @type {Array<{member: string, state: Object}>} the target's presence members (§15) */
    presence: {
        member: string;
        state: any;
    }[];
    /** @private the join to send again after a reconnect (its key resumes the member) */
    private presenceJoined;
    /**
     * @private settles when the target is resubscribed (and its member resumed) after the
     * connection was lost, or when the client closes; presence requests wait for it
     */
    private resuming;
    /** @private settles `resuming` */
    private resumed_;
    /**
     * A state machine's layers, each in its current state (`{layer, name, state, kind,
     * animation?}`, PROTOCOL.md §19), from `listTargets` when subscribed and then from every
     * batch's `layers`; empty for a published instance or a state machine with no graph.
     * @type {Array<{layer: number, name: string, state: number, kind: string, animation?: string}>}
     */
    layers: {
        layer: number;
        name: string;
        state: number;
        kind: string;
        animation?: string;
    }[];
    /** @private */
    private start;
    file: any;
    info: any;
    schema: any;
    /** @private The connection was lost: presence requests wait until `resubscribe` is done. */
    private holdUntilResumed;
    /** @private After a reconnect: resume from the cursor, or start over from a snapshot. */
    private resubscribe;
    resumed: boolean;
    /** @private */
    private reset;
    /** @private After a snapshot replaced the batches: the layers as the daemon lists them now. */
    private refreshLayers;
    /** @private A batch or catch-up snapshot of this target. */
    private receive;
    /** @private The daemon ended the subscription (deleted, or no longer readable). */
    private ended;
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
    on(event: any, callback: any): Target;
    off(event: any, callback: any): Target;
    /** @private */
    private setPresence;
    /**
     * Joins the target's presence (PROTOCOL.md §15) with `state` (a small JSON object), or
     * replaces the state if this client is a member already. Resolves with the member's name.
     * After a reconnect the client joins again with the same key, so the member resumes.
     * @param {Object} state
     * @returns {Promise<string>}
     */
    joinPresence(state: any): Promise<string>;
    /**
     * Replaces this client's presence state (no merge); rejects with `not_joined` before a join.
     * After a lost connection it waits until the member is resumed.
     */
    updatePresence(state: any): Promise<void>;
    /** Leaves the target's presence. */
    leavePresence(): Promise<void>;
    /** The members as the daemon has them now, in join order (needs `seePresence`). */
    listPresence(): Promise<any>;
    /** Ends the subscription. */
    unsubscribe(): Promise<void>;
    /** The local replica's digest (equal to `client.digest(name)` at the same seq). */
    digest(): Promise<string>;
    /** The seq of the last batch applied. */
    get seq(): number;
    /**
     * Where a path leads in the replica: `{instance, property, type, schema}` for a property, or
     * `{slot, instance}` for a bare slot `@Name`. Throws a `RiveSyncError` with the daemon's code.
     * @param {string} path
     */
    resolve(path: string): {
        slot: string;
        instance: number;
        property?: undefined;
        type?: undefined;
        schema?: undefined;
    } | {
        instance: any;
        property: string;
        type: string;
        schema: import("./replica.js").PropertySchema;
        slot?: undefined;
    };
    /** The current value at `path` in its JSON form (PROTOCOL.md §4). */
    value(path: any): any;
    /**
     * A path at which an instance is reachable now (its first, breadth-first from the slots), so
     * handles of list items and nested instances keep addressing the same instance as lists
     * move. Null when it is no longer reachable.
     * @param {number} id
     */
    pathOf(id: number): string;
    /**
     * Calls `callback(value)` now (if the path resolves) and after every batch that changes the
     * value at `path`. Returns a function that stops it. `path` may be a function returning the
     * path, asked again at every batch (handles of moving list items use it); while it does not
     * resolve, the callback is not called.
     * @param {string|(() => string)} path
     * @param {(value: any) => void} callback
     */
    watch(path: string | (() => string), callback: (value: any) => void): () => boolean;
    /**
     * The values at `path` as an async iterator: the current one, then each change.
     * @param {string} path
     * @returns {AsyncIterableIterator<any>}
     */
    valueStream(path: string): AsyncIterableIterator<any>;
    /** @private */
    private notifyValues;
    /** @private */
    private notifyValue;
    /**
     * `set` (PROTOCOL.md §8): a value in its JSON form, `{instance: id}` for a nested replacement.
     * @param {string} path
     * @param {any} value
     * @returns {Promise<Ack>}
     */
    set(path: string, value: any): Promise<Ack>;
    /**
     * `fire`: fires the trigger at `path`.
     * @param {string} path
     * @returns {Promise<Ack>}
     */
    fire(path: string): Promise<Ack>;
    /**
     * Appends the instance `instance` (an id) to the list at `path`.
     * @param {string} path
     * @param {number} instance
     * @returns {Promise<Ack>}
     */
    listAppend(path: string, instance: number): Promise<Ack>;
    /**
     * Inserts the instance `instance` (an id) at `index` of the list at `path`.
     * @param {string} path
     * @param {number} index
     * @param {number} instance
     * @returns {Promise<Ack>}
     */
    listInsert(path: string, index: number, instance: number): Promise<Ack>;
    /**
     * Removes the item at `index` of the list at `path`.
     * @param {string} path
     * @param {number} index
     * @returns {Promise<Ack>}
     */
    listRemoveAt(path: string, index: number): Promise<Ack>;
    /**
     * Removes every occurrence of the instance `instance` (an id) from the list at `path`.
     * @param {string} path
     * @param {number} instance
     * @returns {Promise<Ack>}
     */
    listRemove(path: string, instance: number): Promise<Ack>;
    /**
     * Swaps the items at `index` and `other` of the list at `path`.
     * @param {string} path
     * @param {number} index
     * @param {number} other
     * @returns {Promise<Ack>}
     */
    listSwap(path: string, index: number, other: number): Promise<Ack>;
    /**
     * `transaction` (PROTOCOL.md §16): several commands in one advance, in their order, all or
     * none. Each is a command object without `target` (`{type: 'set', path, value}`, `{type:
     * 'fire', path}`, list edits, `bind`). Resolves with the ack (`commands`: every number, in
     * order); rejects with the failing command's error, whose `details.commandIndex` names it.
     * @param {Array<Object>} commands
     * @returns {Promise<Ack>}
     */
    transaction(commands: Array<any>): Promise<Ack>;
    /**
     * `bind`: `{main?: id, globals?: [{name, instance}]}`.
     * @param {{main?: number, globals?: Array<{name: string, instance: number}>}} fields
     * @returns {Promise<Ack>}
     */
    bind(fields: {
        main?: number;
        globals?: Array<{
            name: string;
            instance: number;
        }>;
    }): Promise<Ack>;
    /**
     * `setInput` (PROTOCOL.md §8): sets a state machine's number or boolean input, as Rive's
     * `SMINumber.value` / `SMIBool.value`. Resolves with the ack after the advance that applied
     * it; rejects with `no_such_input` or `type_mismatch`.
     * @param {string} name
     * @param {number|boolean} value
     * @returns {Promise<Ack>}
     */
    setInput(name: string, value: number | boolean): Promise<Ack>;
    /**
     * `fireInput` (PROTOCOL.md §8): fires a state machine's trigger input, as Rive's
     * `SMITrigger.fire()`; the advance that applies it consumes it. Resolves with the ack.
     * @param {string} name
     * @returns {Promise<Ack>}
     */
    fireInput(name: string): Promise<Ack>;
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
    setBindTarget(bind: number, value: number | boolean | string): Promise<Ack>;
    /**
     * The state machine's legacy inputs in file order, as the daemon lists them now
     * (`listTargets`, PROTOCOL.md §19): `[{name, type: 'number'|'boolean'|'trigger', value?}]`,
     * no value for a trigger; empty for a published instance.
     * @returns {Promise<Array<{name: string, type: string, value?: number|boolean}>>}
     */
    inputs(): Promise<Array<{
        name: string;
        type: string;
        value?: number | boolean;
    }>>;
    /**
     * `advance` of a manual target, as Rive's `advance(by:)`: applies its queued commands, then
     * runs its state machine for `elapsed` seconds (0 to 60; PROTOCOL.md §8, §19). Resolves with
     * the reply, `{seq, settled}`: the target's seq after it, and whether the state machine needs
     * no further advance.
     * @param {number} [elapsed]
     * @returns {Promise<{type: 'advanced', target: string, seq: number, settled: boolean}>}
     */
    advance(elapsed?: number): Promise<{
        type: 'advanced';
        target: string;
        seq: number;
        settled: boolean;
    }>;
    /**
     * Advances a manual target by `step` seconds until its state machine is settled (a first
     * advance of 0 s, as Rive's first `advance(by: 0)`); rejects with `not_settled` after `limit`
     * advances. Resolves with the last reply.
     * @param {number} [step]
     * @param {number} [limit]
     * @returns {Promise<{type: 'advanced', target: string, seq: number, settled: boolean}>}
     */
    advanceUntilSettled(step?: number, limit?: number): Promise<{
        type: 'advanced';
        target: string;
        seq: number;
        settled: boolean;
    }>;
    /**
     * The instance bound in the main slot, as Rive's `ViewModelInstance`.
     * @returns {ViewModelInstance}
     */
    get viewModelInstance(): ViewModelInstance;
    /**
     * The instance bound in a global slot (`Theme`).
     * @param {string} name
     * @returns {ViewModelInstance}
     */
    globalInstance(name: string): ViewModelInstance;
}
/**
 * A view model instance of a target, with Rive's web runtime accessors: `number(path)`,
 * `string`, `boolean`, `color`, `enum`, `trigger`, `list`, `image`, `artboard`, `viewModel`,
 * `replaceViewModel`. A handle follows its slot (main, a global) or its instance id, so it
 * keeps addressing the same instance when lists move.
 */
export class ViewModelInstance {
    /** @param {Target} target @param {{slot?: string, id?: number}} anchor */
    constructor(target: Target, anchor: {
        slot?: string;
        id?: number;
    });
    target: Target;
    anchor: {
        slot?: string;
        id?: number;
    };
    /**
     * The instance id now (null if the slot is empty).
     * @returns {number|null}
     */
    get id(): number;
    /**
     * The view model's name.
     * @returns {string|null}
     */
    get viewModelName(): string;
    /**
     * The authored instance's name ("" for blank instances).
     * @returns {string|null}
     */
    get name(): string;
    /** Property schemas of the view model, in order: `[{name, type, …}]`. */
    get properties(): any;
    /**
     * The target path of a property of this instance (`path` relative to it, its names escaped: `joinPath`).
     * @param {string} path
     * @returns {string}
     */
    pathTo(path: string): string;
    /** @private */
    private property;
    /**
     * The number property at `path` (`type_mismatch` if it is of another type).
     * @param {string} path
     * @returns {NumberProperty}
     */
    number(path: string): NumberProperty;
    /**
     * The string property at `path` (`type_mismatch` if it is of another type).
     * @param {string} path
     * @returns {ValueProperty}
     */
    string(path: string): ValueProperty;
    /**
     * The boolean property at `path` (`type_mismatch` if it is of another type).
     * @param {string} path
     * @returns {ValueProperty}
     */
    boolean(path: string): ValueProperty;
    /**
     * The color property at `path` (`type_mismatch` if it is of another type).
     * @param {string} path
     * @returns {ColorProperty}
     */
    color(path: string): ColorProperty;
    /**
     * The enum property at `path` (`type_mismatch` if it is of another type).
     * @param {string} path
     * @returns {EnumProperty}
     */
    enum(path: string): EnumProperty;
    /**
     * The trigger property at `path` (`type_mismatch` if it is of another type).
     * @param {string} path
     * @returns {TriggerProperty}
     */
    trigger(path: string): TriggerProperty;
    /**
     * The list property at `path` (`type_mismatch` if it is of another type).
     * @param {string} path
     * @returns {ListProperty}
     */
    list(path: string): ListProperty;
    /**
     * The image property at `path` (`type_mismatch` if it is of another type).
     * @param {string} path
     * @returns {ValueProperty}
     */
    image(path: string): ValueProperty;
    /**
     * The artboard property at `path` (`type_mismatch` if it is of another type).
     * @param {string} path
     * @returns {ValueProperty}
     */
    artboard(path: string): ValueProperty;
    /**
     * The nested instance at `path`, or null.
     * @param {string} path
     * @returns {ViewModelInstance|null}
     */
    viewModel(path: string): ViewModelInstance | null;
    /**
     * Replaces the nested instance at `path` (Rive's `replaceViewModel`); resolves with the ack.
     * @param {string} path
     * @param {InstanceReference} instance
     * @returns {Promise<Ack>}
     */
    replaceViewModel(path: string, instance: InstanceReference): Promise<Ack>;
}
/** A property of an instance: `.value` (read from the replica; assigning writes), `.on`, `.set`. */
export class ValueProperty {
    /**
     * @param {ViewModelInstance} owner
     * @param {string} path relative to `owner`
     * @param {{name: string, type: string, enum?: string}} schema the property's schema
     */
    constructor(owner: ViewModelInstance, path: string, schema: {
        name: string;
        type: string;
        enum?: string;
    });
    owner: ViewModelInstance;
    path: string;
    schema: {
        name: string;
        type: string;
        enum?: string;
    };
    callbacks: Map<any, any>;
    /**
     * The property's name.
     * @returns {string}
     */
    get name(): string;
    /** Writes the value; a failure goes to the client's `error` listeners. Use `set` to await. */
    set value(arg: any);
    /** The current value in its JSON form (as of the last batch). */
    get value(): any;
    /**
     * Writes the value and resolves with the ack, or rejects with the `RiveSyncError`.
     * @param {any} value
     * @returns {Promise<Ack>}
     */
    set(value: any): Promise<Ack>;
    /**
     * Calls `callback(value)` after each batch that changes the value.
     * @param {(value: any) => void} callback
     * @returns {this}
     */
    on(callback: (value: any) => void): this;
    /**
     * Removes a callback added with `on` (or all of them without an argument).
     * @param {(value: any) => void} [callback]
     * @returns {this}
     */
    off(callback?: (value: any) => void): this;
}
/** A number property. */
export class NumberProperty extends ValueProperty {
}
/** A color property: `.value` is ARGB as an integer, as in Rive's web runtime. */
export class ColorProperty extends ValueProperty {
    set value(arg: number);
    get value(): number;
    /**
     * Writes the colour: ARGB as an integer, or a `#AARRGGBB` string.
     * @param {number|string} value
     * @returns {Promise<Ack>}
     */
    set(value: number | string): Promise<Ack>;
    /**
     * Sets red, green and blue (0–255), keeping alpha.
     * @param {number} r
     * @param {number} g
     * @param {number} b
     * @returns {Promise<Ack>}
     */
    rgb(r: number, g: number, b: number): Promise<Ack>;
    /**
     * Sets alpha, red, green and blue (0–255).
     * @param {number} a
     * @param {number} r
     * @param {number} g
     * @param {number} b
     * @returns {Promise<Ack>}
     */
    argb(a: number, r: number, g: number, b: number): Promise<Ack>;
    /**
     * Sets alpha (0–255), keeping the colour.
     * @param {number} a
     * @returns {Promise<Ack>}
     */
    alpha(a: number): Promise<Ack>;
}
/** An enum property: `.values` lists the allowed names. */
export class EnumProperty extends ValueProperty {
    /** @returns {string[]} */
    get values(): string[];
}
/** A trigger: `.trigger()` fires it; `.value` is its fire count; `.on` is called per batch that fires it. */
export class TriggerProperty extends ValueProperty {
    /**
     * Fires; resolves with the ack.
     * @returns {Promise<Ack>}
     */
    trigger(): Promise<Ack>;
}
/** A list of instances, with Rive's list calls. Each edit resolves with the ack. */
export class ListProperty extends ValueProperty {
    /** @returns {number} the number of items */
    get length(): number;
    /**
     * The item at `index` as a `ViewModelInstance`, or null.
     * @param {number} index
     * @returns {ViewModelInstance|null}
     */
    instanceAt(index: number): ViewModelInstance | null;
    /**
     * Appends `instance` (Rive's `addInstance`).
     * @param {InstanceReference} instance
     * @returns {Promise<Ack>}
     */
    addInstance(instance: InstanceReference): Promise<Ack>;
    /**
     * Inserts `instance` at `index`.
     * @param {InstanceReference} instance
     * @param {number} index
     * @returns {Promise<Ack>}
     */
    addInstanceAt(instance: InstanceReference, index: number): Promise<Ack>;
    /**
     * Removes every occurrence of `instance`.
     * @param {InstanceReference} instance
     * @returns {Promise<Ack>}
     */
    removeInstance(instance: InstanceReference): Promise<Ack>;
    /**
     * Removes the item at `index`.
     * @param {number} index
     * @returns {Promise<Ack>}
     */
    removeInstanceAt(index: number): Promise<Ack>;
    /**
     * Swaps the items at `a` and `b`.
     * @param {number} a
     * @param {number} b
     * @returns {Promise<Ack>}
     */
    swap(a: number, b: number): Promise<Ack>;
}
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';
/**
 * The daemon's acknowledgement of a command (PROTOCOL.md §8): the batch `seq` that applied it
 * and the command's number; a transaction's lists every number in `commands`.
 */
export type Ack = {
    type: 'ack';
    id?: number;
    target: string;
    seq: number;
    command: number;
    commands?: number[];
};
/**
 * An instance: a `ViewModelInstance` handle, its id, or a `createInstance` reply.
 */
export type InstanceReference = ViewModelInstance | number | {
    instance?: number;
    id?: number;
};
export type ConnectOptions = {
    /**
     * access token, sent in `hello` (never in the URL)
     */
    token?: string;
    /**
     * a WebSocket constructor (default: the global one; in Node 20 pass
     * Debian's `ws` or run `node --experimental-websocket`)
     */
    WebSocket?: any;
    /**
     * free text the daemon logs
     */
    client?: string;
    /**
     * reconnect and resume after a lost connection (default true)
     */
    reconnect?: boolean;
    /**
     * longest wait between reconnect attempts (default 5000)
     */
    maxBackoffMs?: number;
};
import { Replica } from "./replica.js";
import { ReplicaError } from "./replica.js";
import { parseColor } from "./replica.js";
import { formatColor } from "./replica.js";
import { escapeName } from "./replica.js";
import { unescapeName } from "./replica.js";
import { joinPath } from "./replica.js";
export { Replica, ReplicaError, parseColor, formatColor, escapeName, unescapeName, joinPath };
