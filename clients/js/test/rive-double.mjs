// A test double with the shape of Rive's web runtime data-binding API (@rive-app/canvas): a
// `ViewModelInstance` with `number(path)`, `string`, `boolean`, `color`, `enum`, `trigger`,
// `list`, `image`, `artboard`, `viewModel` and `replaceViewModel`; properties with `value`,
// `on(callback)`, `off(callback)`, `trigger()`; lists with `length`, `addInstance`,
// `addInstanceAt`, `removeInstance`, `removeInstanceAt`, `instanceAt`, `swap`. As in the runtime,
// callbacks run later (when the state machine advances: `advance()` here), not inside a setter,
// and only for values that changed. Written from the runtime's documented names, not its code.

class Property {
  constructor(instance, value) {
    this.instance = instance;
    this.current = value;
    this.callbacks = new Set();
    this.writes = 0;
  }

  get value() {
    return this.current;
  }

  set value(value) {
    this.writes += 1;
    if (value === this.current) return;
    this.current = value;
    this.instance.changed.add(this);
  }

  on(callback) {
    this.callbacks.add(callback);
  }

  off(callback) {
    this.callbacks.delete(callback);
  }
}

class Trigger extends Property {
  constructor(instance) {
    super(instance, undefined);
    this.fired = 0;
  }

  trigger() {
    this.fired += 1;
    this.instance.changed.add(this);
  }
}

class List extends Property {
  constructor(instance) {
    super(instance, []);
  }

  get length() {
    return this.current.length;
  }

  instanceAt(index) {
    return this.current[index] ?? null;
  }

  addInstance(item) {
    this.current = [...this.current, item];
  }

  addInstanceAt(item, index) {
    const items = [...this.current];
    items.splice(index, 0, item);
    this.current = items;
  }

  removeInstance(item) {
    this.current = this.current.filter((i) => i !== item);
  }

  removeInstanceAt(index) {
    this.current = this.current.filter((_, i) => i !== index);
  }

  swap(a, b) {
    const items = [...this.current];
    [items[a], items[b]] = [items[b], items[a]];
    this.current = items;
  }
}

/** A Rive `ViewModelInstance` double built from a SCHEMA.md view model. */
export class RiveViewModelInstanceDouble {
  /**
   * @param {any} schema the file's schema
   * @param {string} viewModelName
   */
  constructor(schema, viewModelName) {
    this.schema = schema;
    this.viewModelName = viewModelName;
    this.changed = new Set();
    this.properties = new Map();
    this.nested = new Map();
    const viewModel = schema.viewModels.find((vm) => vm.name === viewModelName);
    for (const p of viewModel.properties) {
      if (p.type === 'trigger') this.properties.set(p.name, { type: p.type, property: new Trigger(this) });
      else if (p.type === 'list') this.properties.set(p.name, { type: p.type, property: new List(this) });
      else if (p.type === 'viewModel') this.nested.set(p.name, new RiveViewModelInstanceDouble(schema, p.viewModel));
      else this.properties.set(p.name, { type: p.type, property: new Property(this, blank(p.type, schema, p)) });
    }
  }

  /** @private */
  typed(path, type) {
    const [head, ...rest] = path.split('/');
    if (rest.length > 0) return this.nested.get(head)?.typed(rest.join('/'), type) ?? null;
    const entry = this.properties.get(path);
    return entry && entry.type === type ? entry.property : null;
  }

  number(path) { return this.typed(path, 'number'); }
  string(path) { return this.typed(path, 'string'); }
  boolean(path) { return this.typed(path, 'boolean'); }
  color(path) { return this.typed(path, 'color'); }
  enum(path) { return this.typed(path, 'enum'); }
  trigger(path) { return this.typed(path, 'trigger'); }
  list(path) { return this.typed(path, 'list'); }
  image(path) { return this.typed(path, 'assetImage'); }
  artboard(path) { return this.typed(path, 'artboard'); }

  viewModel(path) {
    return this.nested.get(path) ?? null;
  }

  replaceViewModel(path, instance) {
    if (!this.nested.has(path)) return false;
    this.nested.set(path, instance);
    return true;
  }

  /** Runs the callbacks of what changed since the last advance (the runtime does this per frame). */
  advance() {
    const changed = [...this.changed];
    this.changed.clear();
    for (const property of changed) for (const callback of property.callbacks) callback(property.value);
    for (const nested of this.nested.values()) nested.advance();
    for (const { property } of this.properties.values()) {
      if (property instanceof List) for (const item of property.current) item.advance();
    }
  }
}

function blank(type, schema, property) {
  switch (type) {
    case 'number': return 0;
    case 'string': return '';
    case 'boolean': return false;
    case 'color': return 0xff000000;
    case 'enum': return schema.enums.find((e) => e.name === property.enum).values[0];
    default: return null;
  }
}
