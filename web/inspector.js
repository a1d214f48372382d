// The RiveSync inspector: files and their view models, live targets as trees of bound
// instances with type-aware editors, a state machine's layers and whether it is settled, the
// target's presence members with their states, a batch timeline from the daemon's history on
// (with what the state machine changed and the events it reported), connection state and a path
// filter.
// Served by rivesyncd at `/`; talks to the same daemon with rivesync.js.

import { RiveSync, escapeName, origin } from '/rivesync.js';
import { controls, editor, element, update } from '/inspector-editors.js';
import { fetchHistory } from '/inspector-history.js';

const $ = (id) => document.getElementById(id);

/** What the page holds: the connection, the shown target, and whether edits are allowed. */
const page = {
  client: null,
  target: null,
  readOnly: true,
  writable: false,
  filter: '',
  structure: '',
  editors: [],
  /** Whether the shown state machine is settled, as of its last own advance (PROTOCOL.md §19). */
  settled: true,
};

function daemonURL() {
  return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/';
}

/** Reports a write's outcome in the status line. */
function write(label, promise) {
  status(`${label}…`);
  promise.then(
    (reply) => status(`${label}: ok${reply && reply.seq !== undefined ? ` (seq ${reply.seq})` : ''}`),
    (error) => status(`${label}: ${error.code ?? 'error'} — ${error.message}`, true),
  );
}

function status(text, isError = false) {
  const node = $('status');
  node.textContent = text;
  node.classList.toggle('error', isError);
}

async function main() {
  page.readOnly = (await (await fetch('/inspector-config.json')).json()).readOnly;
  $('token').value = sessionStorage.getItem('rivesync-token') ?? '';
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem('rivesync-token', $('token').value);
    connect();
  });
  $('filter').addEventListener('input', () => {
    page.filter = $('filter').value.trim();
    applyFilter();
  });
  await connect();
}

async function connect() {
  page.client?.close();
  page.client = null;
  page.target = null;
  setConnection('connecting');
  const token = $('token').value || undefined;
  let client;
  try {
    client = await RiveSync.connect(daemonURL(), { token, client: 'rivesync-inspector' });
  } catch (error) {
    setConnection('closed');
    status(`connect: ${error.code} — ${error.message}`, true);
    return;
  }
  page.client = client;
  client.on('state', setConnection);
  client.on('error', (error) => status(`${error.code} — ${error.message}`, true));
  setConnection(client.state);
  $('epoch').textContent = `epoch ${client.welcome.epoch} · ${client.welcome.server}`;
  await renderFiles();
  await renderTargets();
}

function setConnection(state) {
  const badge = $('connection');
  badge.textContent = state;
  badge.dataset.state = state;
}

async function renderFiles() {
  const root = $('files');
  root.replaceChildren();
  for (const file of await page.client.listFiles()) {
    const schema = await page.client.describe(file.name);
    const viewModels = element('ul', {}, schema.viewModels.map((vm) => element('li', {}, [
      element('strong', { text: vm.name }),
      vm.global ? ' (global)' : '',
      element('ul', {}, vm.properties.map((p) => element('li', {
        text: `${p.name}: ${p.type}${p.enum ? ' ' + p.enum : ''}${p.viewModel ? ' ' + p.viewModel : ''}`,
      }))),
    ])));
    const enums = element('ul', {}, (schema.enums ?? []).map((e) => element('li', { text: `${e.name}: ${e.values.join(', ')}` })));
    const artboards = element('ul', {}, (schema.artboards ?? []).map((a) => element('li', {
      text: `${a.name}${a.viewModel ? ' (' + a.viewModel + ')' : ''}: ${a.stateMachines.join(', ') || 'no state machines'}`,
    })));
    root.append(element('div', { className: 'file', 'data-file': file.name }, [
      element('h3', { text: `${file.name} (worker ${file.worker}${file.source ? `, ${file.source}` : ''})` }),
      element('div', { className: 'muted', text: 'view models' }), viewModels,
      element('div', { className: 'muted', text: 'enums' }), enums,
      element('div', { className: 'muted', text: 'artboards' }), artboards,
    ]));
  }
}

