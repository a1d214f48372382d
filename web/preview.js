// The demo preview: the shared Theme's colours on the page, the Character's mood and
// triggers drawn in SVG, the lobby's players as avatars you can move. Open it in two windows.
// Served by rivesyncd at /preview.html; uses the demo's targets `character` and `lobby`.

import { RiveSync, ViewModelInstance, parseColor } from '/rivesync.js';

const $ = (id) => document.getElementById(id);
const svg = 'http://www.w3.org/2000/svg';
const triggers = { success: 'jump', yes: 'jump', error: 'shake', no: 'shake', enter: 'nod', exit: 'nod' };

/** `rgba(…)` of a `#AARRGGBB` value. */
function css(value) {
  const argb = parseColor(value) ?? 0xff000000;
  return `rgba(${(argb >>> 16) & 255}, ${(argb >>> 8) & 255}, ${argb & 255}, ${((argb >>> 24) / 255).toFixed(3)})`;
}

function status(text, isError = false) {
  $('status').textContent = text;
  $('status').dataset.error = String(isError);
}

function report(label, promise) {
  promise.then(() => status(`${label}: ok`), (error) => status(`${label}: ${error.code} — ${error.message}`, true));
}

async function main() {
  const { readOnly } = await (await fetch('/inspector-config.json')).json();
  const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/';
  const token = sessionStorage.getItem('rivesync-token') || undefined;
  const client = await RiveSync.connect(url, { token, client: 'rivesync-preview' });
  const setConnection = (state) => {
    $('connection').textContent = state;
    $('connection').dataset.state = state;
  };
  setConnection(client.state);
  client.on('state', setConnection);
  client.on('error', (error) => status(`${error.code} — ${error.message}`, true));
  const character = await client.subscribe('character');
  const lobby = await client.subscribe('lobby');
  drawTheme(character);
  drawCharacter(character, readOnly);
  drawLobby(lobby, client, readOnly);
  if (readOnly) for (const control of document.querySelectorAll('button, input')) control.disabled = true;
  document.body.dataset.ready = 'true';
}

function drawTheme(character) {
  const apply = () => {
    const theme = character.globalInstance('Theme');
    document.body.style.background = css(theme.color('background').value);
    document.body.style.color = css(theme.color('foreground').value);
    $('face').setAttribute('fill', css(theme.color('accent').value));
    $('mouth').setAttribute('stroke', css(theme.color('foreground').value));
    document.body.dataset.theme = theme.string('name').value;
  };
  for (const name of ['background', 'foreground', 'accent', 'name']) character.watch(`@Theme/${name}`, apply);
  $('theme').addEventListener('click', () => {
    const theme = character.schema.viewModels.find((vm) => vm.name === 'Theme');
    const current = character.value('@Theme/mode');
    const next = theme.instances.find((i) => i.values && i.values.mode !== current) ?? theme.instances[0];
    if (!next?.values) {
      status('switching themes needs the authored values, which describe shows with the create permission', true);
      return;
    }
    const writes = Object.entries(next.values).map(([key, value]) => character.set(`@Theme/${key}`, value));
    report(`theme ${next.name}`, Promise.all(writes));
  });
}

function drawCharacter(character, readOnly) {
  const main = character.viewModelInstance;
  const mood = $('mood');
  main.number('mood');  // checks the property exists
  character.watch('mood', (value) => {
    const clamped = Math.max(-10, Math.min(10, value));
    $('mouth').setAttribute('d', `M 60 130 Q 100 ${130 + clamped * 4} 140 130`);
    $('mood-value').textContent = String(value);
    if (document.activeElement !== mood) mood.value = String(value);
  });
  mood.addEventListener('change', () => report('mood', main.number('mood').set(Number(mood.value))));
  const figure = $('character');
  for (const [name, animation] of Object.entries(triggers)) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.trigger = name;
    const count = document.createElement('span');
    button.append(name, ' ', count);
    $('triggers').append(button);
    button.addEventListener('click', () => report(name, main.trigger(name).trigger()));
    character.watch(name, (value) => (count.textContent = String(value)));
    main.trigger(name).on(() => {
      figure.classList.remove('jump', 'shake', 'nod');
      void figure.getBoundingClientRect();  // restarts the animation
      figure.classList.add(animation);
    });
  }
  if (readOnly) mood.disabled = true;
}

