import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import PQueue from 'p-queue';
import type { RuleEffect } from '../contract/scenarios.js';
import type { Deps } from '../deps.js';
import { settledStatus } from '../domain/bulk-state.js';
import { type ClockTask, isoAt } from '../domain/clock.js';
import { transferFee } from '../domain/fees.js';
import type { BulkItemRecord, BulkTransferRecord, ScheduledRecord } from '../domain/records.js';
import { nipSessionId } from '../domain/references.js';
import { INSUFFICIENT_FUNDS, type TransferFailure } from '../domain/transfer-failure.js';
import { post } from '../ledger/ledger.js';
import { backgroundError, batchSettled, batchStarted } from '../log-events.js';
import type { ScenarioEvent } from '../scenarios/matcher.js';
import type { Tx } from '../store/store.js';
import { StoreWriteError } from '../store/write-error.js';
import { type ScheduleSink, scheduleJob } from './scheduler.js';

type EngineDeps = Pick<Deps, 'store' | 'clock' | 'config' | 'fixtures' | 'log' | 'scenarios'>;

/** What came of one item: its batch after it, whether it settled the batch, whether a scenario rule failed it. */
interface Finished {
  batch: BulkTransferRecord;
  settled: boolean;
  byScenario: boolean;
  /** The reversal a rule scheduled for the item, to hand to the scheduler. */
  reversal: ScheduledRecord | undefined;
  /** The item went through (and was debited). */
  completed: boolean;
}

/**
 * Runs bulk transfer items in the background, `bulkConcurrency` at a time. Each item goes
 * pending → processing → completed | failed: at its own turn it is checked against the scenario rules (which may
 * fail it, delay it or hold it `processing` until a drain), then the balance (amount plus fee), then debited
 * through the ledger, the last two in one mutation, so an item is debited at most
 * once whatever happens around it. Its batch's counters move in the same mutation, and the batch settles when its
 * last open item finishes.
 *
 * Item mutations are not awaited for durability: nobody is waiting for an answer, and an item whose result was
 * lost in a crash is still `pending` or `processing` after the restart, where `resume()` runs it again. An item
 * whose result the disk refused (and the store undid) runs again once writes work.
 *
 * The log gets a line when a batch's items are queued (`batch.started`) and when its last one finishes
 * (`batch.settled`, with its duration on the sandbox clock).
 */
export class BulkProcessor {
  private readonly queue: PQueue;
  private closed = false;
  /** Items whose result could not be written: they run again once the store can write. */
  private readonly waitingForDisk = new Set<string>();
  private diskWaiters: (() => void)[] = [];
  /**
   * Batches with items queued, until they settle: when that began on the sandbox clock, how many of its items had
   * failed by then (their settlement was logged already), and how many of this run a scenario rule failed.
   */
  private readonly running = new Map<
    string,
    { since: number; resumed: boolean; failedBefore: number; byScenario: number }
  >();

  constructor(
    private readonly deps: EngineDeps,
    /** Where a reversal a rule schedules for an item goes. */
    private readonly later: ScheduleSink,
  ) {
    this.queue = new PQueue({ concurrency: deps.config.bulkConcurrency });
  }

  /** Queues items of a batch, in the order given. */
  enqueue(itemIds: readonly string[]): void {
    this.queueItems(itemIds, false);
  }

  /** Queues items; a batch none of whose items was queued before starts now (and says so in the log). */
  private queueItems(itemIds: readonly string[], resumed: boolean): void {
    const { store, clock, log } = this.deps;
    const starting = new Map<string, number>();
    for (const id of itemIds) {
      const batchId = store.get('bulkItems', id)?.bulkTransferId;
      if (batchId === undefined || this.running.has(batchId)) continue;
      starting.set(batchId, (starting.get(batchId) ?? 0) + 1);
    }
    for (const [batchId, queued] of starting) {
      const batch = store.get('bulkTransfers', batchId);
      if (!batch) continue;
      // A resumed batch never settled before the restart: every failure of it is this run's to report.
      const failedBefore = resumed ? 0 : batch.failedItems;
      this.running.set(batchId, { since: clock.now(), resumed, failedBefore, byScenario: 0 });
      log(batchStarted(batch, queued, resumed));
    }
    for (const id of itemIds) void this.queue.add(() => this.run(id));
  }

