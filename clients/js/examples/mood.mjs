// A Node program using rivesync.js: connects to a rivesyncd (default ws://127.0.0.1:7420/, the
// demo: `rivesyncd --demo`), sets the `character` state machine's `mood`, waits for the batch
// that applied it and prints the value from the local replica. Run from the repository root, with Node's built-in WebSocket
// (Node 22+, or Node 20 with --experimental-websocket) or with the `ws` package:
//   node --experimental-websocket clients/js/examples/mood.mjs [url] [mood]
//   NODE_PATH=/usr/share/nodejs node clients/js/examples/mood.mjs [url] [mood]   (Debian's ws)
import { createRequire } from 'node:module';
import { RiveSync } from 'rivesync';

// The `ws` package through require(), which also honours NODE_PATH (an ES module import does not).
const WebSocket = globalThis.WebSocket ?? requireWs();
const [url = 'ws://127.0.0.1:7420/', mood = '5'] = process.argv.slice(2);

const client = await RiveSync.connect(url, { WebSocket, client: 'mood example' });
try {
  const character = await client.subscribe('character');
  const property = character.viewModelInstance.number('mood');
  const ack = await property.set(Number(mood));
  console.log(`mood ${property.value} (batch ${ack.seq}, ${globalThis.WebSocket ? 'built-in WebSocket' : 'ws'})`);
} finally {
  client.close();
}

function requireWs() {
  try {
    return createRequire(import.meta.url)('ws');
  } catch {
    console.error(`mood.mjs: this Node (${process.version}) has no WebSocket: use Node 22+, --experimental-websocket ` +
      'on Node 20, or the ws package (NODE_PATH=/usr/share/nodejs for Debian\'s node-ws)');
    process.exit(1);
  }
}
