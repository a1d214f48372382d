// Puts Rive's web runtime (@rive-app/canvas, @rive-app/webgl2) behind a RiveSync target: the
// values of a target's instance drive a Rive `ViewModelInstance`, and what the Rive side changes
// (a user's input, a listener in the file) is written back to the daemon — with no echo loops.
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
// - Rive → daemon: number, string, boolean, enum, color and trigger changes reported by the
//   properties' `on` callbacks become `set` / `fire`; failures go to `options.onError`.
//
// No echo: a value the adapter wrote into Rive is not written back when Rive reports it, and a
// fire the adapter sent is not replayed into Rive when the daemon's batch counts it.

const valueTypes = ['number', 'string', 'boolean', 'enum', 'color'];

/**
 * Mirrors a RiveSync `ViewModelInstance` (from rivesync.js) onto a Rive runtime
 * `ViewModelInstance`, both directions, until `stop()`.
 * @param {import('./rivesync.js').ViewModelInstance} source the RiveSync instance (e.g. `target.viewModelInstance`)
 * @param {any} rive the Rive `ViewModelInstance` (e.g. `riveInstance.viewModelInstance`)
 * @param {{createInstance?: (viewModelName: string) => any, image?: (asset: any) => any,
 *          artboard?: (name: string|null) => any, onError?: (error: Error) => void}} [options]
 * @returns {{stop: () => void}}
 */
export function bindRiveViewModelInstance(source, rive, options = {}) {
  const stops = [];
  const onError = options.onError ?? (() => {});
  bindInstance(source, rive, options, onError, stops);
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
    if (valueTypes.includes(property.type)) bindValue(source, rive, property, onError, stops);
    else if (property.type === 'trigger') bindTrigger(source, rive, name, onError, stops);
    else if (property.type === 'assetImage' && options.image) bindConverted(source, rive.image(name), source.image(name), options.image, stops);
    else if (property.type === 'artboard' && options.artboard) bindConverted(source, rive.artboard(name), source.artboard(name), options.artboard, stops);
    else if (property.type === 'viewModel') bindNested(source, rive, name, options, onError, stops);
    else if (property.type === 'list' && options.createInstance) bindList(source, rive, name, options, onError, stops);
  }
}

/** The RiveSync property and the Rive property of one value. */
function accessors(source, rive, property) {
  const name = property.name;
  return { ours: source[property.type](name), theirs: rive[property.type](name) };
}

function bindValue(source, rive, property, onError, stops) {
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

function bindTrigger(source, rive, name, onError, stops) {
  const ours = source.trigger(name);
  const theirs = rive.trigger(name);
  if (!theirs) return;
  let count = ours.value;
  let sent = 0;  // fires the adapter sent that the daemon has not counted yet
  let replayed = 0;  // Rive triggers the adapter made that Rive has not reported yet
  const toRive = (value) => {
    let delta = value - count;
    count = value;
    const own = Math.min(delta, sent);
    sent -= own;
    delta -= own;
    for (let i = 0; i < delta; i++) {
      replayed += 1;
      theirs.trigger();
    }
  };
  ours.on(toRive);
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
    const nested = source.viewModel(name);
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
  const first = source.viewModel(name);
  boundTo = first?.id ?? null;
  const initial = rive.viewModel(name);
  if (first && initial) bindInstance(first, initial, options, onError, inner);
  const watch = source.target.watch(() => source.pathTo(name), rebind);
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
    const ours = source.list(name);
    for (let i = 0; i < ours.length; i++) {
      const item = ours.instanceAt(i);
      const instance = options.createInstance(item.viewModelName);
      theirs.addInstance(instance);
      bindInstance(item, instance, options, onError, inner);
    }
  };
  const watch = source.target.watch(() => source.pathTo(name), rebuild);
  stops.push(() => {
    watch();
    for (const stop of inner.splice(0)) stop();
  });
}
