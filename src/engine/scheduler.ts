import type { Deps } from '../deps.js';
import { type Clock, capAtEnd, isoAt } from '../domain/clock.js';
import type { ScheduledRecord } from '../domain/records.js';
import type { ScheduledKind } from '../domain/statuses.js';
import { backgroundError } from '../log-events.js';
import type { Tx } from '../store/store.js';
import { StoreWriteError } from '../store/write-error.js';

/**
 * What a piece of work due later does, inside the mutation that removes it from the state (so it runs exactly once,
 * a restart included): it may answer something to do once that mutation is durable (hand a delivery to the
 * dispatcher). It must check before it writes, and not throw for a target that moved on (a reset, a reversal made by
 * hand meanwhile): it leaves such a target alone.
 */
export type ScheduledRun = (tx: Tx, job: ScheduledRecord) => (() => void) | undefined;

/**
 * Writes a job due `afterMs` from now on the sandbox clock, in the caller's mutation (so that it is kept exactly when
 * what made it is). The caller hands it to the scheduler (`add`) once that mutation is durable.
 */
export function scheduleJob(
  tx: Tx,
  clock: Clock,
  job: Pick<ScheduledRecord, 'kind' | 'businessId' | 'target' | 'reason'> & { afterMs: number },
): ScheduledRecord {
  const { afterMs, ...what } = job;
  const record: ScheduledRecord = {
    id: tx.random().uuid(),
    ...what,
    // Capped at the end of time, where the clock stands still: a job due past it would never come.
    dueAt: capAtEnd(clock.now() + afterMs),
    createdAt: isoAt(clock),
  };
  tx.put('scheduled', record);
  return record;
}

/** Where a scheduled job goes once its mutation is durable: the world's scheduler. */
export type ScheduleSink = Pick<Scheduler, 'add'>;

/** Jobs run in one mutation at most: thousands due at once are written in a few group commits, not one each. */
const BATCH = 500;

interface Due {
  id: string;
  dueAt: number;
  seq: number;
}

/** Earlier first; at the same moment, in the order they were scheduled. */
const before = (a: Due, b: Due) => a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);

/**
 * The work the sandbox does later on its clock: scheduled reversals, refunds of mispaid money, late duplicate
 * webhooks. Each is a record of the state (`scheduled`), written in the same mutation as what made it, and removed
 * in the same mutation as what it does: a `kill -9` loses neither, and nothing runs twice.
 *
 * One wait on the clock at a time, for the earliest job (a heap of the rest), so ten thousand pending jobs cost the
 * clock one sleeper: an advance past their moments wakes it, it runs every job then due in time order, and sleeps
 * again until the next. `idle()` is what a drain waits for: no job due now left to run.
 */
