// Puts Rive's web runtime (@rive-app/canvas, @rive-app/webgl2) behind a RiveSync target: the
// values of a target's instance drive a Rive `ViewModelInstance`; where the daemon runs no state
// machine for the target, what the Rive side changes is written back to the daemon — with no
// echo loops.
//
//   import { Rive } from '@rive-app/canvas';
//   import { RiveSync } from '/rivesync.js';
//   import { bindRiveViewModelInstance } from '/rive-adapter.js';
//   const r = new Rive({ src: 'character.riv', canvas, stateMachines: 'character', autoBind: true,
//     onLoad: async () => {
//       const target = await (await RiveSync.connect('ws://127.0.0.1:7420/')).subscribe('character');
//       const binding = bindRiveViewModelInstance(target.viewModelInstance, r.viewModelInstance, {
//         createInstance: (viewModelName) => r.viewModelByName(viewModelName).instance(),
//       });
//       // binding.stop() undoes it
//     } });
//
// What flows where:
// - daemon → Rive: number, string, boolean, enum, color (ARGB integer, as Rive's `color.value`),
//   trigger (each fire counted by the daemon is one `trigger()`), image and artboard (through
//   `options.image(asset)` / `options.artboard(name)`, which turn a RiveSync value into what
//   Rive's property takes, e.g. a `decodeImage` result or `r.getBindableArtboard(name)`), nested
//   view models (followed recursively; a replacement becomes `replaceViewModel` with an instance
//   from `options.createInstance`), lists (rebuilt with instances from `options.createInstance`).
// - Rive → daemon, only with `forwardRiveChanges`: number, string, boolean, enum, color and
//   trigger changes reported by the properties' `on` callbacks become `set` / `fire`; failures
//   go to `options.onError`.
//
// One authority: when the daemon runs the target's state machine (a state machine target whose
// file has a state machine graph, PROTOCOL.md §19), the daemon's state machine decides, and the
// preview renders what it decided. The Rive instance's own state machine runs the same file and
// makes the same listener, bind and converter writes locally; forwarding them would make one
// authored change N writes (one per preview) and make two-way values fight. So by default the
// adapter then sends nothing from Rive to the daemon (write through RiveSync instead:
// `target.viewModelInstance.number('mood').value = 5`), and a fire the daemon's state machine
// made (`by: 'stateMachine'`) is not replayed into Rive, whose own state machine makes it.
// `forwardRiveChanges` defaults to true for a published instance and a state machine with no
// graph (a JSON schema's state machine given by name only), where nothing else runs the file's
// logic.
//
// No echo: a value the adapter wrote into Rive is not written back when Rive reports it, and a
// fire the adapter sent is not replayed into Rive when the daemon's batch counts it.

import { escapeName } from './replica.js';

/**
 * What the adapter uses of Rive's web runtime (`@rive-app/canvas`, `@rive-app/webgl2`): the
 * `ViewModelInstance` (`riveInstance.viewModelInstance`, `viewModelByName(name).instance()`)
 * and its properties, each found by name (null when the instance has none).
 * @template T
 * @typedef {{value: T, on: (callback: () => void) => void, off: (callback: () => void) => void}} RiveValueProperty
 *   A number, string, boolean, enum or color property (a color's value is an ARGB integer).
 */