function drawLobby(lobby, client, readOnly) {
  const area = $('lobby');
  const mine = () => {
    const id = Number(sessionStorage.getItem('rivesync-preview-player'));
    return lobby.value('players').includes(id) ? new ViewModelInstance(lobby, { id }) : null;
  };
  const waves = new Map();
  const render = () => {
    area.style.background = css(lobby.value('@Theme/background'));
    $('lobby-title').textContent = lobby.value('title');
    const me = mine()?.id;
    const avatar = (id, x, y, radius, label) => {
      const state = lobby.replica.instances.get(id);
      const group = document.createElementNS(svg, 'g');
      group.setAttribute('class', 'player');
      group.dataset.instance = String(id);
      const circle = document.createElementNS(svg, 'circle');
      circle.setAttribute('cx', String(x));
      circle.setAttribute('cy', String(y));
      circle.setAttribute('r', String(radius));
      circle.setAttribute('fill', css(state.values.color));
      circle.setAttribute('stroke', id === me ? css(lobby.value('@Theme/foreground')) : 'none');
      circle.setAttribute('stroke-width', '3');
      const text = document.createElementNS(svg, 'text');
      text.setAttribute('x', String(x));
      text.setAttribute('y', String(y + radius + 14));
      text.setAttribute('fill', css(lobby.value('@Theme/foreground')));
      text.textContent = label;
      group.append(circle, text);
      if (waves.get(id) !== undefined && waves.get(id) !== state.values.wave) group.classList.add('waving');
      waves.set(id, state.values.wave);
      return group;
    };
    const items = [];
    const host = lobby.value('host');
    if (host) items.push(avatar(host.instance, 60, 30, 16, `host: ${lobby.replica.instances.get(host.instance).values.name}`));
    for (const id of lobby.value('players')) {
      const values = lobby.replica.instances.get(id).values;
      const x = Math.max(20, Math.min(380, values.x));
      const y = Math.max(20, Math.min(210, values.y));
      items.push(avatar(id, x, y, 14, values.name));
    }
    area.replaceChildren(...items);
    $('wave').disabled = readOnly || !mine();
    $('leave').disabled = readOnly || !mine();
    $('join').disabled = readOnly || Boolean(mine());
  };
  lobby.on('batch', render);
  lobby.on('snapshot', render);
  render();
  $('join').addEventListener('click', () => {
    const join = (async () => {
      const created = await client.createInstance(lobby.file, { viewModel: 'Player', name: 'Guest' });
      sessionStorage.setItem('rivesync-preview-player', String(created.instance));
      await lobby.viewModelInstance.list('players').addInstance(created);
      const me = new ViewModelInstance(lobby, { id: created.instance });
      const hue = Math.floor(Math.random() * 0xffffff);
      await Promise.all([
        me.string('name').set(`Player ${created.instance % 1000}`),
        me.color('color').set((0xff000000 | hue) >>> 0),
        me.number('x').set(60 + Math.floor(Math.random() * 280)),
        me.number('y').set(60 + Math.floor(Math.random() * 120)),
      ]);
    })();
    report('join', join);
  });
  $('wave').addEventListener('click', () => report('wave', mine().trigger('wave').trigger()));
  $('leave').addEventListener('click', () => report('leave', lobby.viewModelInstance.list('players').removeInstance(mine())));
  area.addEventListener('click', (event) => {
    const me = mine();
    if (!me || readOnly) return;
    const box = area.getBoundingClientRect();
    const x = Math.round(((event.clientX - box.left) / box.width) * 400);
    const y = Math.round(((event.clientY - box.top) / box.height) * 240);
    report('move', Promise.all([me.number('x').set(x), me.number('y').set(y)]));
  });
}

main().catch((error) => status(`preview: ${error.code ?? ''} ${error.message}`, true));
