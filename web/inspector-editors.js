// Type-aware editors of the inspector: one control per property type, each bound to a target
// path. `update(element, value)` refreshes a control in place without losing focus.

import { formatColor, parseColor } from '/rivesync.js';

/**
 * Creates an element.
 * @param {string} tag
 * @param {Object<string, any>} [attributes] properties (`text` sets textContent)
 * @param {Array<Node|string>} [children]
 */
export function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'text') node.textContent = value;
    else if (key.startsWith('data-') || key.startsWith('aria-')) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) node.append(child);
  return node;
}

/**
 * The editor of one property.
 * @param {Object} context `{target, write, readOnly, artboards, instanceChoices}`: `write(label,
 *   promise)` reports a write's outcome; `artboards` names the file's artboards.
 * @param {string} path the property's target path
 * @param {{type: string, enum?: string}} schema
 * @param {any} value the current JSON value
 */
export function editor(context, path, schema, value) {
  const { target, write } = context;
  const tag = { 'data-path': path, 'data-type': schema.type, className: 'editor' };
  const send = (label, promise) => write(`${label} ${path}`, promise);
  let node;
  switch (schema.type) {
    case 'number':
    case 'symbolListIndex':
      node = element('input', { ...tag, type: 'number', step: schema.type === 'number' ? 'any' : '1', min: schema.type === 'number' ? '' : '0' });
      node.addEventListener('change', () => send('set', target.set(path, Number(node.value))));
      break;
    case 'string':
      node = element('input', { ...tag, type: 'text' });
      node.addEventListener('change', () => send('set', target.set(path, node.value)));
      break;
    case 'boolean':
      node = element('input', { ...tag, type: 'checkbox' });
      node.addEventListener('change', () => send('set', target.set(path, node.checked)));
      break;
    case 'color': {
      const picker = element('input', { type: 'color', 'data-part': 'rgb', 'aria-label': `${path} colour` });
      const alpha = element('input', { type: 'range', min: '0', max: '255', 'data-part': 'alpha', 'aria-label': `${path} alpha` });
      const text = element('span', { className: 'mono', 'data-part': 'text' });
      node = element('span', { ...tag, className: 'editor editor-group' }, [picker, alpha, text]);
      const commit = () => {
        const rgb = parseInt(picker.value.slice(1), 16);
        send('set', target.set(path, formatColor(((Number(alpha.value) << 24) | rgb) >>> 0)));
      };
      picker.addEventListener('change', commit);
      alpha.addEventListener('change', commit);
      break;
    }
    case 'enum':
      node = element('select', tag, target.replica.enumValues(schema.enum).map((name) => element('option', { value: name, text: name })));
      node.addEventListener('change', () => send('set', target.set(path, node.value)));
      break;
    case 'trigger': {
      const button = element('button', { type: 'button', text: 'fire', 'data-part': 'fire' });
      const count = element('span', { className: 'mono', 'data-part': 'count' });
      node = element('span', { ...tag, className: 'editor editor-group' }, [button, count]);
      button.addEventListener('click', () => send('fire', target.fire(path)));
      break;
    }
    case 'artboard':
      node = element('select', tag, [
        element('option', { value: '', text: '(none)' }),
        ...context.artboards.map((name) => element('option', { value: name, text: name })),
      ]);
      node.addEventListener('change', () => send('set', target.set(path, node.value === '' ? null : node.value)));
      break;
    case 'assetImage':
    case 'assetFont':
    case 'assetBlob': {
      const kind = { assetImage: 'image', assetFont: 'font', assetBlob: 'blob' }[schema.type];
      const input = element('input', { type: 'file', 'data-part': 'file', accept: kind === 'image' ? 'image/png,image/jpeg,image/webp' : '' });
      const clear = element('button', { type: 'button', text: 'clear', 'data-part': 'clear' });
      const text = element('span', { className: 'mono', 'data-part': 'text' });
      node = element('span', { ...tag, className: 'editor editor-group' }, [input, clear, text]);
      input.addEventListener('change', async () => {
        const file = input.files[0];
        if (!file) return;
        const bytes = new Uint8Array(await file.arrayBuffer());
        send('upload', target.client.upload(kind, bytes, file.type || undefined).then((asset) => target.set(path, asset)));
      });
      clear.addEventListener('click', () => send('set', target.set(path, null)));
      break;
    }
    default:
      node = element('span', { ...tag, className: 'editor mono' });
  }
  // While the user is changing a control (typing, dragging), batches do not overwrite it.
  node.addEventListener('input', () => (node.dataset.editing = 'true'));
  node.addEventListener('change', () => delete node.dataset.editing, true);
  node.addEventListener('focusout', () => delete node.dataset.editing);
  update(node, schema.type, value);
  return node;
}

/** Shows `value` in an editor made by `editor`, unless the user is in the middle of changing it. */
export function update(node, type, value) {
  const focused = node.dataset.editing === 'true';
  const part = (name) => node.querySelector(`[data-part="${name}"]`);
  switch (type) {
    case 'number':
    case 'symbolListIndex':
    case 'string':
      if (!focused) node.value = String(value);
      break;
    case 'boolean':
      node.checked = value === true;
      break;
    case 'color': {
      const argb = parseColor(value) ?? 0;
      if (!focused) {
        part('rgb').value = '#' + (argb & 0xffffff).toString(16).padStart(6, '0');
        part('alpha').value = String(argb >>> 24);
      }
      part('text').textContent = formatColor(argb);
      break;
    }
    case 'enum':
      node.value = value;
      break;
    case 'trigger':
      part('count').textContent = `fired ${value}`;
      break;
    case 'artboard':
      node.value = value ?? '';
      break;
    case 'assetImage':
    case 'assetFont':
    case 'assetBlob':
      part('text').textContent = value ? `${value.id.slice(0, 19)}… ${value.bytes} B ${value.mediaType}` : '(none)';
      break;
    default:
      node.textContent = JSON.stringify(value);
  }
}

/** Every focusable control inside the editors of `root` (to turn them off for read-only access). */
export function controls(root) {
  return [...root.querySelectorAll('.editor, .editor input, .editor button, .editor select, .structure')]
    .filter((node) => 'disabled' in node);
}