  /**
   * An item's result is as durable as the store makes it: a failure a scenario rule made is counted for its batch's
   * line, and the batch's last item settles it. (Results come back in the order they were written, so the last
   * item's comes after every other item's of its batch.)
   */
  private finished({ batch, settled, byScenario, reversal }: Finished): void {
    if (reversal) this.later.add(reversal);
    const run = this.running.get(batch.id);
    if (run && byScenario) run.byScenario++;
    if (settled) this.settled(batch);
  }

  /** The batch's last item finished: its line, `warn` only when an item of this run failed unexpectedly. */
  private settled(batch: BulkTransferRecord): void {
    const run = this.running.get(batch.id);
    this.running.delete(batch.id);
    const since = run?.since ?? this.deps.clock.now();
    const byScenario = run?.byScenario ?? 0;
    const failedThisRun = Math.max(0, batch.failedItems - (run?.failedBefore ?? 0));
    this.deps.log(
      batchSettled(batch, Math.max(0, this.deps.clock.now() - since), run?.resumed ?? false, {
        byScenario,
        unexpectedly: Math.max(0, failedThisRun - byScenario),
      }),
    );
  }

  /** After a start-up: queues every open item of every batch that was processing. */
  resume(): number {
    const open: string[] = [];
    for (const batch of this.deps.store.all('bulkTransfers')) {
      if (batch.status !== 'processing') continue;
      for (const item of this.deps.store.where('bulkItems', 'bulkTransferId', batch.id)) {
        if (item.status === 'pending' || item.status === 'processing') open.push(item.id);
      }
    }
    this.queueItems(open, true);
    return open.length;
  }

  /** Items queued, running, or waiting for the disk now. */
  get backlog(): number {
    return this.queue.size + this.queue.pending + this.waitingForDisk.size;
  }

  /** Resolves once nothing is queued, running, or waiting for the disk to take its result. */
  async idle(): Promise<void> {
    await this.queue.onIdle();
    while (this.waitingForDisk.size > 0) {
      await new Promise<void>((resolve) => this.diskWaiters.push(resolve));
      await this.queue.onIdle();
    }
  }

  /** Drops what is queued (reset); items already running finish against whatever state they find. */
  clear(): void {
    this.queue.clear();
    this.waitingForDisk.clear();
    this.running.clear();
    for (const resolve of this.diskWaiters.splice(0)) resolve();
  }

  /** Stops taking work; queued items stay open in the state and are resumed at the next start. */
  close(): void {
    this.closed = true;
    this.queue.pause();
    this.queue.clear();
    this.running.clear();
  }

  /** One item, as a task of the clock: an advance waits for it unless it sleeps on the clock or is held. */
  private run(itemId: string): Promise<void> {
    return this.deps.clock.run((task) => this.process(itemId, task));
  }

  private async process(itemId: string, task: ClockTask): Promise<void> {
    if (this.closed) return;
    const { store, config, log, scenarios } = this.deps;
    const item = store.get('bulkItems', itemId);
    const batch = item && store.get('bulkTransfers', item.bulkTransferId);
    if (!item || !batch) return;
    const report = (e: unknown) => log(backgroundError('bulk.item_error', itemId, e));
    try {
      // Keyed on where the item stands (its batch's ordinal, its index, its try), not on the client's reference
      // nor on when it runs: the same batches draw the same outcomes in any run, at any concurrency.
      const event: ScenarioEvent = {
        on: 'bulk.item',
        clientId: batch.clientId,
        businessId: batch.businessId,
        accountNumber: item.receiverAccountNumber,
        bankCode: item.receiverBankCode,
        amount: item.amount,
        batchName: batch.batchName,
        itemIndex: item.itemIndex,
        key: `batch ${batch.ordinal} item ${item.itemIndex} try ${item.reprocessCount}`,
        reference: `${item.retrievalReference}:${item.reprocessCount}`,
        narration: item.narration,
      };
      const matched = scenarios.matchAll(event);
      const effect = matched.hit?.effect;
      const reverse = matched.reverse?.effect.reverse;
      const wait = config.bulkItemDelay + (effect?.delayMs ?? 0);
      if (wait > 0 || effect?.hold) {
        // If this cannot be written, the item simply stays `pending` until its result is.
        void store
          .mutate((tx) => this.markProcessing(tx, itemId))
          .catch((e: unknown) => {
            if (!(e instanceof StoreWriteError)) report(e);
          });
        if (wait > 0) await task.sleep(wait);
        if (effect?.hold) await task.idleWhile(scenarios.held());
        if (this.closed) return;
      }
      void store
        .mutate((tx) => {
          const done = this.finish(tx, itemId, effect?.fail, reverse);
          // Money that went out counts in the windows of the limits (`match.over`), in the same step as the debit,
          // so the item checked next sees it whatever order the items finish in.
          if (done?.completed) scenarios.settled(event);
          return done;
        })
        .then(
          (done) => {
            if (done) this.finished(done);
          },
          (e: unknown) => {
            if (e instanceof StoreWriteError) this.runWhenWritable(itemId);
            else report(e);
          },
        );
    } catch (error) {
      report(error);
    }
    // Let I/O in between items: a batch of thousands with no delay would otherwise hold the event loop.
    await yieldToEventLoop();
  }