async function renderTargets() {
  const root = $('targets');
  const targets = await page.client.listTargets();
  root.replaceChildren(...targets.map((t) => {
    const button = element('button', { type: 'button', text: `${t.name} (${t.kind}, ${t.mode})`, 'data-target': t.name, 'aria-pressed': 'false' });
    button.addEventListener('click', () => selectTarget(t.name));
    return button;
  }));
  const wanted = sessionStorage.getItem('rivesync-target');
  const first = targets.find((t) => t.name === wanted) ?? targets[0];
  if (first) await selectTarget(first.name);
}

async function selectTarget(name) {
  const client = page.client;
  if (page.target?.name === name && client.targets.has(name)) return;
  if (page.target && page.target.name !== name) await page.target.unsubscribe().catch(() => {});
  sessionStorage.setItem('rivesync-target', name);
  for (const button of $('targets').querySelectorAll('button')) button.setAttribute('aria-pressed', String(button.dataset.target === name));
  const target = await client.subscribe(name);
  page.target = target;
  page.structure = '';
  $('timeline').replaceChildren();
  page.settled = target.info.settled;
  renderLayers(target);
  target.on('batch', (batch) => {
    if (page.target !== target) return;
    // A batch of this target's own advance (commands, seconds, layers or events) says whether
    // its state machine settled; one that only carries another target's shared change does not.
    if (batch.commands.length > 0 || batch.elapsed || batch.layers || batch.events) page.settled = batch.settled !== false;
    addToTimeline(batch);
    refresh();
  });
  target.on('snapshot', (event) => {
    if (page.target !== target) return;
    $('tree').dataset.resumed = String(event.resumed);
    status(event.resumed ? `resumed ${name} at seq ${event.seq}` : `new snapshot of ${name} at seq ${event.seq}`);
    refresh();
    renderLayers(target);
  });
  target.on('end', () => status(`${name}: subscription ended`, true));
  target.on('presence', () => {
    if (page.target === target) renderPresence(target);
  });
  renderPresence(target);
  loadHistory(target);
  page.writable = !page.readOnly && (await probeWritable(target));
  $('access').textContent = page.readOnly ? 'read-only page' : page.writable ? 'editable' : 'read-only token';
  $('access').dataset.writable = String(page.writable);
  refresh();
}

/**
 * The target's presence members (PROTOCOL.md §15), one item each with its state; "(no
 * members)" without any (a token without seePresence sees none).
 */
function renderPresence(target) {
  $('presence-target').textContent = target.name;
  const items = target.presence.map((m) => element('li', { 'data-member': m.member }, [
    element('strong', { className: 'mono', text: m.member }),
    element('pre', { className: 'mono state', text: JSON.stringify(m.state, null, 1) }),
  ]));
  $('presence').replaceChildren(...(items.length ? items : [element('li', { className: 'muted', text: '(no members)' })]));
}

/**
 * The batches the daemon still keeps of the target from before the page subscribed, below the
 * live ones in the timeline (newest first), and a line saying where the timeline starts.
 */
async function loadHistory(target) {
  const cursor = { epoch: target.replica.epoch, seq: target.replica.seq };
  const note = $('history');
  note.textContent = 'loading the daemon\'s history…';
  let batches;
  try {
    batches = await fetchHistory(daemonURL(), $('token').value || undefined, target.name, cursor);
  } catch (error) {
    if (page.target === target) note.textContent = `history: ${error.code ?? 'error'} — ${error.message}`;
    return;
  }
  if (page.target !== target) return;
  const timeline = $('timeline');
  for (const batch of batches.slice(-timelineLength).reverse()) {
    if (timeline.children.length >= timelineLength) break;
    const item = timelineItem(batch, 'history');
    item.classList.add('history');
    timeline.append(item);
  }
  const first = batches[0]?.seq;
  note.dataset.from = String(first ?? cursor.seq + 1);
  if (first !== undefined) note.textContent = `from seq ${first}: seq ${first}–${cursor.seq} from the daemon's history, then live`;
  else if (cursor.seq === 0) note.textContent = 'live from seq 1 (no batch before the page loaded)';
  else note.textContent = `live from seq ${cursor.seq + 1} (the daemon keeps no earlier batch)`;
}

