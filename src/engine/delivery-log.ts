import type { Tx } from '../store/store.js';

/**
 * Keeps a client's delivery log bounded. Called when a delivery finishes (delivered, failed, dropped, or
 * skipped at once): while the client holds more than `limit` deliveries, its oldest finished ones are deleted.
 * Pending deliveries are never dropped, so a backlog may hold the log past the limit until it is sent; then
 * each delivery that finishes trims it again. Deliveries finish roughly in order, so the walk from the oldest
 * stops after a step or two: the cost does not grow with the log.
 */
export function pruneDeliveries(tx: Tx, clientId: string, limit: number): void {
  let excess = tx.countWhere('deliveries', 'clientId', clientId) - limit;
  if (excess <= 0) return;
  for (const delivery of tx.eachWhere('deliveries', 'clientId', clientId)) {
    if (delivery.status === 'pending') continue;
    tx.delete('deliveries', delivery.id);
    if (--excess <= 0) return;
  }
}
