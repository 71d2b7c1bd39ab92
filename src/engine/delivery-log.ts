import type { Tx } from '../store/store.js';

/**
 * Keeps a client's delivery log bounded: while it holds more than `limit` deliveries, the oldest finished one
 * (delivered, failed, skipped or dropped) is deleted. Pending deliveries are never dropped, so a backlog of them
 * may exceed the limit until they finish; each one that finishes trims the log again.
 */
export function pruneDeliveries(tx: Tx, clientId: string, limit: number): void {
  const deliveries = tx.where('deliveries', 'clientId', clientId);
  let excess = deliveries.length - limit;
  for (const delivery of deliveries) {
    if (excess <= 0) return;
    if (delivery.status === 'pending') continue;
    tx.delete('deliveries', delivery.id);
    excess--;
  }
}