/**
 * @typedef {{trigger: () => void, on: (callback: () => void) => void, off: (callback: () => void) => void}} RiveTriggerProperty
 * @typedef {{value: unknown}} RiveAssignableProperty
 *   An image or artboard property: the adapter sets what `options.image` / `options.artboard` made.
 * @typedef {{length: number, addInstance: (instance: RiveViewModelInstance) => void,
 *            removeInstanceAt: (index: number) => void}} RiveListProperty
 * @typedef {{
 *   number: (name: string) => RiveValueProperty<number>|null,
 *   string: (name: string) => RiveValueProperty<string>|null,
 *   boolean: (name: string) => RiveValueProperty<boolean>|null,
 *   enum: (name: string) => RiveValueProperty<string>|null,
 *   color: (name: string) => RiveValueProperty<number>|null,
 *   trigger: (name: string) => RiveTriggerProperty|null,
 *   image: (name: string) => RiveAssignableProperty|null,
 *   artboard: (name: string) => RiveAssignableProperty|null,
 *   viewModel: (name: string) => RiveViewModelInstance|null,
 *   replaceViewModel: (name: string, instance: RiveViewModelInstance) => void,
 *   list: (name: string) => RiveListProperty|null
 * }} RiveViewModelInstance
 * @typedef {{id: string, bytes: number, mediaType: string}} AssetValue
 *   An image property's value in RiveSync (an uploaded or authored asset, PROTOCOL.md §9).
 * @typedef {{createInstance?: (viewModelName: string) => RiveViewModelInstance,
 *            image?: (asset: AssetValue|null) => unknown, artboard?: (name: string|null) => unknown,
 *            onError?: (error: Error) => void, forwardRiveChanges?: boolean}} BindOptions
 *   `createInstance` makes the Rive instances of nested replacements and list items; `image`
 *   and `artboard` turn a RiveSync value into what Rive's property takes; `onError` hears the
 *   daemon's refusals of forwarded changes.
 */

const valueTypes = ['number', 'string', 'boolean', 'enum', 'color'];

/**
 * Whether the daemon runs the state machine of `target` (a RiveSync `Target`): a state machine
 * target with layers (a `.riv` state machine graph). Its previews then only render.
 * @param {import('./rivesync.js').Target} target
 * @returns {boolean}
 */
export function daemonRunsStateMachine(target) {
  return target.info?.kind === 'stateMachine' && (target.info.layers?.length ?? 0) > 0;
}

/**
 * Mirrors a RiveSync `ViewModelInstance` (from rivesync.js) onto a Rive runtime
 * `ViewModelInstance` until `stop()`; Rive's changes go back to the daemon only with
 * `forwardRiveChanges` (default: when the daemon runs no state machine for the target).
 * @param {import('./rivesync.js').ViewModelInstance} source the RiveSync instance (e.g. `target.viewModelInstance`)
 * @param {RiveViewModelInstance} rive the Rive `ViewModelInstance` (e.g. `riveInstance.viewModelInstance`)
 * @param {BindOptions} [options]
 * @returns {{stop: () => void}}
 */
export function bindRiveViewModelInstance(source, rive, options = {}) {
  const stops = [];
  const onError = options.onError ?? (() => {});
  const forward = options.forwardRiveChanges ?? !daemonRunsStateMachine(source.target);
  bindInstance(source, rive, { ...options, forward }, onError, stops);
  return {
    stop() {
      for (const stop of stops.splice(0)) stop();
    },
  };
}

/** Binds every property of one instance; nested instances and list items recursively. */
function bindInstance(source, rive, options, onError, stops) {
  for (const property of source.properties) {
    const name = property.name;
    const path = escapeName(name);  // a RiveSync path; Rive's accessors take the name
    if (valueTypes.includes(property.type)) bindValue(source, rive, property, options.forward, onError, stops);
    else if (property.type === 'trigger') bindTrigger(source, rive, name, options.forward, onError, stops);
    else if (property.type === 'assetImage' && options.image) bindConverted(source, rive.image(name), source.image(path), options.image, stops);
    else if (property.type === 'artboard' && options.artboard) bindConverted(source, rive.artboard(name), source.artboard(path), options.artboard, stops);
    else if (property.type === 'viewModel') bindNested(source, rive, name, options, onError, stops);
    else if (property.type === 'list' && options.createInstance) bindList(source, rive, name, options, onError, stops);
  }
}

/** The RiveSync property and the Rive property of one value. */
function accessors(source, rive, property) {
  const name = property.name;
  return { ours: source[property.type](escapeName(name)), theirs: rive[property.type](name) };
}

function bindValue(source, rive, property, forward, onError, stops) {
  const { ours, theirs } = accessors(source, rive, property);
  if (!theirs) return;
  let written;  // the last value the adapter put into Rive
  const toRive = () => {
    const value = ours.value;
    written = value;
    if (theirs.value !== value) theirs.value = value;
  };
  toRive();
  ours.on(toRive);
  if (!forward) {
    stops.push(() => ours.off(toRive));
    return;
  }
  const fromRive = () => {
    const value = theirs.value;
    if (value === written || value === ours.value) return;
    written = value;
    ours.set(value).catch(onError);
  };
  theirs.on(fromRive);
  stops.push(() => {
    ours.off(toRive);
    theirs.off(fromRive);
  });
}

