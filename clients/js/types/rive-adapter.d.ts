/**
 * Whether the daemon runs the state machine of `target` (a RiveSync `Target`): a state machine
 * target with layers (a `.riv` state machine graph). Its previews then only render.
 * @param {import('./rivesync.js').Target} target
 */
export function daemonRunsStateMachine(target: import('./rivesync.js').Target): boolean;
/**
 * Mirrors a RiveSync `ViewModelInstance` (from rivesync.js) onto a Rive runtime
 * `ViewModelInstance` until `stop()`; Rive's changes go back to the daemon only with
 * `forwardRiveChanges` (default: when the daemon runs no state machine for the target).
 * @param {import('./rivesync.js').ViewModelInstance} source the RiveSync instance (e.g. `target.viewModelInstance`)
 * @param {any} rive the Rive `ViewModelInstance` (e.g. `riveInstance.viewModelInstance`)
 * @param {{createInstance?: (viewModelName: string) => any, image?: (asset: any) => any,
 *          artboard?: (name: string|null) => any, onError?: (error: Error) => void,
 *          forwardRiveChanges?: boolean}} [options]
 * @returns {{stop: () => void}}
 */
export function bindRiveViewModelInstance(source: import('./rivesync.js').ViewModelInstance, rive: any, options?: {
    createInstance?: (viewModelName: string) => any;
    image?: (asset: any) => any;
    artboard?: (name: string | null) => any;
    onError?: (error: Error) => void;
    forwardRiveChanges?: boolean;
}): {
    stop: () => void;
};