/**
 * Whether this connection may write to the target: `advance` needs `write` or `fire`
 * somewhere on it and changes nothing on an auto target (`not_manual`). A manual target is
 * assumed writable (the daemon still refuses writes it may not make, shown as `forbidden`).
 */
async function probeWritable(target) {
  if (target.info.mode === 'manual') return true;
  try {
    await target.advance();
    return true;
  } catch (error) {
    return error.code !== 'forbidden';
  }
}

/** A key of what the tree's shape depends on: bindings, nested instances and list orders. */
function structureOf(target) {
  const replica = target.replica;
  const parts = [JSON.stringify(replica.bindings)];
  for (const [id, state] of replica.instances) {
    for (const [key, value] of Object.entries(state.values)) {
      const type = replica.property(state.viewModel, key)?.type;
      if (type === 'list' || type === 'viewModel') parts.push(`${id}.${key}=${JSON.stringify(value)}`);
    }
  }
  return parts.join('|');
}

function refresh() {
  const target = page.target;
  if (!target) return;
  const structure = structureOf(target);
  if (structure !== page.structure) {
    page.structure = structure;
    renderTree(target);
  } else {
    for (const { node, type, path } of page.editors) {
      try {
        update(node, type, target.value(path));
      } catch {
        // The path went away with a structural change; the next render drops the editor.
      }
    }
  }
  showDigest(target);
  renderLayers(target);
}

/**
 * A state machine's layers, each in its current state (PROTOCOL.md §19), and whether it is
 * settled; nothing for a published instance or a state machine with no graph.
 */
function renderLayers(target) {
  const node = $('layers');
  const layers = target.layers;
  node.dataset.settled = String(page.settled !== false);
  if (layers.length === 0) {
    node.replaceChildren();
    return;
  }
  node.replaceChildren(
    element('span', { className: 'badge', 'data-state': page.settled === false ? 'running' : 'settled', text: page.settled === false ? 'running' : 'settled' }),
    ...layers.map((l) => element('span', { className: 'layer mono', 'data-layer': String(l.layer), text: `${l.name}: ${describeState(l)}` })),
  );
}

/** A layer's state in words: `Timeline 1 (animation, state 1)`. */
function describeState(layer) {
  return `${layer.animation ?? layer.kind} (${layer.animation ? `${layer.kind}, ` : ''}state ${layer.state})`;
}

async function showDigest(target) {
  const seq = target.seq;
  const digest = await target.digest();
  if (page.target !== target || target.seq !== seq) return;
  const node = $('digest');
  node.textContent = `seq ${seq} · digest ${digest.slice(0, 16)}…`;
  node.dataset.seq = String(seq);
  node.dataset.digest = digest;
}

/** The path of property `name` under `prefix` (names escaped, PROTOCOL.md §4). */
function join(prefix, name) {
  return prefix === '' ? escapeName(name) : `${prefix}/${escapeName(name)}`;
}

