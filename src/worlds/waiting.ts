import type { WaitingBatch, WaitingDelivery, WaitingItem, WaitingWork } from '../contract/control/sandbox.js';
import type { Deps } from '../deps.js';
import { isoOf } from '../domain/clock.js';
import type { BulkProcessor } from '../engine/bulk-processor.js';
import type { WebhookDispatcher } from '../engine/webhook-dispatcher.js';

/** At most this many batches, items per batch and deliveries are named: a report stays readable. */
const LIST_LIMIT = 100;

/** What background work is still open: batches processing with their open items, pending deliveries, the clock. */
export function waitingWorkNow(
  deps: Pick<Deps, 'store' | 'clock'>,
  engines: { bulk: BulkProcessor; webhooks: WebhookDispatcher },
): WaitingWork {
  const { store, clock } = deps;
  const now = clock.now();
  const processing = store.all('bulkTransfers').filter((b) => b.status === 'processing');
  const batches = processing.slice(0, LIST_LIMIT).map((b): WaitingBatch => {
    const open: WaitingItem[] = [];
    for (const i of store.eachWhere('bulkItems', 'bulkTransferId', b.id)) {
      if (i.status === 'pending' || i.status === 'processing')
        open.push({ id: i.id, itemIndex: i.itemIndex, status: i.status });
    }
    open.sort((x, y) => x.itemIndex - y.itemIndex);
    return {
      id: b.id,
      clientId: b.clientId,
      businessId: b.businessId,
      batchName: b.batchName,
      totalItems: b.totalItems,
      openItems: open.length,
      items: open.slice(0, LIST_LIMIT),
    };
  });
  const pending = store.all('deliveries').filter((d) => d.status === 'pending');
  pending.sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0));
  const deliveries = pending.slice(0, LIST_LIMIT).map(
    (d): WaitingDelivery => ({
      id: d.id,
      clientId: d.clientId,
      businessId: d.businessId,
      attemptsMade: d.attempts.length,
      attemptsLeft: d.attemptsLeft,
      nextAttemptAt: d.nextAttemptAt === null ? null : isoOf(d.nextAttemptAt),
      dueInMs: d.nextAttemptAt === null ? null : Math.max(0, d.nextAttemptAt - now),
    }),
  );
  return {
    clock: clock.describe(),
    backlog: { bulkItems: engines.bulk.backlog, deliveries: engines.webhooks.backlog },
    batches,
    batchCount: processing.length,
    deliveries,
    deliveryCount: pending.length,
  };
}