function bindTrigger(source, rive, name, forward, onError, stops) {
  const ours = source.trigger(escapeName(name));
  const theirs = rive.trigger(name);
  if (!theirs) return;
  let count = ours.value;
  let sent = 0;  // fires the adapter sent that the daemon has not counted yet
  let replayed = 0;  // Rive triggers the adapter made that Rive has not reported yet
  let madeByMachine = 0;  // fires the daemon's state machine made, counted before the value moves
  const countMachineFires = (batch) => {
    const id = source.id;
    for (const effect of batch.effects) {
      if (effect.op === 'fire' && effect.by === 'stateMachine' && effect.instance === id && effect.property === name) madeByMachine += 1;
    }
  };
  source.target.on('batch', countMachineFires);
  const toRive = (value) => {
    let delta = value - count;
    count = value;
    const own = Math.min(delta, sent);
    sent -= own;
    delta -= own;
    const machine = Math.min(delta, madeByMachine);  // Rive's own state machine makes these
    madeByMachine = 0;
    delta -= machine;
    for (let i = 0; i < delta; i++) {
      replayed += 1;
      theirs.trigger();
    }
  };
  ours.on(toRive);
  if (!forward) {
    stops.push(() => {
      ours.off(toRive);
      source.target.off('batch', countMachineFires);
    });
    return;
  }
  const fromRive = () => {
    if (replayed > 0) {
      replayed -= 1;
      return;
    }
    sent += 1;
    ours.trigger().catch((error) => {
      sent = Math.max(0, sent - 1);
      onError(error);
    });
  };
  theirs.on(fromRive);
  stops.push(() => {
    ours.off(toRive);
    theirs.off(fromRive);
    source.target.off('batch', countMachineFires);
  });
}

function bindConverted(source, theirs, ours, convert, stops) {
  if (!theirs) return;
  const toRive = () => {
    theirs.value = convert(ours.value);
  };
  toRive();
  ours.on(toRive);
  stops.push(() => ours.off(toRive));
}

function bindNested(source, rive, name, options, onError, stops) {
  let inner = [];
  let boundTo = null;
  const rebind = () => {
    const nested = source.viewModel(escapeName(name));
    const id = nested?.id ?? null;
    if (id === boundTo) return;
    for (const stop of inner.splice(0)) stop();
    boundTo = id;
    if (!nested) return;
    let theirs = rive.viewModel(name);
    if (options.createInstance && (boundTo !== null || !theirs)) {
      theirs = options.createInstance(nested.viewModelName);
      rive.replaceViewModel(name, theirs);
    }
    if (theirs) bindInstance(nested, theirs, options, onError, inner);
  };
  const first = source.viewModel(escapeName(name));
  boundTo = first?.id ?? null;
  const initial = rive.viewModel(name);
  if (first && initial) bindInstance(first, initial, options, onError, inner);
  const watch = source.target.watch(() => source.pathTo(escapeName(name)), rebind);
  stops.push(() => {
    watch();
    for (const stop of inner.splice(0)) stop();
  });
}

function bindList(source, rive, name, options, onError, stops) {
  const theirs = rive.list(name);
  if (!theirs) return;
  let inner = [];
  const rebuild = () => {
    for (const stop of inner.splice(0)) stop();
    while (theirs.length > 0) theirs.removeInstanceAt(theirs.length - 1);
    const ours = source.list(escapeName(name));
    for (let i = 0; i < ours.length; i++) {
      const item = ours.instanceAt(i);
      const instance = options.createInstance(item.viewModelName);
      theirs.addInstance(instance);
      bindInstance(item, instance, options, onError, inner);
    }
  };
  const watch = source.target.watch(() => source.pathTo(escapeName(name)), rebuild);
  stops.push(() => {
    watch();
    for (const stop of inner.splice(0)) stop();
  });
}