export class Scheduler {
  private readonly heap: Due[] = [];
  private seq = 0;
  /** The moment the current wait ends, and its token (a newer wait replaces it). */
  private armedAt = Number.POSITIVE_INFINITY;
  private token: symbol | null = null;
  private running = false;
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly deps: Pick<Deps, 'store' | 'clock' | 'log'>,
    private readonly runs: Record<ScheduledKind, ScheduledRun>,
  ) {}

  /** After a start-up (or a state put back): every job the state holds, armed. */
  resume(): number {
    const jobs = [...this.deps.store.all('scheduled')].sort((a, b) => a.dueAt - b.dueAt);
    for (const job of jobs) this.push(job);
    this.arm();
    return jobs.length;
  }

  /** A job a committed mutation wrote: it runs when it is due. */
  add(job: ScheduledRecord): void {
    if (this.closed) return;
    this.push(job);
    this.arm();
  }

  /** Jobs waiting for their moment, or running. */
  get pending(): number {
    return this.heap.length;
  }

  /** Resolves once no job that is due now is waiting or running (jobs due later do not hold it). */
  idle(): Promise<void> {
    if (!this.busyNow()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Forgets every job (a reset: the state that held them is replaced). */
  clear(): void {
    this.heap.length = 0;
    this.token = null;
    this.armedAt = Number.POSITIVE_INFINITY;
    this.wakeIdle();
  }

  /** Stops: jobs stay in the state and are resumed at the next start. */
  close(): void {
    this.closed = true;
    this.clear();
  }

  private busyNow(): boolean {
    const first = this.heap[0];
    return this.running || (first !== undefined && first.dueAt <= this.deps.clock.now());
  }

  private wakeIdle(): void {
    if (this.busyNow()) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Waits on the clock for the earliest job, unless a wait ends by then already. */
  private arm(): void {
    const first = this.heap[0];
    if (this.closed || this.running || first === undefined) return;
    if (this.token !== null && this.armedAt <= first.dueAt) return;
    const token = Symbol('scheduled');
    this.token = token;
    this.armedAt = first.dueAt;
    const { clock } = this.deps;
    // A task of the clock: idle while it sleeps, busy from its waking until the jobs then due are written, so an
    // advance runs them at their moment, before it moves on.
    void clock.run(async (task) => {
      await task.sleep(Math.max(0, first.dueAt - clock.now()));
      if (this.token !== token) return;
      this.token = null;
      this.armedAt = Number.POSITIVE_INFINITY;
      await this.runDue();
      this.arm();
      this.wakeIdle();
    });
  }

  /** Runs every job due now, a batch to a mutation. */
  private async runDue(): Promise<void> {
    this.running = true;
    try {
      for (;;) {
        const now = this.deps.clock.now();
        const batch: Due[] = [];
        while (batch.length < BATCH && this.heap[0] !== undefined && this.heap[0].dueAt <= now) {
          batch.push(this.pop() as Due);
        }
        if (batch.length === 0 || this.closed) return;
        const after = await this.write(batch);
        if (after === null) return;
        for (const then of after) then();
      }
    } finally {
      this.running = false;
    }
  }

  /** One batch in one mutation; null when the disk refused it (the jobs wait for writes to work again). */
  private async write(batch: readonly Due[]): Promise<(() => void)[] | null> {
    const { store, log } = this.deps;
    try {
      return await store.mutate((tx) => {
        const after: (() => void)[] = [];
        for (const { id } of batch) {
          const job = tx.get('scheduled', id);
          // Gone: a reset replaced the state that held it.
          if (!job) continue;
          tx.delete('scheduled', id);
          try {
            const then = this.runs[job.kind](tx, job);
            if (then) after.push(then);
          } catch (error) {
            log(backgroundError('scheduled.error', id, error));
          }
        }
        return after;
      });
    } catch (error) {
      if (!(error instanceof StoreWriteError)) throw error;
      // Undone: the jobs are still in the state; they run once writes work.
      for (const due of batch) {
        this.heap.push(due);
        this.up(this.heap.length - 1);
      }
      void store.whenWritable().then(() => this.arm());
      return null;
    }
  }

  private push(job: ScheduledRecord): void {
    this.heap.push({ id: job.id, dueAt: job.dueAt, seq: this.seq++ });
    this.up(this.heap.length - 1);
  }

  private pop(): Due | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (top === undefined || last === undefined || this.heap.length === 0) return top;
    this.heap[0] = last;
    this.down(0);
    return top;
  }

  private up(i: number): void {
    const { heap } = this;
    for (let at = i; at > 0; ) {
      const parent = (at - 1) >> 1;
      const a = heap[at] as Due;
      const p = heap[parent] as Due;
      if (!before(a, p)) return;
      heap[at] = p;
      heap[parent] = a;
      at = parent;
    }
  }

  private down(i: number): void {
    const { heap } = this;
    for (let at = i; ; ) {
      const l = 2 * at + 1;
      const r = l + 1;
      let least = at;
      if (l < heap.length && before(heap[l] as Due, heap[least] as Due)) least = l;
      if (r < heap.length && before(heap[r] as Due, heap[least] as Due)) least = r;
      if (least === at) return;
      const a = heap[at] as Due;
      heap[at] = heap[least] as Due;
      heap[least] = a;
      at = least;
    }
  }
}