function renderTree(target) {
  const root = $('tree');
  page.editors = [];
  const schema = target.schema;
  const context = {
    target,
    write,
    artboards: (schema.artboards ?? []).map((a) => a.name),
  };
  const choices = [];
  for (const vm of schema.viewModels) {
    for (const instance of vm.instances ?? []) choices.push({ viewModel: vm.name, name: instance.name });
    choices.push({ viewModel: vm.name, blank: true });
  }
  // The choices of view model `viewModel` (all without one), the first of `preferred` selected.
  const choiceSelect = (viewModel, preferred) => {
    const shown = choices.filter((c) => viewModel === undefined || c.viewModel === viewModel);
    const selected = Math.max(0, shown.findIndex((c) => c.viewModel === preferred));
    return element('select', { className: 'structure', 'data-part': 'choice' }, shown.map((c, i) =>
      element('option', { value: String(choices.indexOf(c)), text: `${c.viewModel}/${c.blank ? '(blank)' : c.name}`, selected: i === selected })));
  };
  const create = (select) => target.client.createInstance(target.file, choices[Number(select.value)]);

  const node = (id, prefix, seen) => {
    const state = target.replica.instances.get(id);
    const box = element('div', { className: 'node', 'data-instance': String(id) });
    if (!state) return box;
    box.append(element('div', { className: 'node-title', text: `#${id} ${state.viewModel} ${state.name ? `“${state.name}”` : '(blank)'}` }));
    if (seen.has(id)) {
      box.append(element('div', { className: 'muted', text: '(shown above)' }));
      return box;
    }
    seen = new Set(seen).add(id);
    const properties = schema.viewModels.find((vm) => vm.name === state.viewModel)?.properties ?? [];
    for (const property of properties) {
      const path = join(prefix, property.name);
      const value = state.values[property.name];
      const label = [element('span', { text: property.name }), element('span', { className: 'type', text: property.type })];
      if (property.type === 'viewModel') {
        const select = choiceSelect(property.viewModel);
        const replace = element('button', { type: 'button', text: 'replace', className: 'structure', 'data-action': 'replace', 'data-path': path });
        replace.addEventListener('click', () => write(`replace ${path}`, create(select).then((i) => target.set(path, { instance: i.instance }))));
        box.append(element('div', { className: 'row', 'data-path': path }, [...label, element('span', { className: 'editor-group' }, [select, replace])]));
        if (value) box.append(node(value.instance, path, seen));
      } else if (property.type === 'list') {
        const select = choiceSelect(undefined, itemViewModel(target, property.name, value));
        const add = element('button', { type: 'button', text: 'add', className: 'structure', 'data-action': 'add', 'data-path': path });
        add.addEventListener('click', () => write(`add to ${path}`, create(select).then((i) => target.listAppend(path, i.instance))));
        box.append(element('div', { className: 'row', 'data-path': path }, [
          ...label, element('span', { className: 'editor-group' }, [select, add, element('span', { className: 'muted', text: `${value.length} items` })]),
        ]));
        value.forEach((item, index) => {
          const itemPath = `${path}/${index}`;
          const button = (text, action, run) => {
            const b = element('button', { type: 'button', text, className: 'structure', 'data-action': action, 'data-path': itemPath });
            b.addEventListener('click', () => write(`${action} ${itemPath}`, run()));
            return b;
          };
          const actions = element('span', { className: 'editor-group' }, [
            button('insert before', 'insert', () => create(select).then((i) => target.listInsert(path, index, i.instance))),
            button('↑', 'swap', () => target.listSwap(path, index, index - 1)),
            button('remove', 'remove', () => target.listRemoveAt(path, index)),
          ]);
          if (index === 0) actions.children[1].disabled = true;
          box.append(element('div', { className: 'list-item', 'data-path': itemPath }, [element('span', { className: 'mono', text: `[${index}]` }), actions, node(item, itemPath, seen)]));
        });
      } else {
        const control = editor(context, path, property, value);
        page.editors.push({ node: control, type: property.type, path });
        box.append(element('div', { className: 'row', 'data-path': path }, [...label, control]));
      }
    }
    return box;
  };

  const trees = target.replica.bindings.map((binding) => {
    const prefix = binding.slot === 'main' ? '' : `@${escapeName(binding.slot)}`;
    return element('div', { className: 'slot', 'data-slot': binding.slot }, [
      element('h3', { text: binding.slot === 'main' ? 'main' : `@${binding.slot}` }),
      binding.instance === null ? element('div', { className: 'muted', text: '(empty)' }) : node(binding.instance, prefix, new Set()),
    ]);
  });
  root.replaceChildren(...trees);
  if (!page.writable) for (const control of controls(root)) control.disabled = true;
  root.dataset.editable = String(page.writable);
  applyFilter();
}

