import type { Deps } from '../../deps.js';
import { isoOf } from '../../domain/clock.js';
import type { BulkProcessor } from '../../engine/bulk-processor.js';
import type { WebhookDispatcher } from '../../engine/webhook-dispatcher.js';
import { keepName, SandboxError } from '../../errors.js';

/** At most this many batches, items per batch and deliveries are named: a report stays readable. */
const LIST_LIMIT = 100;

/** An open item of a batch that is still processing. */
export interface WaitingItem {
  id: string;
  itemIndex: number;
  status: 'pending' | 'processing';
}

/** A batch still processing, with its open items (the first `LIST_LIMIT` of them, by index). */
export interface WaitingBatch {
  id: string;
  clientId: string;
  businessId: string;
  batchName: string;
  totalItems: number;
  openItems: number;
  items: WaitingItem[];
}

/** A pending webhook delivery and when its next attempt is due. */
export interface WaitingDelivery {
  id: string;
  clientId: string;
  businessId: string;
  attemptsMade: number;
  attemptsLeft: number;
  /** ISO time on the sandbox clock; null when it is not scheduled (queued behind another of its client's). */
  nextAttemptAt: string | null;
  /** How far ahead of the clock that is (0 when due); null with `nextAttemptAt`. */
  dueInMs: number | null;
}

/** What a drain that gave up was still waiting for. */
export interface WaitingWork {
  clock: { now: string; frozen: boolean; offsetMs: number };
  /** Bulk items queued or running in the engine; webhook deliveries scheduled, queued or being attempted. */
  backlog: { bulkItems: number; deliveries: number };
  batches: WaitingBatch[];
  /** Batches still processing, named or not. */
  batchCount: number;
  deliveries: WaitingDelivery[];
  /** Pending deliveries, named or not. */
  deliveryCount: number;
}

/** What background work is still open: batches processing with their open items, pending deliveries, the clock. */
export function waitingWork(
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

/** `0–3, 7, 9–12`: item indexes as runs. */
function runs(indexes: readonly number[]): string {
  const parts: string[] = [];
  let start: number | undefined;
  let last: number | undefined;
  const flush = () => {
    if (start === undefined || last === undefined) return;
    parts.push(start === last ? `${start}` : `${start}–${last}`);
  };
  for (const i of indexes) {
    if (last !== undefined && i === last + 1) last = i;
    else {
      flush();
      start = i;
      last = i;
    }
  }
  flush();
  return parts.join(', ');
}

/** One paragraph naming what is still waiting, for the error message of a drain that gave up. */
export function describeWaiting(work: WaitingWork): string {
  const lines: string[] = [];
  for (const b of work.batches) {
    const byStatus = (status: WaitingItem['status']) =>
      b.items.filter((i) => i.status === status).map((i) => i.itemIndex);
    const states = (['processing', 'pending'] as const)
      .map((status) => [status, byStatus(status)] as const)
      .filter(([, indexes]) => indexes.length > 0)
      .map(([status, indexes]) => `${status} ${runs(indexes)}`);
    const more = b.openItems > b.items.length ? `, and ${b.openItems - b.items.length} more` : '';
    lines.push(
      `bulk transfer ${b.id} "${b.batchName}" with ${b.openItems} of ${b.totalItems} items open (items ${states.join('; ')}${more})`,
    );
  }
  if (work.batchCount > work.batches.length)
    lines.push(`${work.batchCount - work.batches.length} more bulk transfers`);
  for (const d of work.deliveries) {
    const next =
      d.nextAttemptAt === null
        ? 'its next attempt queued'
        : d.dueInMs === 0
          ? `its next attempt due now (${d.nextAttemptAt})`
          : `its next attempt due at ${d.nextAttemptAt}, in ${d.dueInMs} ms on the sandbox clock`;
    lines.push(
      `webhook delivery ${d.id} after ${d.attemptsMade} attempt(s), ${d.attemptsLeft} left, ${next}`,
    );
  }
  if (work.deliveryCount > work.deliveries.length)
    lines.push(`${work.deliveryCount - work.deliveries.length} more webhook deliveries`);
  if (lines.length === 0) {
    lines.push(
      `no open batch or pending delivery, but ${work.backlog.bulkItems} bulk item(s) and ${work.backlog.deliveries} delivery(ies) still in the engines`,
    );
  }
  const clock = work.clock.frozen
    ? `The clock is frozen at ${work.clock.now}: nothing comes due until it is advanced (POST /__sandbox/clock/advance).`
    : `The clock runs, at ${work.clock.now}.`;
  return `Still waiting for: ${lines.join('; ')}. ${clock}`;
}

/**
 * A drain that gave up (status 408, as `POST /__sandbox/drain` answers it): its message names what is still
 * waiting, and `waiting` holds it as data. Over HTTP (`connectSandbox`) the message is the one the sandbox sent.
 */
export class DrainTimeoutError extends SandboxError {
  static {
    keepName(DrainTimeoutError, 'DrainTimeoutError');
  }

  constructor(
    readonly timeoutMs: number,
    readonly waiting: WaitingWork,
    message = `The queues were still busy after ${timeoutMs} ms. ${describeWaiting(waiting)}`,
  ) {
    super(message, 408);
  }
}
