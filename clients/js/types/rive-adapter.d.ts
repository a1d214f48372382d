/**
 * Whether the daemon runs the state machine of `target` (a RiveSync `Target`): a state machine
 * target with layers (a `.riv` state machine graph). Its previews then only render.
 * @param {import('./rivesync.js').Target} target
 * @returns {boolean}
 */
export function daemonRunsStateMachine(target: import('./rivesync.js').Target): boolean;
/**
 * Mirrors a RiveSync `ViewModelInstance` (from rivesync.js) onto a Rive runtime
 * `ViewModelInstance` until `stop()`; Rive's changes go back to the daemon only with
 * `forwardRiveChanges` (default: when the daemon runs no state machine for the target).
 * @param {import('./rivesync.js').ViewModelInstance} source the RiveSync instance (e.g. `target.viewModelInstance`)
 * @param {RiveViewModelInstance} rive the Rive `ViewModelInstance` (e.g. `riveInstance.viewModelInstance`)
 * @param {BindOptions} [options]
 * @returns {{stop: () => void}}
 */
export function bindRiveViewModelInstance(source: import('./rivesync.js').ViewModelInstance, rive: RiveViewModelInstance, options?: BindOptions): {
    stop: () => void;
};
/**
 * A number, string, boolean, enum or color property (a color's value is an ARGB integer).
 */
export type RiveValueProperty<T> = {
    value: T;
    on: (callback: () => void) => void;
    off: (callback: () => void) => void;
};
export type RiveTriggerProperty = {
    trigger: () => void;
    on: (callback: () => void) => void;
    off: (callback: () => void) => void;
};
/**
 * An image or artboard property: the adapter sets what `options.image` / `options.artboard` made.
 */
export type RiveAssignableProperty = {
    value: unknown;
};
export type RiveListProperty = {
    length: number;
    addInstance: (instance: RiveViewModelInstance) => void;
    removeInstanceAt: (index: number) => void;
};
export type RiveViewModelInstance = {
    number: (name: string) => RiveValueProperty<number> | null;
    string: (name: string) => RiveValueProperty<string> | null;
    boolean: (name: string) => RiveValueProperty<boolean> | null;
    enum: (name: string) => RiveValueProperty<string> | null;
    color: (name: string) => RiveValueProperty<number> | null;
    trigger: (name: string) => RiveTriggerProperty | null;
    image: (name: string) => RiveAssignableProperty | null;
    artboard: (name: string) => RiveAssignableProperty | null;
    viewModel: (name: string) => RiveViewModelInstance | null;
    replaceViewModel: (name: string, instance: RiveViewModelInstance) => void;
    list: (name: string) => RiveListProperty | null;
};
/**
 * An image property's value in RiveSync (an uploaded or authored asset, PROTOCOL.md §9).
 */
export type AssetValue = {
    id: string;
    bytes: number;
    mediaType: string;
};
/**
 * `createInstance` makes the Rive instances of nested replacements and list items; `image`
 * and `artboard` turn a RiveSync value into what Rive's property takes; `onError` hears the
 * daemon's refusals of forwarded changes.
 */
export type BindOptions = {
    createInstance?: (viewModelName: string) => RiveViewModelInstance;
    image?: (asset: AssetValue | null) => unknown;
    artboard?: (name: string | null) => unknown;
    onError?: (error: Error) => void;
    forwardRiveChanges?: boolean;
};