/**
 * The view model a list's new items most likely have (a list may hold any, SCHEMA.md): its last
 * item's, else the one named like the list (`players` → `Player`), else none.
 */
function itemViewModel(target, name, items) {
  const last = items.length ? target.replica.instances.get(items[items.length - 1]) : undefined;
  if (last) return last.viewModel;
  const names = [name, name.replace(/e?s$/, '')].map((n) => n.toLowerCase());
  return target.schema.viewModels.find((vm) => names.includes(vm.name.toLowerCase()))?.name;
}

function matchesFilter(path) {
  return page.filter === '' || path.includes(page.filter);
}

function applyFilter() {
  for (const row of $('tree').querySelectorAll('.row')) row.classList.toggle('hidden', !matchesFilter(row.dataset.path));
  for (const item of $('timeline').children) item.hidden = !JSON.parse(item.dataset.paths).some(matchesFilter);
}

/** An effect in words; one the state machine made is marked `(state machine)`. */
function describeEffect(effect) {
  const text = describeChange(effect);
  return origin(effect) === 'stateMachine' ? `${text} (state machine)` : text;
}

function describeChange(effect) {
  const where = effect.paths[0] ?? '';
  switch (effect.op) {
    case 'set':
      return `set ${where} = ${JSON.stringify(effect.value)}`;
    case 'fire':
      return `fire ${where}`;
    case 'listInsert':
      return `insert #${effect.item} at ${where}[${effect.index}]`;
    case 'listRemove':
      return `remove ${where}[${effect.index}]`;
    case 'listSwap':
      return `swap ${where}[${effect.index}] ↔ [${effect.with}]`;
    case 'bind':
      return `bind ${effect.slot} → #${effect.instance}`;
    default:
      return effect.op;
  }
}

/** Who sent a batch's commands (PROTOCOL.md §17): each distinct `client (token)`, in order. */
function authorsText(authors) {
  const names = (authors ?? []).map((a) => [a.client, a.token && `(${a.token})`].filter(Boolean).join(' ') || 'unknown');
  return [...new Set(names)].join(', ');
}

/** The most batches the timeline shows. */
const timelineLength = 200;

/** A new batch, on top of the timeline. */
function addToTimeline(batch) {
  const timeline = $('timeline');
  timeline.prepend(timelineItem(batch));
  while (timeline.children.length > timelineLength) timeline.lastElementChild.remove();
}

/** A batch as a timeline item (a history batch has no arrival time). */
function timelineItem(batch, time = new Date().toISOString().slice(11, 23)) {
  const paths = batch.effects.flatMap((e) => e.paths);
  const by = authorsText(batch.authors);
  const ran = batch.elapsed ? ` · ${batch.elapsed} s` : '';
  const details = [element('div', { className: 'mono', text: batch.effects.map(describeEffect).join('; ') })];
  if (batch.events) {
    const events = batch.events.map((e) => `${e.name}${e.properties ? ` ${JSON.stringify(e.properties)}` : ''}`).join(', ');
    details.push(element('div', { className: 'mono events', text: `events: ${events}` }));
  }
  if (batch.layers) {
    details.push(element('div', { className: 'mono layers', text: `layers: ${batch.layers.map((l) => `${l.name} → ${describeState(l)}`).join(', ')}` }));
  }
  const item = element('li', { 'data-seq': String(batch.seq), 'data-paths': JSON.stringify(paths.length ? paths : ['']) }, [
    element('strong', { text: `seq ${batch.seq}` }),
    ` · ${batch.effects.length} effect${batch.effects.length === 1 ? '' : 's'}${ran}${time ? ` · ${time}` : ''}${by ? ` · by ${by}` : ''}`,
    ...details,
  ]);
  item.hidden = !JSON.parse(item.dataset.paths).some(matchesFilter);
  return item;
}

main().catch((error) => status(`inspector: ${error.message}`, true));
