import type { Tx } from '../store/store.js';

/**
 * Keeps a client's delivery log bounded. Called when a delivery finishes (delivered, failed, dropped, or
 * skipped at once): while the client holds more than `limit` deliveries, its oldest ones are deleted, from the
 * oldest up to the first one still pending. A pending delivery is never dropped, and neither is anything after
 * it, so the walk stops there: deliveries finish roughly in order, so it takes a step or two and its cost does
 * not grow with the log or with a backlog. A delivery pending for long (a receiver down, retries spread over
 * minutes) holds the log past the limit until it finishes.
 */
export function pruneDeliveries(tx: Tx, clientId: string, limit: number): void {
  let excess = tx.countWhere('deliveries', 'clientId', clientId) - limit;
  if (excess <= 0) return;
  for (const delivery of tx.eachWhere('deliveries', 'clientId', clientId)) {
    if (delivery.status === 'pending') return;
    tx.delete('deliveries', delivery.id);
    if (--excess <= 0) return;
  }
}