  /**
   * The item's result was undone because the disk refused it: the item is still open in the state, and runs
   * again (its checks and debit included) once writes work.
   */
  private runWhenWritable(itemId: string): void {
    this.waitingForDisk.add(itemId);
    void this.deps.store.whenWritable().then(() => {
      if (!this.waitingForDisk.delete(itemId)) return;
      if (!this.closed) this.queueItems([itemId], false);
      for (const resolve of this.diskWaiters.splice(0)) resolve();
    });
  }

  private markProcessing(tx: Tx, itemId: string): void {
    const item = tx.get('bulkItems', itemId);
    if (item?.status === 'pending') tx.put('bulkItems', { ...item, status: 'processing' });
  }

  /** The item's result: its batch after it, whether this settled it and whether a rule failed it; null for none. */
  private finish(
    tx: Tx,
    itemId: string,
    ruled: TransferFailure | undefined,
    reverse: RuleEffect['reverse'],
  ): Finished | null {
    const { clock, fixtures } = this.deps;
    const item = tx.get('bulkItems', itemId);
    // Gone (reset) or finished already (a resumed item whose result did survive): nothing to do.
    if (!item || item.status === 'completed' || item.status === 'failed') return null;
    const batch = tx.get('bulkTransfers', item.bulkTransferId);
    const business = batch && tx.get('businesses', batch.businessId);
    if (!batch || !business) return null;

    const charge = transferFee(item.amount, fixtures.fees);
    const failure = ruled ?? (business.balance < item.amount + charge ? INSUFFICIENT_FUNDS : undefined);
    const now = clock.now();
    let done: BulkItemRecord;
    let reversal: ScheduledRecord | undefined;
    if (failure) {
      done = { ...item, status: 'failed', ...failure, providerReference: '', processedAt: isoAt(clock) };
    } else {
      const providerReference = nipSessionId(fixtures.banks.homeBankCode, tx.random(), now);
      post(tx, clock, {
        id: item.transactionReference,
        businessId: business.id,
        kind: 'bulk_transfer',
        direction: 'debit',
        status: 'successful',
        amount: item.amount,
        charge,
        retrievalReference: item.retrievalReference,
        narration: item.narration,
        counterparty: {
          accountNumber: item.receiverAccountNumber,
          bankCode: item.receiverBankCode,
          accountName: '',
        },
        errorCode: '',
        errorMessage: '',
        providerReference,
        fingerprint: null,
        // Made in the background, by no request: the batch keeps the id of the request that created it.
        requestId: null,
      });
      if (reverse)
        reversal = scheduleJob(tx, clock, {
          kind: 'reversal',
          afterMs: reverse.afterMs,
          businessId: business.id,
          target: item.transactionReference,
          reason: reverse.reason ?? null,
        });
      done = {
        ...item,
        status: 'completed',
        errorMessage: '',
        errorCode: '',
        providerReference,
        processedAt: isoAt(clock),
      };
    }
    tx.put('bulkItems', done);
    const completedItems = batch.completedItems + (failure ? 0 : 1);
    const failedItems = batch.failedItems + (failure ? 1 : 0);
    const settled = settledStatus(batch.totalItems, completedItems, failedItems);
    const next = { ...batch, completedItems, failedItems, status: settled ?? batch.status };
    tx.put('bulkTransfers', next);
    return {
      batch: next,
      settled: settled !== null,
      byScenario: ruled !== undefined,
      reversal,
      completed: !failure,
    };
  }
}
