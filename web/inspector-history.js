// The batches the daemon still keeps of a target (its `historyBatches`, PROTOCOL.md §7, §12),
// so the inspector's timeline starts before the page loaded.

import { RiveSync } from '/rivesync.js';

/**
 * The target's batches up to `seq` that the daemon still keeps, oldest first ([] when it keeps
 * none). A second connection subscribes with a cursor `back` batches before `seq`, `back` at
 * first the daemon's configured `historyBatches` (its `welcome` limits, §12): the daemon
 * replays them when it still has them all (`resumed`, §7); otherwise it sends a snapshot and
 * the window halves. The connection is closed before this resolves.
 * @param {string} url the daemon's address
 * @param {string|undefined} token
 * @param {string} target
 * @param {{epoch: string, seq: number}} cursor the epoch and seq of the inspector's subscription
 * @returns {Promise<Array<Object>>} batch messages
 */
export async function fetchHistory(url, token, target, { epoch, seq }) {
  if (seq === 0) return [];
  const client = await RiveSync.connect(url, { token, client: 'rivesync-inspector-history', reconnect: false });
  try {
    const kept = client.welcome.limits.historyBatches;
    for (let back = Math.min(seq, kept); back >= 1; back = Math.floor(back / 2)) {
      const batches = await replay(client, target, epoch, seq, back);
      if (batches) return batches;
    }
    return [];
  } finally {
    client.close();
  }
}

/** The `back` batches before `seq` when the daemon replays them all, else null. */
async function replay(client, target, epoch, seq, back) {
  const batches = [];
  let done;
  const complete = new Promise((resolve) => { done = resolve; });
  const collect = (message) => {
    if (message.type !== 'batch' || message.target !== target || message.seq > seq) return;
    batches.push(message);
    if (message.seq === seq) done();
  };
  client.on('message', collect);
  try {
    const reply = await client.request({ type: 'subscribe', target, cursor: { epoch, seq: seq - back } });
    if (reply.type !== 'subscribed' || reply.resumed !== true) return null;
    await complete;
    return batches;
  } finally {
    client.off('message', collect);
    await client.request({ type: 'unsubscribe', target }).catch(() => {});
  }
}
